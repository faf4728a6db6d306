import type { CountryReportRow } from '../../shared/contracts/reports';
import type { ChartSpec } from './report-chart';
import { type ReportColumn, ReportScreen } from './report-screen';
import { useGetCountryOrderCountQuery } from './reports-api';

const COLUMNS: ReportColumn<CountryReportRow>[] = [
  { label: 'State/Territory', value: (r) => r.nationality },
  { label: 'Order Count', value: (r) => r.count, numeric: true },
  { label: 'Standard Processing', value: (r) => r.standard_count, numeric: true },
  { label: 'Priority Processing', value: (r) => r.priority_count, numeric: true },
  { label: 'Future Order Processing', value: (r) => r.future_count, numeric: true },
];

const TOP = 10;

/** Top nationalities by order count, split by processing mode. */
function chart(rows: CountryReportRow[]): ChartSpec {
  const top = [...rows].sort((a, b) => b.count - a.count).slice(0, TOP);
  return {
    title: `Top ${Math.min(TOP, top.length)} nationalities by orders`,
    labels: top.map((r) => r.nationality),
    stacked: true,
    datasets: [
      { label: 'Standard Processing', data: top.map((r) => r.standard_count), color: '#0d6efd' },
      { label: 'Priority Processing', data: top.map((r) => r.priority_count), color: '#fd7e14' },
    ],
  };
}

const searchText = (r: CountryReportRow) => r.nationality;

/** Country Order List (/admin/country-order-list). */
export function Component() {
  return (
    <ReportScreen
      title="Country Order Details"
      useReport={useGetCountryOrderCountQuery}
      columns={COLUMNS}
      searchText={searchText}
      searchLabel="nationality"
      csvName="country-order-details"
      chart={chart}
    />
  );
}
