import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { isClosedStatus } from '../../shared/order-rules';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { nextFolders } from '../live/next-order';
import { useAssignOrdersMutation } from '../orders/orders-api';
import { MacroMenu } from '../communication/macro-menu';
import { whatsappLink } from './email-content-modal';
import { useClaimNextOrderMutation } from './order-detail-api';
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
  if (isClosedStatus(order.process_status)) return null;
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

/** Where the next order comes from: Priority first, then New Orders. */
const NEXT_FOLDERS = ['priorityOrder', 'newOrder'] as const;
export const NO_NEXT_ORDER = 'No unassigned order is waiting in Priority Order or New Orders.';

/** Next order: assigns to me the most urgent order nobody holds and opens it. */
function NextOrderButton() {
  const [claim, { isLoading }] = useClaimNextOrderMutation();
  const navigate = useNavigate();
  const run = async () => {
    // The queue the user came from first (remembered for the tab), then Priority and New.
    for (const folderName of new Set([...nextFolders(), ...NEXT_FOLDERS])) {
      try {
        const res = await claim({ folderName }).unwrap();
        if (res.data) {
          toast.success(res.message);
          navigate(`/admin/view-order/${encodeOrderId(res.data.orderId)}`);
          return;
        }
      } catch (error) {
        // Nothing waiting here: try the next folder; anything else is said at once.
        if ((error as { status?: unknown }).status !== 404) {
          toast.error(errorMessage(error));
          return;
        }
      }
    }
    toast.info(NO_NEXT_ORDER);
  };
  if (!can(sessionUser()?.type ?? null, 'orders.assign')) return null;
  return (
    <Button size="sm" variant="outline-dark" disabled={isLoading} onClick={run}>
      Next order
    </Button>
  );
}

/**
 * The detail page's working bar, fixed to the bottom of the screen so it stays in reach however far the
 * page is scrolled: assign, jump to the remark form or the upload, take the next order, and every status
 * move the role may use.
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
        <NextOrderButton />
        {can(sessionUser()?.type ?? null, 'macros.apply') && (
          <MacroMenu
            orderIds={[order.order_id]}
            size="sm"
            drop="up"
            whatsapp={(text) => whatsappLink(order, text)}
          />
        )}
      </div>
      <div className="detail-moves">
        <StatusButtons order={order} />
      </div>
    </section>
  );
}
