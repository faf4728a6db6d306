import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import type { PaymentDispute } from '../../shared/contracts/payments';
import { formatStaffDateTime } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useSubmitEvidenceMutation } from './payment-api';
import { openSection, sectionId } from './section';

const words = (s: string | null) => (s ? s.replaceAll('_', ' ') : 'not given');

/** What happens after the evidence went to the bank: the wait, who tells us, and what each outcome means. */
export const AFTER_EVIDENCE =
  'What happens next: the bank reviews the evidence, which can take up to 75 days. The payment provider tells us the outcome and it appears here and in the status timeline: won, the money stays; lost, the disputed amount is taken back. Nothing more is needed from the team until then.';

function afterText(d: PaymentDispute): string {
  const by = d.evidence_by ? ` by ${d.evidence_by}` : '';
  if (d.evidence_submitted_at)
    return `Evidence submitted ${formatStaffDateTime(d.evidence_submitted_at)}${by}.`;
  return 'The bank is reviewing the dispute.';
}

/**
 * An open dispute at the top of the order page: its reason, the disputed amount and the deadline to
 * respond, "Submit evidence" (the Defence Pack and the order's evidence, after a confirmation) for the
 * roles that may, and once submitted what happens next. A closed dispute shows nothing here (the
 * Payment section keeps its history).
 */
export function DisputeBanner({ order }: { order: OrderDetails }) {
  const d = order.dispute;
  const [submit, sending] = useSubmitEvidenceMutation();
  const [asking, setAsking] = useState(false);
  if (!d || d.closed_at) return null;
  const mayEvidence = can(sessionUser()?.type ?? null, 'orders.disputeEvidence');
  const send = async () => {
    setAsking(false);
    try {
      toast.success((await submit({ orderId: order.order_id, submit: true }).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Alert
      variant={d.takes_evidence ? 'danger' : 'warning'}
      className="py-2 mb-3"
      data-testid="dispute-banner"
      role="region"
      aria-label="Dispute"
    >
      <div className="d-flex flex-wrap align-items-center gap-2">
        <strong>The payment is disputed</strong>
        <span>
          Reason: <span data-testid="dispute-reason">{words(d.reason)}</span>
        </span>
        <span aria-hidden>·</span>
        <span>
          Amount: <span data-testid="dispute-amount">{d.amount}</span>
        </span>
        {d.takes_evidence && d.due_by ? (
          <>
            <span aria-hidden>·</span>
            <span>
              Respond by: <strong data-testid="dispute-deadline">{formatStaffDateTime(d.due_by)}</strong>
            </span>
          </>
        ) : null}
        {d.takes_evidence && mayEvidence ? (
          <Button
            size="sm"
            variant="primary"
            className="ms-auto"
            disabled={sending.isLoading}
            onClick={() => setAsking(true)}
          >
            Submit evidence
          </Button>
        ) : null}
      </div>
      {d.takes_evidence ? (
        <p className="small mb-0 mt-1">
          {mayEvidence
            ? 'Submitting sends the Defence Pack and the evidence to the bank; it cannot be changed afterwards.'
            : 'A Manager or an Admin submits the evidence.'}{' '}
          <a href={`#${sectionId('Payment')}-block`} onClick={() => openSection('Payment')}>
            Dispute details
          </a>
        </p>
      ) : (
        <p className="small mb-0 mt-1" data-testid="dispute-next">
          {afterText(d)} {AFTER_EVIDENCE}
        </p>
      )}
      <ConfirmDialog
        show={asking}
        message="Submit the Defence Pack and the evidence to the bank now? Submitted evidence cannot be changed."
        busy={sending.isLoading}
        onYes={() => void send()}
        onNo={() => setAsking(false)}
      />
    </Alert>
  );
}
