import { lazy, Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import type { RatingInsights } from '../../shared/contracts/self-service';
import { formatStaffDate, formatStaffDateTime } from '../../shared/dates';
import { column, DataTable } from '../components/list-kit/data-table';
import { api, errorMessage } from '../transport/api';
import { encodeOrderId } from '../../shared/order-id';

// chart.js lives in its own chunk, as for the other sections of the dashboard.
const InsightsChart = lazy(() => import('./insights-chart'));

const ratingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRatingInsights: build.query<RatingInsights, { weeks: number }>({
      query: ({ weeks }) => ({ url: 'admin/insights/ratings', params: { weeks } }),
      providesTags: ['Reports'],
    }),
  }),
});
const { useGetRatingInsightsQuery } = ratingsApi;

const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)} %`);
type Week = RatingInsights['weeks'][number];
type Comment = RatingInsights['comments'][number];
type Member = RatingInsights['staff'][number];

const WEEK_COLUMNS = [
  column<Week>('Week of', (w) => formatStaffDate(w.week)),
  column<Week>('Ratings', (w) => w.count),
  column<Week>('Share of 4–5', (w) => pct(w.goodShare)),
  column<Week>('Response rate', (w) => pct(w.responseRate)),
];
const COMMENT_COLUMNS = [
  column<Comment>('Order', (c) => (
    <Link to={`/admin/view-order/${encodeOrderId(c.orderId)}`}>#{c.orderId}</Link>
  )),
  column<Comment>('Score', (c) => c.score),
  column<Comment>('Comment', (c) => c.comment),
  column<Comment>('When', (c) => formatStaffDateTime(c.at)),
];
const STAFF_COLUMNS = [
  column<Member>('Completed by', (s) => s.name),
  column<Member>('Ratings', (s) => s.count),
  column<Member>('Average', (s) => s.average.toFixed(2)),
  column<Member>('Share of 4–5', (s) => pct(s.goodShare)),
];

/**
 * The customers' ratings (docs/product.md, "Customers help themselves"): per week (count, share of 4–5,
 * response rate), the latest comments with their orders, per staff member who completed the orders.
 */
export function RatingsCard({ weeks = 12 }: { weeks?: number }) {
  const { currentData: data, error, isFetching } = useGetRatingInsightsQuery({ weeks });
  return (
    <Card
      className="mb-3 shadow-sm"
      as="section"
      aria-labelledby="insights-customer-ratings"
      data-testid="insights-ratings"
    >
      <Card.Header>
        <h2 id="insights-customer-ratings" className="h6 mb-0">
          Customer ratings
        </h2>
      </Card.Header>
      <Card.Body>
        {error ? <Alert variant="danger">{errorMessage(error)}</Alert> : null}
        {isFetching && !data ? (
          <Spinner animation="border" size="sm" role="status" aria-label="Loading" />
        ) : null}
        {data ? (
          <>
            <Suspense fallback={<Spinner animation="border" size="sm" />}>
              <InsightsChart
                spec={{
                  title: 'Ratings per week',
                  type: 'bar',
                  labels: data.weeks.map((w) => formatStaffDate(w.week)),
                  datasets: [{ label: 'Ratings', data: data.weeks.map((w) => w.count), color: '#0d6efd' }],
                }}
              />
              <InsightsChart
                spec={{
                  title: 'Share of 4–5 and response rate per week',
                  type: 'line',
                  percent: true,
                  labels: data.weeks.map((w) => formatStaffDate(w.week)),
                  datasets: [
                    { label: 'Share of 4–5', data: data.weeks.map((w) => w.goodShare), color: '#198754' },
                    {
                      label: 'Response rate',
                      data: data.weeks.map((w) => w.responseRate),
                      color: '#6c757d',
                      dashed: true,
                    },
                  ],
                }}
              />
            </Suspense>
            <DataTable
              rows={data.weeks}
              columns={WEEK_COLUMNS}
              rowId={(w) => w.week}
              label="Ratings per week"
              className="table table-sm mb-3 small"
              wrapClassName="table-responsive"
              empty="No ratings yet"
            />
            <h3 className="h6">Latest comments</h3>
            <DataTable
              rows={data.comments}
              columns={COMMENT_COLUMNS}
              rowId={(c) => `${c.orderId}`}
              label="Latest comments"
              className="table table-sm mb-3 small"
              wrapClassName="table-responsive"
              empty="No comments yet"
            />
            <h3 className="h6">Per staff member who completed the orders</h3>
            <DataTable
              rows={data.staff}
              columns={STAFF_COLUMNS}
              rowId={(s) => String(s.staffId ?? 'system')}
              label="Ratings per staff member"
              className="table table-sm mb-0 small"
              wrapClassName="table-responsive"
              empty="No ratings yet"
            />
          </>
        ) : null}
      </Card.Body>
    </Card>
  );
}
