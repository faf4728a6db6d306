import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { Bar } from 'react-chartjs-2';

// Only what a bar chart needs: chart.js tree-shakes the rest away.
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface ChartSpec {
  title: string;
  labels: string[];
  datasets: { label: string; data: number[]; color: string }[];
  stacked?: boolean;
}

/** A horizontal bar chart of a report (lazy-loaded: chart.js never weighs on the other screens). */
export default function ReportChart({ spec }: { spec: ChartSpec }) {
  const summary = spec.labels
    .map((label, i) => `${label}: ${spec.datasets.reduce((s, d) => s + (d.data[i] ?? 0), 0)}`)
    .join(', ');
  return (
    <figure className="report-chart border rounded p-2 mb-0">
      <figcaption className="small fw-semibold mb-1">{spec.title}</figcaption>
      <div className="report-chart-canvas">
        <Bar
          role="img"
          aria-label={`${spec.title}. ${summary}`}
          data-testid="report-chart"
          data={{
            labels: spec.labels,
            datasets: spec.datasets.map((d) => ({
              label: d.label,
              data: d.data,
              backgroundColor: d.color,
              borderRadius: 3,
            })),
          }}
          options={{
            indexAxis: 'y',
            maintainAspectRatio: false,
            animation: false,
            plugins: { legend: { display: spec.datasets.length > 1, position: 'bottom' } },
            scales: {
              x: { stacked: !!spec.stacked, beginAtZero: true, ticks: { precision: 0 } },
              y: { stacked: !!spec.stacked },
            },
          }}
        />
      </div>
    </figure>
  );
}
