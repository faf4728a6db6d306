import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderStatus } from '../../shared/constants';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { CLOSED_STATUSES } from '../../shared/order-rules';
import { can } from '../../shared/permissions';
import { errorMessage } from '../app/api';
import { sessionUser } from '../app/session';
import { useAssignOrdersMutation } from '../orders/orders-api';
import { openSection, sectionId } from './section';
import { StatusButtons } from './status-buttons';

/** Opens a section if it was closed, brings it into view and puts the cursor in its first field. */
function jumpTo(title: string, fieldId: string) {
  openSection(title);
  // The section renders open on the next frame; then scroll and focus.
  requestAnimationFrame(() => {
    document.getElementById(`${sectionId(title)}-block`)?.scrollIntoView({ block: 'center' });
    document.getElementById(fieldId)?.focus({ preventScroll: true });
  });
}

/** Assign to me while nobody holds the open order; give it back when it is one's own (or as Admin/Manager). */
function AssignButton({ order }: { order: OrderDetails }) {
  const [assign, { isLoading }] = useAssignOrdersMutation();
  const me = sessionUser();
  if (CLOSED_STATUSES.includes(order.process_status as OrderStatus)) return null;
  const held = !!order.assign_to;
  if (held && order.assign_to !== me?.name && !can(me?.type ?? null, 'orders.releaseAny')) return null;
  const run = async () => {
    try {
      const res = await assign({
        orderId: [order.order_id],
        assignto: held ? '' : me?.name || 'me',
      }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Button size="sm" variant="primary" disabled={isLoading} onClick={run}>
      {held ? 'Move to Original Folder' : 'Assign to me'}
    </Button>
  );
}

/**
 * The detail page's working bar, fixed to the bottom of the screen so it stays in reach however far the
 * page is scrolled: assign, jump to the remark form or the upload, and every status move the role may use.
 */
export function OrderActionBar({ order }: { order: OrderDetails }) {
  return (
    <section className="detail-action-bar" aria-label="Order actions">
      <div className="detail-quick">
        <AssignButton order={order} />
        <Button size="sm" variant="outline-dark" onClick={() => jumpTo('Add Comment Below', 'remark')}>
          Remark
        </Button>
        <Button size="sm" variant="outline-dark" onClick={() => jumpTo('Upload Document', 'upload-file')}>
          Upload
        </Button>
      </div>
      <div className="detail-moves">
        <StatusButtons order={order} />
      </div>
    </section>
  );
}
