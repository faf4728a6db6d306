import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useSearchParams } from 'react-router';
import { BACKLOG_BUCKETS, type InsightsData } from '../../shared/contracts/insights';
import { formatStaffDate, formatStaffDateTime, serviceToday } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { column, DataTable } from '../components/list-kit/data-table';
import { DateField } from '../components/form-kit/date-field';
import { useAuditedExport } from '../components/use-audited-export';
import { useSessionUser } from '../auth/use-session-user';
import type { InsightsChartSpec } from './insights-chart';
import { useGetInsightsQuery } from './insights-api';
import { type Period, PRESETS, type Preset, presetPeriod, previousPeriod, validPeriod } from './periods';
import { DisputeRatiosSection } from './dispute-ratios-section';
import { PaymentsCard } from './payments-card';
import { RatingsCard } from './ratings-card';

// chart.js lives in its own chunk, fetched only when the dashboard draws.
const InsightsChart = lazy(() => import('./insights-chart'));

type Cell = string | number | null;
const rowIndex = (_: unknown, i: number) => String(i);
interface Column<R> {
  label: string;
  value: (row: R) => Cell;
}

const COLORS = {
  blue: '#0d6efd',
  green: '#198754',
  orange: '#fd7e14',
  red: '#dc3545',
  grey: '#6c757d',
  purple: '#6f42c1',
};
const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);
const hours = (v: number | null) => (v === null ? '–' : `${v} h`);
const sumOf = <R,>(rows: R[], f: (r: R) => number) => rows.reduce((s, r) => s + f(r), 0);

/** Period in the URL: ?preset=7d, or ?preset=custom&from&to, so a dashboard link is shareable. */
function usePeriod() {
  const [params, setParams] = useSearchParams();
  const today = serviceToday();
  const preset = (PRESETS.find((p) => p.key === params.get('preset'))?.key ?? '30d') as Preset;
  const custom = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const period: Period | null =
    preset === 'custom' ? (validPeriod(custom) ? custom : null) : presetPeriod(preset, today);
  const choose = (next: Preset, range?: Period) =>
    setParams(next === 'custom' && range ? { preset: next, ...range } : { preset: next }, { replace: false });
  return { preset, period, custom, choose };
}

function Section<R>({
  title,
  chart,
  columns,
  rows,
  csvName,
  period,
  note,
}: {
  title: string;
  chart?: InsightsChartSpec | null;
  columns: Column<R>[];
  rows: R[];
  csvName: string;
  period: Period;
  note?: ReactNode;
}) {
  const { exportCsv, exporting } = useAuditedExport('insights');
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <Card className="mb-3 shadow-sm" as="section" aria-labelledby={`insights-${slug}`}>
      <Card.Header className="d-flex align-items-center gap-2">
        <h2 id={`insights-${slug}`} className="h6 mb-0 me-auto">
          {title}
        </h2>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={exporting || rows.length === 0}
          onClick={() =>
            exportCsv(
              `${csvName}-${period.from}-${period.to}.csv`,
              columns.map((c) => c.label),
              rows.map((r) => columns.map((c) => c.value(r))),
              `${title} ${period.from}..${period.to}`,
            )
          }
        >
          Export CSV
        </Button>
      </Card.Header>
      <Card.Body>
        {note ? <p className="small text-body-secondary">{note}</p> : null}
        {chart ? (
          <Suspense fallback={<Spinner animation="border" size="sm" />}>
            <InsightsChart spec={chart} />
          </Suspense>
        ) : null}
        {/* A scrollable region takes keyboard focus so it can be scrolled without a mouse (axe). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: see above */}
        <div style={{ maxHeight: 320, overflowY: 'auto' }} tabIndex={0}>
          <DataTable
            rows={rows}
            columns={columns.map((c) => column<R>(c.label, (r) => c.value(r) ?? ''))}
            rowId={rowIndex}
            label={title}
            className="table table-sm table-striped table-hover mb-0"
            empty="No records found"
          />
        </div>
      </Card.Body>
    </Card>
  );
}

