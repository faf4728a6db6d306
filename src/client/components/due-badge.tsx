import type { OrderListRow } from '../../shared/contracts/orders';
import type { SlaState } from '../../shared/contracts/sla';
import { formatStaffDateTime } from '../../shared/dates';
import { dueText } from '../orders/columns';

export const SLA_LABEL: Record<SlaState, string> = {
  on_track: 'On track',
  at_risk: 'At risk',
  breached: 'Late',
  paused: 'Paused',
  trip_passed: 'Trip passed',
};
const SLA_CLASS: Record<SlaState, string> = {
  on_track: 'text-bg-success',
  at_risk: 'text-bg-warning',
  breached: 'text-bg-danger',
  paused: 'text-bg-secondary',
  trip_passed: 'text-bg-dark',
};
/** What the states without a running clock mean, and what to do (docs/decisions/316). */
export const SLA_HINT: Partial<Record<SlaState, string>> = {
  paused: 'Waiting on someone else: the due clock stands still until the order comes back',
  trip_passed: 'The arrival date has passed: refund or close the order',
};

/**
 * "in 5 h" / "2 h late", coloured by the order's due state (list rows and the order detail); "Paused"
 * while the order waits on someone else, "Trip passed" once its arrival day is over.
 */
export function DueBadge({ row }: { row: Pick<OrderListRow, 'due_at' | 'sla_state'> }) {
  const state = row.sla_state;
  if (state === 'paused' || state === 'trip_passed') {
    return (
      <span className={`badge ${SLA_CLASS[state]}`} title={SLA_HINT[state]} data-testid="due-badge">
        {SLA_LABEL[state]}
      </span>
    );
  }
  if (!row.due_at || !state) return <span className="text-muted">-</span>;
  return (
    <span
      className={`badge ${SLA_CLASS[state]}`}
      title={`${SLA_LABEL[state]}: due ${formatStaffDateTime(row.due_at)}`}
      data-testid="due-badge"
    >
      {dueText(row.due_at)}
    </span>
  );
}
