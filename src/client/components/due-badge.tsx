import type { OrderListRow } from '../../shared/contracts/orders';
import type { DueState } from '../../shared/contracts/due-time';
import { formatStaffDateTime } from '../../shared/dates';
import { dueText } from '../orders/columns';

export const DUE_STATE_LABEL: Record<DueState, string> = {
  on_track: 'On track',
  at_risk: 'At risk',
  breached: 'Late',
  paused: 'Paused',
  trip_passed: 'Trip passed',
};
const DUE_STATE_CLASS: Record<DueState, string> = {
  on_track: 'text-bg-success',
  at_risk: 'text-bg-warning',
  breached: 'text-bg-danger',
  paused: 'text-bg-secondary',
  trip_passed: 'text-bg-dark',
};
/** What the states without a running clock mean, and what to do (docs/decisions/316). */
export const DUE_STATE_HINT: Partial<Record<DueState, string>> = {
  paused: 'Waiting on someone else: the due clock stands still until the order comes back',
  trip_passed: 'The arrival date has passed: refund or close the order',
};

/**
 * "in 5 h" / "2 h late", coloured by the order's due state (list rows and the order detail); "Paused"
 * while the order waits on someone else, "Trip passed" once its arrival day is over.
 */
export function DueBadge({ row }: { row: Pick<OrderListRow, 'due_at' | 'due_state'> }) {
  const state = row.due_state;
  if (state === 'paused' || state === 'trip_passed') {
    return (
      <span
        className={`badge ${DUE_STATE_CLASS[state]}`}
        title={DUE_STATE_HINT[state]}
        data-testid="due-badge"
      >
        {DUE_STATE_LABEL[state]}
      </span>
    );
  }
  if (!row.due_at || !state) return <span className="text-muted">-</span>;
  return (
    <span
      className={`badge ${DUE_STATE_CLASS[state]}`}
      title={`${DUE_STATE_LABEL[state]}: due ${formatStaffDateTime(row.due_at)}`}
      data-testid="due-badge"
    >
      {dueText(row.due_at)}
    </span>
  );
}
