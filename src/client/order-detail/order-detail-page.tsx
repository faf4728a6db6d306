import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useParams } from 'react-router';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { decodeOrderId } from '../../shared/order-id';
import { EVIDENCE_STATUSES } from '../../shared/order-rules';
import { errorMessage } from '../transport/api';
import { DueBadge, DUE_STATE_HINT, DUE_STATE_LABEL } from '../components/due-badge';
import { OrderLivePanel } from '../live/order-live-panel';
import { OrderActionBar } from './action-bar';
import { AddRemarkSection } from './add-remark-section';
import { ArrivalDetailsSection } from './arrival-details-section';
import { ArrivalSection } from './arrival-section';
import { RemarkHistorySection } from './remark-history-section';
import { ConversationSection } from './conversation-section';
import { DefencePackButtons } from './defence-pack-buttons';
import { DisputeBanner } from './dispute-banner';
import { DownloadHistorySection } from './download-history-section';
import { EmailContentModal } from './email-content-modal';
import { EmailHistorySection } from './email-history-section';
import { useGetOrderDetailsQuery } from './order-detail-api';
import { OrderChecksSection } from './order-checks-section';
import { OrderDetailsSection } from './order-details-section';
import { PassportSection } from './passport-section';
import { openSection, sectionId } from './section';
import { PaymentSection } from './payment-section';
import { PersonalInfoSection } from './personal-info-section';
import { StatusTimelineSection } from './status-timeline-section';
import { SubmitSection } from './submit-section';
import { TransactionDetailsModal } from './transaction-details-modal';
import { TripInfoSection } from './trip-info-section';
import { UploadDocumentSection } from './upload-document-section';

export const ORDER_NOT_FOUND = 'Order not found';
const EVIDENCE = new Set<string>(EVIDENCE_STATUSES);
const PENDING_MAIL = new Set(['queued', 'sending', 'retrying']);
const MAIL_POLL_MS = 3000;

/** /admin/view-order/:orderId — the encoded id of one order and every section, in docs/product.md order. */
export function Component() {
  const { orderId: encoded = '' } = useParams();
  const orderId = decodeOrderId(encoded);
  if (orderId === null) {
    return (
      <Alert variant="warning" className="m-3" role="alert">
        {ORDER_NOT_FOUND}
      </Alert>
    );
  }
  return <OrderDetailView orderId={orderId} />;
}

function OrderDetailView({ orderId }: { orderId: number }) {
  const [pollMail, setPollMail] = useState(false);
  const { data, error, isLoading } = useGetOrderDetailsQuery(orderId, {
    // While a mail waits in the queue, follow it until it is sent or failed.
    pollingInterval: pollMail ? MAIL_POLL_MS : 0,
  });
  const pending = !!data?.mailHistory.some((m) => PENDING_MAIL.has(m.status));
  if (pending !== pollMail) setPollMail(pending);

  if (isLoading) {
    return (
      <div className="p-4 text-center">
        <Spinner animation="border" role="status" aria-label="Loading order" />
      </div>
    );
  }
  if (error || !data) {
    const status = (error as { status?: unknown } | undefined)?.status;
    return (
      <Alert variant={status === 404 ? 'warning' : 'danger'} className="m-3" role="alert">
        {status === 404 ? ORDER_NOT_FOUND : errorMessage(error)}
      </Alert>
    );
  }
  return <OrderDetail key={data.order_id} order={data} />;
}

function OrderDetail({ order }: { order: OrderDetails }) {
  const [modal, setModal] = useState<'email' | 'transaction' | null>(null);
  const evidence = EVIDENCE.has(order.process_status);
  // Where the conversation sits is decided when the order opens: reading the answer does not move it.
  const [replied] = useState(order.customer_replied === true);

  return (
    <div className="order-detail">
      <header className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h4 mb-0 text-break">
          Order {order.order_id} — {order.first_name} {order.last_name}
        </h1>
        <Badge bg="secondary" data-testid="process-status">
          {order.process_status}
        </Badge>
        {order.due_state === 'paused' || order.due_state === 'trip_passed' ? (
          <span className="small" data-testid="detail-due">
            Due <DueBadge row={order} />
            <span className="ms-1 text-body-secondary">{DUE_STATE_HINT[order.due_state]}</span>
          </span>
        ) : order.due_at && order.due_state ? (
          <span className="small" data-testid="detail-due">
            Due <DueBadge row={order} />
            <span className="visually-hidden"> ({DUE_STATE_LABEL[order.due_state]})</span>
          </span>
        ) : null}
        {order.customer_replied && (
          <a
            href={`#${sectionId('Conversation')}-block`}
            className="badge text-bg-warning text-decoration-none"
            data-testid="detail-replied"
            onClick={() => openSection('Conversation')}
          >
            Customer replied
          </a>
        )}
        {order.failing_address ? (
          <a
            href={`#${sectionId('Conversation')}-block`}
            className="badge text-bg-danger text-decoration-none"
            data-testid="detail-failing-address"
            title={`Mail to ${order.email} bounced: ${order.failing_address}`}
            onClick={() => openSection('Conversation')}
          >
            Mail bounces: {order.email}
          </a>
        ) : null}
        {order.assign_to && <span className="small text-body-secondary">Assigned to {order.assign_to}</span>}
      </header>
      {/* An open dispute first: its reason, amount and deadline, and Submit evidence. */}
      <DisputeBanner order={order} />
      {/* Who else is on the order, changes made elsewhere, refused changes; back to the queue. */}
      <OrderLivePanel order={order} />
      {/* The order's data checks first: what the government would reject, and possible duplicates. */}
      <OrderChecksSection order={order} />
      {/* An unread answer: the conversation comes first (after the checks), where the badge points. */}
      {replied && <ConversationSection order={order} />}
      {/* The traveller's passport and trip right under the checks, above everything else. */}
      <PassportSection order={order} />
      <ArrivalSection order={order} />
      {/* The government form's packet to submit from, and the reference (docs/product.md). */}
      <SubmitSection order={order} />
      {/* First in the reading order (a few Tab presses away), shown fixed at the bottom of the screen. */}
      <OrderActionBar order={order} />
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button variant="primary" size="sm" onClick={() => setModal('email')}>
          View Email Content
        </Button>
        {evidence && (
          <>
            <DefencePackButtons orderId={order.order_id} />
            <Button variant="outline-primary" size="sm" onClick={() => setModal('transaction')}>
              Enter Transaction Details
            </Button>
          </>
        )}
      </div>
      {/* The traveller's identity and trip first; Upload is one click away (Upload in the action bar). */}
      <ArrivalDetailsSection order={order} />
      <PersonalInfoSection order={order} />
      <TripInfoSection order={order} />
      <UploadDocumentSection order={order} />
      <EmailHistorySection order={order} />
      <OrderDetailsSection order={order} />
      <PaymentSection order={order} />
      <DownloadHistorySection order={order} />
      <RemarkHistorySection order={order} />
      <AddRemarkSection order={order} />
      <StatusTimelineSection order={order} />
      {!replied && <ConversationSection order={order} />}
      <EmailContentModal order={order} show={modal === 'email'} onHide={() => setModal(null)} />
      {evidence && (
        <TransactionDetailsModal order={order} show={modal === 'transaction'} onHide={() => setModal(null)} />
      )}
    </div>
  );
}