function Kpi({
  label,
  now,
  before,
  format = String,
  lowerIsBetter,
}: {
  label: string;
  now: number | null;
  before: number | null | undefined;
  format?: (v: number | null) => string;
  lowerIsBetter?: boolean;
}) {
  const delta = now !== null && before !== null && before !== undefined ? now - before : null;
  const good = delta === null || delta === 0 ? null : lowerIsBetter ? delta < 0 : delta > 0;
  return (
    <Card className="shadow-sm h-100" data-testid={`kpi-${label}`}>
      <Card.Body className="py-2">
        <div className="small text-body-secondary">{label}</div>
        <div className="fs-4 fw-semibold">{format(now)}</div>
        <div
          className={`small ${good === null ? 'text-body-secondary' : good ? 'text-success' : 'text-danger'}`}
        >
          previous period: {before === undefined ? '…' : format(before)}
        </div>
      </Card.Body>
    </Card>
  );
}

function Dashboard({
  data,
  previous,
  period,
}: {
  data: InsightsData;
  previous?: InsightsData;
  period: Period;
}) {
  const days = data.throughput.map((d) => d.day.slice(5));
  const prevCompleted = previous?.throughput.map((d) => d.completed);
  const mailByDay = useMemo(() => {
    const m = new Map<string, { sent: number; failed: number; pending: number }>();
    for (const r of data.mail) {
      const x = m.get(r.day) ?? { sent: 0, failed: 0, pending: 0 };
      x.sent += r.sent;
      x.failed += r.failed;
      x.pending += r.pending;
      m.set(r.day, x);
    }
    return m;
  }, [data.mail]);
  const dayList = data.throughput.map((d) => d.day);
  const mailFailed = (d: InsightsData) => sumOf(d.mail, (r) => r.failed);

  return (
    <>
      <div className="row g-2 mb-3">
        {[
          <Kpi
            key="r"
            label="Received"
            now={sumOf(data.throughput, (d) => d.received)}
            before={previous && sumOf(previous.throughput, (d) => d.received)}
          />,
          <Kpi
            key="c"
            label="Completed"
            now={sumOf(data.throughput, (d) => d.completed)}
            before={previous && sumOf(previous.throughput, (d) => d.completed)}
          />,
          <Kpi
            key="m"
            label="Median to complete"
            now={data.timeToComplete.overall.medianHours}
            before={previous?.timeToComplete.overall.medianHours}
            format={hours}
            lowerIsBetter
          />,
          <Kpi
            key="s"
            label="On time"
            now={data.onTime.overall.share}
            before={previous?.onTime.overall.share}
            format={pct}
          />,
          <Kpi
            key="b"
            label="Chargebacks"
            now={data.chargebacks.overall.chargebacks}
            before={previous?.chargebacks.overall.chargebacks}
            lowerIsBetter
          />,
          <Kpi
            key="f"
            label="Mail failed"
            now={mailFailed(data)}
            before={previous && mailFailed(previous)}
            lowerIsBetter
          />,
        ].map((k) => (
          <div key={k.key} className="col-6 col-md-4 col-xl-2">
            {k}
          </div>
        ))}
      </div>

      <Section
        title="Backlog now"
        period={period}
        csvName="backlog"
        note={`Open orders by age since payment, as of ${formatStaffDateTime(data.asOf)}.`}
        chart={{
          title: 'Open orders by folder and age',
          type: 'bar',
          stacked: true,
          labels: data.backlog.folders.map((f) => f.label),
          datasets: BACKLOG_BUCKETS.map((b, i) => ({
            label: b.label,
            data: data.backlog.folders.map((f) => f[b.key]),
            color: [COLORS.green, COLORS.blue, COLORS.orange, COLORS.red][i]!,
          })),
        }}
        rows={[...data.backlog.folders, { ...data.backlog.total, folder: 'total', label: 'Total' }]}
        columns={[
          { label: 'Folder', value: (r) => r.label },
          ...BACKLOG_BUCKETS.map((b) => ({
            label: b.label,
            value: (r: typeof data.backlog.total) => r[b.key],
          })),
          { label: 'Total', value: (r) => r.total },
        ]}
      />

      <Section
        title="Throughput"
        period={period}
        csvName="throughput"
        chart={{
          title: 'Orders per day',
          type: 'line',
          labels: days,
          datasets: [
            { label: 'Received', data: data.throughput.map((d) => d.received), color: COLORS.blue },
            { label: 'Completed', data: data.throughput.map((d) => d.completed), color: COLORS.green },
            { label: 'Refunded', data: data.throughput.map((d) => d.refunded), color: COLORS.orange },
            { label: 'Deleted', data: data.throughput.map((d) => d.deleted), color: COLORS.grey },
            ...(prevCompleted
              ? [
                  {
                    label: 'Completed, previous period',
                    data: prevCompleted,
                    color: COLORS.green,
                    dashed: true,
                  },
                ]
              : []),
          ],
        }}
        rows={data.throughput}
        columns={[
          { label: 'Day', value: (r) => r.day },
          { label: 'Received', value: (r) => r.received },
          { label: 'Completed', value: (r) => r.completed },
          { label: 'Refunded', value: (r) => r.refunded },
          { label: 'Deleted', value: (r) => r.deleted },
        ]}
      />

      <Section
        title="Time to complete"
        period={period}
        csvName="time-to-complete"
        note={`Whole hours from payment to Completed. Whole period: median ${hours(data.timeToComplete.overall.medianHours)}, 90th percentile ${hours(data.timeToComplete.overall.p90Hours)} over ${data.timeToComplete.overall.completed} completions.`}
        chart={{
          title: 'Hours from payment to Completed',
          type: 'line',
          labels: days,
          datasets: [
            { label: 'Median', data: data.timeToComplete.days.map((d) => d.medianHours), color: COLORS.blue },
            {
              label: '90th percentile',
              data: data.timeToComplete.days.map((d) => d.p90Hours),
              color: COLORS.purple,
            },
          ],
        }}
        rows={data.timeToComplete.days}
        columns={[
          { label: 'Day', value: (r) => r.day },
          { label: 'Completed', value: (r) => r.completed },
          { label: 'Median (h)', value: (r) => r.medianHours },
          { label: '90th percentile (h)', value: (r) => r.p90Hours },
        ]}
      />

      <Section
        title="Staff"
        period={period}
        csvName="staff"
        chart={
          data.perStaff.length
            ? {
                title: 'Completed per staff member',
                type: 'bar',
                labels: data.perStaff.map((s) => s.name),
                datasets: [
                  { label: 'Completed', data: data.perStaff.map((s) => s.completed), color: COLORS.green },
                ],
              }
            : null
        }
        rows={data.perStaff}
        columns={[
          { label: 'Staff member', value: (r) => r.name },
          { label: 'Completed', value: (r) => r.completed },
          { label: 'Status moves', value: (r) => r.statusMoves },
          { label: 'Remarks', value: (r) => r.remarks },
          { label: 'Median handling (h)', value: (r) => r.medianHandlingHours },
          { label: 'Assigned', value: (r) => r.assigned },
          { label: 'Median to first action (min)', value: (r) => r.medianFirstActionMinutes },
          { label: 'Within due time', value: (r) => pct(r.onTimeShare) },
        ]}
      />

      <Section
        title="On time"
        period={period}
        csvName="on-time"
        note={`Share of completions at or before the order's due time. Whole period: ${pct(data.onTime.overall.share)}; ${data.onTime.overall.withoutDue} completed without a due time, not counted.`}
        chart={{
          title: 'Completed on time',
          type: 'line',
          percent: true,
          labels: days,
          datasets: [
            { label: 'Share', data: data.onTime.days.map((d) => d.share), color: COLORS.green },
            ...(previous
              ? [
                  {
                    label: 'Previous period',
                    data: previous.onTime.days.map((d) => d.share),
                    color: COLORS.grey,
                    dashed: true,
                  },
                ]
              : []),
          ],
        }}
        rows={data.onTime.days}
        columns={[
          { label: 'Day', value: (r) => r.day },
          { label: 'Completed (with a due time)', value: (r) => r.completed },
          { label: 'On time', value: (r) => r.withinTarget },
          { label: 'Without a due time', value: (r) => r.withoutDue },
          { label: 'Share', value: (r) => pct(r.share) },
        ]}
      />

      <Section
        title="Chargebacks"
        period={period}
        csvName="chargebacks"
        note={`Whole period: ${data.chargebacks.overall.chargebacks} chargebacks, ${pct(data.chargebacks.overall.share)} of completed orders.`}
        chart={{
          title: 'New chargebacks per day',
          type: 'bar',
          labels: days,
          datasets: [
            {
              label: 'Chargebacks',
              data: data.chargebacks.days.map((d) => d.chargebacks),
              color: COLORS.red,
            },
          ],
        }}
        rows={data.chargebacks.days}
        columns={[
          { label: 'Day', value: (r) => r.day },
          { label: 'Chargebacks', value: (r) => r.chargebacks },
          { label: 'Completed', value: (r) => r.completed },
          { label: 'Share of completed', value: (r) => pct(r.share) },
        ]}
      />
      {data.payments ? <PaymentsCard payments={data.payments} /> : null}

      <Section
        title="Mail"
        period={period}
        csvName="mail"
        chart={{
          title: 'Mail per day (both providers)',
          type: 'bar',
          stacked: true,
          labels: days,
          datasets: [
            { label: 'Sent', data: dayList.map((d) => mailByDay.get(d)?.sent ?? 0), color: COLORS.green },
            { label: 'Failed', data: dayList.map((d) => mailByDay.get(d)?.failed ?? 0), color: COLORS.red },
            {
              label: 'Pending',
              data: dayList.map((d) => mailByDay.get(d)?.pending ?? 0),
              color: COLORS.orange,
            },
          ],
        }}
        rows={data.mail}
        columns={[
          { label: 'Day', value: (r) => r.day },
          { label: 'Provider', value: (r) => r.provider },
          { label: 'Sent', value: (r) => r.sent },
          { label: 'Failed', value: (r) => r.failed },
          { label: 'Pending', value: (r) => r.pending },
        ]}
      />
    </>
  );
}

