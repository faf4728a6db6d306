import type { OrderListRow } from '../../shared/contracts/orders';
import type { SlaState } from '../../shared/contracts/sla';
import { formatStaffDateTime } from '../../shared/dates';
import { dueText } from '../orders/columns';

export const SLA_LABEL: Record<SlaState, string> = {
  on_track: 'On track',
  at_risk: 'At risk',
  breached: 'Late',
};
const SLA_CLASS: Record<SlaState, string> = {
  on_track: 'text-bg-success',
  at_risk: 'text-bg-warning',
  breached: 'text-bg-danger',
};

/** "in 5 h" / "2 h late", coloured by the order's due state (list rows and the order detail). */
export function DueBadge({ row }: { row: Pick<OrderListRow, 'due_at' | 'sla_state'> }) {
  if (!row.due_at || !row.sla_state) return <span className="text-muted">-</span>;
  return (
    <span
      className={`badge ${SLA_CLASS[row.sla_state]}`}
      title={`${SLA_LABEL[row.sla_state]}: due ${formatStaffDateTime(row.due_at)}`}
      data-testid="due-badge"
    >
      {dueText(row.due_at)}
    </span>
  );
}
