import { lazy, type ReactNode, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { column, DataTable } from '../components/list-kit/data-table';
import { useAuditedExport } from '../components/use-audited-export';
import type { InsightsChartSpec } from './insights-chart';
import type { Period } from './periods';

// chart.js lives in its own chunk, fetched only when the dashboard draws.
const InsightsChart = lazy(() => import('./insights-chart'));

type Cell = string | number | null;
const rowIndex = (_: unknown, i: number) => String(i);
interface Column<R> {
  label: string;
  value: (row: R) => Cell;
}

export const COLORS = {
  blue: '#0d6efd',
  green: '#198754',
  orange: '#fd7e14',
  red: '#dc3545',
  grey: '#6c757d',
  purple: '#6f42c1',
};
export const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);
export const hours = (v: number | null) => (v === null ? '–' : `${v} h`);
export const sumOf = <R,>(rows: R[], f: (r: R) => number) => rows.reduce((s, r) => s + f(r), 0);

/** One part of the dashboard: its chart, its table (scrollable) and the table as a CSV download. */
export function Section<R>({
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

/** One headline figure beside the previous period's, green or red by which way is better. */
export function Kpi({
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
