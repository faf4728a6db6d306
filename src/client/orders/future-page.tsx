import Card from 'react-bootstrap/Card';
import { useSearchParams } from 'react-router';
import { MONTHS } from '../../shared/constants';
import { errorMessage } from '../transport/api';
import { orderScreen } from './nav';
import { LoadError } from '../components/load-error';
import { FUTURE_COLUMNS } from './columns';
import { useGetFolderCountQuery } from './counts-api';
import { OrderQueue } from './order-queue';
import { useGetFutureMonthCountQuery } from './orders-api';

type Month = (typeof MONTHS)[number];
const { title } = orderScreen('future-order');
const isMonth = (m: string | null): m is Month => !!m && (MONTHS as readonly string[]).includes(m);

/** Future Orders: month tiles Jan–Dec with counts -> the month's table -> Back. */
export function Component() {
  const [params, setParams] = useSearchParams();
  const month = params.get('month');
  const counts = useGetFolderCountQuery(undefined, { refetchOnMountOrArgChange: true });
  const months = useGetFutureMonthCountQuery(undefined, { refetchOnMountOrArgChange: true });

  if (isMonth(month)) {
    return (
      <OrderQueue
        key={month}
        folder="futureOrder"
        title={title}
        month={month}
        columns={FUTURE_COLUMNS}
        folderTotal={months.data?.[month]}
        onBack={() => setParams({})}
      />
    );
  }
  return (
    <section className="p-3" aria-labelledby="future-title">
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 id="future-title" className="h4 mb-0">
          {title}
        </h1>
        <button
          type="button"
          className="btn btn-outline-primary btn-sm"
          // Refresh asks again for the month counts and the folder counts (the page does not reload).
          onClick={() => {
            void months.refetch();
            void counts.refetch();
          }}
        >
          Refresh
        </button>
      </div>
      {months.isError ? (
        <LoadError
          className="mb-3"
          message={errorMessage(months.error)}
          onRetry={() => void months.refetch()}
        />
      ) : null}
      <div className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 row-cols-xl-6 g-3">
        {MONTHS.map((m) => (
          <div className="col" key={m}>
            <Card
              as="button"
              type="button"
              className="w-100 text-center shadow-sm"
              onClick={() => setParams({ month: m })}
            >
              <Card.Body>
                <div className="fw-semibold">{m}</div>
                <div className="fs-3" data-testid={`month-count-${m}`}>
                  {months.data ? months.data[m] : months.isError ? '-' : '…'}
                </div>
                <span className="visually-hidden">orders</span>
              </Card.Body>
            </Card>
          </div>
        ))}
      </div>
    </section>
  );
}
