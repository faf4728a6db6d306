import type { ProcessedByRow } from '../../shared/contracts/reports';
import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import type { ChartSpec } from './report-chart';
import { type ReportColumn, ReportScreen } from './report-screen';
import { useGetProcessedByCountQuery } from './reports-api';

const COLUMNS: ReportColumn<ProcessedByRow>[] = [
  { label: 'Name', value: (r) => r.processed_by },
  { label: 'Order Count', value: (r) => r.count, numeric: true },
];

const TOP = 15;

/** Orders completed per staff member. */
function chart(rows: ProcessedByRow[]): ChartSpec {
  const top = [...rows].sort((a, b) => b.count - a.count).slice(0, TOP);
  return {
    title: 'Orders completed per staff member',
    labels: top.map((r) => r.processed_by),
    datasets: [{ label: 'Order Count', data: top.map((r) => r.count), color: '#198754' }],
  };
}

const searchText = (r: ProcessedByRow) => r.processed_by;

/** Order Processed (/admin/processed-order): Admin and Manager only (the server enforces it too). */
export function Component() {
  const user = useSessionUser();
  if (!can(user?.type, 'reports.processedBy')) {
    return (
      <section className="p-3">
        <h1 className="h4">Processed By</h1>
        <p className="text-muted mb-0" role="alert">
          You do not have permission to do this.
        </p>
      </section>
    );
  }
  return (
    <ReportScreen
      title="Processed By"
      useReport={useGetProcessedByCountQuery}
      columns={COLUMNS}
      searchText={searchText}
      searchLabel="name"
      csvName="processed-by"
      chart={chart}
    />
  );
}
