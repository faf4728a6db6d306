import { useMemo } from 'react';
import { BACKLOG_BUCKETS, type InsightsData } from '../../shared/contracts/insights';
import { formatStaffDateTime } from '../../shared/dates';
import { COLORS, hours, Kpi, pct, Section, sumOf } from './insights-section';
import { PaymentsCard } from './payments-card';
import type { Period } from './periods';

interface Props {
  data: InsightsData;
  previous?: InsightsData | undefined;
  period: Period;
}

const mailFailed = (d: InsightsData) => sumOf(d.mail, (r) => r.failed);
/** The x axis of the per-day charts: each day of the period as MM-DD. */
const dayLabels = (d: InsightsData) => d.throughput.map((t) => t.day.slice(5));

/** The headline figures of the period, each beside the previous period's. */
function KpiRow({ data, previous }: Omit<Props, 'period'>) {
  return (
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
  );
}

function BacklogSection({ data, period }: Props) {
  return (
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
  );
}

function ThroughputSection({ data, previous, period }: Props) {
  const prevCompleted = previous?.throughput.map((d) => d.completed);
  return (
    <Section
      title="Throughput"
      period={period}
      csvName="throughput"
      chart={{
        title: 'Orders per day',
        type: 'line',
        labels: dayLabels(data),
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
  );
}

function TimeToCompleteSection({ data, period }: Props) {
  return (
    <Section
      title="Time to complete"
      period={period}
      csvName="time-to-complete"
      note={`Whole hours from payment to Completed. Whole period: median ${hours(data.timeToComplete.overall.medianHours)}, 90th percentile ${hours(data.timeToComplete.overall.p90Hours)} over ${data.timeToComplete.overall.completed} completions.`}
      chart={{
        title: 'Hours from payment to Completed',
        type: 'line',
        labels: dayLabels(data),
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
  );
}

function StaffSection({ data, period }: Props) {
  return (
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
  );
}

function OnTimeSection({ data, previous, period }: Props) {
  return (
    <Section
      title="On time"
      period={period}
      csvName="on-time"
      note={`Share of completions at or before the order's due time. Whole period: ${pct(data.onTime.overall.share)}; ${data.onTime.overall.withoutDue} completed without a due time, not counted.`}
      chart={{
        title: 'Completed on time',
        type: 'line',
        percent: true,
        labels: dayLabels(data),
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
  );
}

function ChargebacksSection({ data, period }: Props) {
  return (
    <Section
      title="Chargebacks"
      period={period}
      csvName="chargebacks"
      note={`Whole period: ${data.chargebacks.overall.chargebacks} chargebacks, ${pct(data.chargebacks.overall.share)} of completed orders.`}
      chart={{
        title: 'New chargebacks per day',
        type: 'bar',
        labels: dayLabels(data),
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
  );
}

function MailSection({ data, period }: Props) {
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
  return (
    <Section
      title="Mail"
      period={period}
      csvName="mail"
      chart={{
        title: 'Mail per day (both providers)',
        type: 'bar',
        stacked: true,
        labels: dayLabels(data),
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
  );
}

/** The dashboard of one period: the headline figures, then each part with its chart, table and CSV. */
export function Dashboard(props: Props) {
  return (
    <>
      <KpiRow data={props.data} previous={props.previous} />
      <BacklogSection {...props} />
      <ThroughputSection {...props} />
      <TimeToCompleteSection {...props} />
      <StaffSection {...props} />
      <OnTimeSection {...props} />
      <ChargebacksSection {...props} />
      {props.data.payments ? <PaymentsCard payments={props.data.payments} /> : null}
      <MailSection {...props} />
    </>
  );
}
