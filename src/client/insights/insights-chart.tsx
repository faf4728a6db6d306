import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';

// Bar and line only: chart.js tree-shakes the rest away; this module is its own lazy chunk.
ChartJS.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

export interface InsightsChartSpec {
  title: string;
  type: 'bar' | 'line';
  labels: string[];
  datasets: { label: string; data: (number | null)[]; color: string; dashed?: boolean }[];
  stacked?: boolean;
  /** Values are shares 0…1, shown as percentages. */
  percent?: boolean;
  /** Values are already percentages (e.g. 0.5 for 0.5 %), shown with decimals. */
  percentValues?: boolean;
}

/** One chart of the insights dashboard (the same chart library as the reports, loaded lazily). */
export default function InsightsChart({ spec }: { spec: InsightsChartSpec }) {
  const data = {
    labels: spec.labels,
    datasets: spec.datasets.map((d) => ({
      label: d.label,
      data: d.data,
      backgroundColor: d.color,
      borderColor: d.color,
      borderDash: d.dashed ? [6, 4] : [],
      pointRadius: spec.labels.length > 40 ? 0 : 2,
      spanGaps: true,
    })),
  };
  const options = {
    maintainAspectRatio: false,
    animation: false as const,
    plugins: { legend: { display: spec.datasets.length > 1, position: 'bottom' as const } },
    scales: {
      x: { stacked: !!spec.stacked },
      y: {
        stacked: !!spec.stacked,
        beginAtZero: true,
        ...(spec.percent
          ? { max: 1, ticks: { callback: (v: string | number) => `${Math.round(Number(v) * 100)} %` } }
          : spec.percentValues
            ? { ticks: { callback: (v: string | number) => `${Number(v)} %` } }
            : { ticks: { precision: 0 } }),
      },
    },
  };
  const label = `${spec.title}: ${spec.datasets.map((d) => d.label).join(', ')}`;
  return (
    <figure className="border rounded p-2 mb-2" data-testid="insights-chart">
      <figcaption className="small fw-semibold mb-1">{spec.title}</figcaption>
      <div style={{ position: 'relative', height: 260 }}>
        {spec.type === 'bar' ? (
          <Bar role="img" aria-label={label} data={data} options={options} />
        ) : (
          <Line role="img" aria-label={label} data={data} options={options} />
        )}
      </div>
    </figure>
  );
}
