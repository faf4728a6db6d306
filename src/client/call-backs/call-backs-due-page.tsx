import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import type { CallBackDue } from '../../shared/contracts/call-backs';
import { formatStaffDateTime } from '../../shared/dates';
import { column, DataTable } from '../components/list-kit/data-table';
import { api, errorMessage } from '../transport/api';

const callBacksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCallBacksDue: build.query<CallBackDue[], void>({
      query: () => ({ url: 'admin/call-backs-due' }),
      providesTags: ['Counts'],
    }),
  }),
});
const { useGetCallBacksDueQuery } = callBacksApi;

const COLUMNS = [
  column<CallBackDue>('Order', (c) => <Link to={`/admin/view-order/${c.orderId}`}>#{c.orderId}</Link>),
  column<CallBackDue>('Customer', (c) => c.name),
  column<CallBackDue>('Status', (c) => c.status),
  column<CallBackDue>('Due since', (c) => formatStaffDateTime(c.callBackAt)),
  column<CallBackDue>('From', (c) => (c.fromCustomer ? 'Low rating (any Telecaller)' : 'You')),
  column<CallBackDue>('Note', (c) => c.note),
];

/**
 * /admin/call-backs-due: the signed-in member's call-backs whose time has come, and for a Telecaller the
 * ones customers asked for by a low rating (decision 383). Logging a contact on the order settles one.
 */
export function Component() {
  const { currentData, error, isFetching } = useGetCallBacksDueQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  return (
    <section className="p-3" aria-labelledby="call-backs-title">
      <h1 id="call-backs-title" className="h4">
        Call-backs due
      </h1>
      {error ? <Alert variant="danger">{errorMessage(error)}</Alert> : null}
      {isFetching && !currentData ? (
        <div className="spinner-border spinner-border-sm" role="status" aria-label="Loading" />
      ) : null}
      {currentData ? (
        <DataTable
          rows={currentData}
          columns={COLUMNS}
          rowId={(c) => String(c.orderId)}
          label="Call-backs due"
          className="table table-sm table-striped"
          wrapClassName="table-responsive"
          empty="No call-back is due."
        />
      ) : null}
    </section>
  );
}
