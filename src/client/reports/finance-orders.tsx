import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { FinanceFigure, FinanceOrdersQuery } from '../../shared/contracts/finance';
import { encodeOrderId } from '../../shared/order-id';
import { errorMessage } from '../transport/api';
import { useGetFinanceOrdersQuery } from './reports-api';

export const money = (cents: number | null) => (cents === null ? '–' : `$${(cents / 100).toFixed(2)}`);

/** What the staff read for each figure whose orders are listed. */
const FIGURE_LABELS: Record<FinanceFigure, string> = {
  gross: 'Gross',
  providerFees: 'Provider fees',
  governmentFees: 'Government fees',
  refunds: 'Refunds',
  disputes: 'Disputes',
  disputeFees: 'Dispute fees',
  wonBack: 'Won back',
  other: 'Other',
  net: 'Net',
};

export type FinanceSelection = Omit<FinanceOrdersQuery, 'limit'>;

/** The orders behind one figure of the finance report: each links to its order; the unmatched part apart. */
export function FinanceOrders({
  selection,
  reasonLabel,
}: {
  selection: FinanceSelection;
  reasonLabel?: string;
}) {
  const { data, error, isFetching } = useGetFinanceOrdersQuery(selection);
  const title = `${FIGURE_LABELS[selection.figure]}${reasonLabel ? ` (${reasonLabel})` : ''}, ${
    selection.from === selection.to ? selection.from : `${selection.from} to ${selection.to}`
  }`;
  return (
    <section className="mt-3" aria-labelledby="finance-orders-title" data-testid="finance-orders">
      <h2 className="h6" id="finance-orders-title">
        Orders behind {title}
      </h2>
      {error ? (
        <p className="text-danger" role="alert">
          {errorMessage(error)}
        </p>
      ) : null}
      {isFetching && !data ? <p className="small text-body-secondary">Loading…</p> : null}
      {data ? (
        <>
          <p className="small mb-1" data-testid="finance-orders-summary">
            {data.orderCount} {data.orderCount === 1 ? 'order' : 'orders'}, {money(data.orderTotal)}
            {data.unmatched.entries
              ? `; ${money(data.unmatched.amount)} in ${data.unmatched.entries} transactions not matched to an order`
              : ''}
            ; the figure {money(data.figureTotal)}.
            {data.orders.length < data.orderCount ? ` The ${data.orders.length} largest are listed.` : ''}
          </p>
          {data.orders.length ? (
            <Table size="sm" responsive>
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Name</th>
                  <th>Status</th>
                  <th className="text-end">Entries</th>
                  <th className="text-end">Amount</th>
                </tr>
              </thead>
              <tbody>
                {data.orders.map((o) => (
                  <tr key={o.orderId}>
                    <td>
                      <Link to={`/admin/view-order/${encodeOrderId(o.orderId)}`}>#{o.orderId}</Link>
                    </td>
                    <td>{o.name}</td>
                    <td>{o.status}</td>
                    <td className="text-end">{o.entries}</td>
                    <td className="text-end">{money(o.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