/** /admin/insights: the numbers that run the processing team (Admin, Manager). */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'insights.read');
  const { preset, period, custom, choose } = usePeriod();
  const [draft, setDraft] = useState<Period>(custom);
  const current = useGetInsightsQuery(period ?? { from: '', to: '' }, { skip: !allowed || !period });
  const prev = useGetInsightsQuery(period ? previousPeriod(period) : { from: '', to: '' }, {
    skip: !allowed || !period,
  });

  if (!allowed) return <Alert variant="warning">You do not have permission to view the insights.</Alert>;
  return (
    <div>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <h1 className="h4 mb-0 me-auto">Insights</h1>
        <ButtonGroup aria-label="Period">
          {PRESETS.map((p) => (
            <Button
              key={p.key}
              variant={preset === p.key ? 'primary' : 'outline-primary'}
              aria-pressed={preset === p.key}
              onClick={() => (p.key === 'custom' ? choose('custom', period ?? draft) : choose(p.key))}
            >
              {p.label}
            </Button>
          ))}
        </ButtonGroup>
      </div>
      {preset === 'custom' ? (
        <form
          className="d-flex flex-wrap align-items-end gap-2 mb-3"
          aria-label="Custom period"
          onSubmit={(e) => {
            e.preventDefault();
            choose('custom', draft);
          }}
        >
          <DateField
            id="insights-from"
            label="From"
            labelClassName="small mb-0"
            value={draft.from}
            onChange={(v) => setDraft((d) => ({ ...d, from: v }))}
          />
          <DateField
            id="insights-to"
            label="To"
            labelClassName="small mb-0"
            value={draft.to}
            onChange={(v) => setDraft((d) => ({ ...d, to: v }))}
          />
          <Button type="submit">Apply</Button>
          {!period ? (
            <span className="text-danger small">Choose a From and a To date, at most 366 days apart.</span>
          ) : null}
        </form>
      ) : null}
      {period ? (
        <p className="small text-body-secondary" data-testid="insights-period">
          {formatStaffDate(period.from)} – {formatStaffDate(period.to)} (service time zone), compared with{' '}
          {formatStaffDate(previousPeriod(period).from)} – {formatStaffDate(previousPeriod(period).to)}
        </p>
      ) : null}
      {current.error ? <Alert variant="danger">{errorMessage(current.error)}</Alert> : null}
      {current.isFetching && !current.currentData ? (
        <Spinner animation="border" role="status" aria-label="Loading" />
      ) : null}
      {current.currentData && period ? (
        <Dashboard data={current.currentData} previous={prev.currentData} period={period} />
      ) : null}
      <DisputeRatiosSection />
      <RatingsCard />
    </div>
  );
}
