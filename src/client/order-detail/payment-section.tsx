import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import type { OrderPayment, PaymentDispute } from '../../shared/contracts/payments';
import { formatStaffDateTime } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { ConfirmDialog } from '../components/confirm-dialog';
import { column, DataTable } from '../components/list-kit/data-table';
import {
  useGetOrderPaymentQuery,
  useRefundThroughProviderMutation,
  useSubmitEvidenceMutation,
} from './payment-api';
import { FieldGrid, Section } from './section';
import { CheckboxField, TextField } from '../components/form-kit/form-field';

const words = (s: string | null) => (s ? s.replaceAll('_', ' ') : '');

function evidenceText(d: PaymentDispute): string {
  const by = d.evidence_by ? ` by ${d.evidence_by}` : '';
  if (d.evidence_submitted_at) return `Submitted ${formatStaffDateTime(d.evidence_submitted_at)}${by}`;
  if (d.evidence_saved_at) return `Draft saved ${formatStaffDateTime(d.evidence_saved_at)}${by}`;
  return 'Not sent yet';
}

type Refund = OrderPayment['refunds'][number];
const refundId = (r: Refund) => `${r.created_at}-${r.refund_id ?? r.status}`;
const refundColumns = (gateway: string | null) => [
  column<Refund>('Refund', (r) => r.refund_id ?? '-'),
  column<Refund>('Amount', (r) => r.amount),
  column<Refund>('Status', (r) => `${r.status}${r.error ? ` — ${r.error}` : ''}`),
  column<Refund>('When', (r) => formatStaffDateTime(r.created_at)),
  column<Refund>('By', (r) =>
    r.source === 'outside' ? `at ${gateway ?? 'the provider'}` : (r.requested_by ?? '-'),
  ),
];

/** A dispute with its deadline and evidence; Submit evidence and Save as draft while it takes evidence. */
function DisputeCard({
  dispute: d,
  mayEvidence,
  busy,
  onSubmit,
  onDraft,
}: {
  dispute: PaymentDispute;
  mayEvidence: boolean;
  busy: boolean;
  onSubmit: () => void;
  onDraft: () => void;
}) {
  return (
    <div className="border rounded p-2 mt-3" data-testid="payment-dispute">
      <FieldGrid
        fields={[
          ['Dispute', d.dispute_id],
          ['Dispute status', words(d.status)],
          ['Reason', words(d.reason)],
          ['Disputed amount', d.amount],
          ['Respond by', d.due_by && d.takes_evidence ? formatStaffDateTime(d.due_by) : ''],
          ['Evidence', evidenceText(d)],
        ]}
      />
      {d.takes_evidence && mayEvidence ? (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <Button size="sm" variant="primary" disabled={busy} onClick={onSubmit}>
            Submit evidence
          </Button>
          <Button size="sm" variant="outline-secondary" disabled={busy} onClick={onDraft}>
            Save evidence as draft
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** A refund through the provider: an amount (empty: all that is left) and whether to close the order. */
function RefundForm({
  order,
  gateway,
  amount,
  onAmount,
  close,
  onClose,
  busy,
  onAsk,
}: {
  order: OrderDetails;
  gateway: string | null;
  amount: string;
  onAmount: (amount: string) => void;
  close: boolean;
  onClose: (close: boolean) => void;
  busy: boolean;
  onAsk: () => void;
}) {
  return (
    <form
      className="d-flex flex-wrap align-items-end gap-2 mt-3"
      data-testid="refund-form"
      onSubmit={(e) => {
        e.preventDefault();
        onAsk();
      }}
    >
      <TextField
        id="refund-amount"
        label="Amount to refund (empty: all that is left)"
        labelClassName="small mb-0"
        size="sm"
        inputMode="decimal"
        placeholder={order.amount}
        value={amount}
        maxLength={12}
        onChange={(e) => onAmount(e.target.value)}
      />
      <CheckboxField
        id="refund-close"
        className="small mb-1"
        label="Refund and close (Completed Refunds even if part is left)"
        checked={close}
        onChange={(e) => onClose(e.target.checked)}
      />
      <Button size="sm" type="submit" variant="success" disabled={busy}>
        Refund through {gateway}
      </Button>
    </form>
  );
}

/** "Refund 20.00 USD through Stripe?": the amount typed, or all that is left. */
function refundQuestion(order: OrderDetails, payment: OrderPayment, amount: string, close: boolean): string {
  const typed = amount.trim();
  const what =
    typed && /^\d+(\.\d{1,2})?$/.test(typed)
      ? `${Number(typed).toFixed(2)} ${order.currency}`
      : typed || payment.remaining;
  const closing = close ? ' and close the order (Completed Refunds)' : '';
  return `Refund ${what} through ${payment.gateway}${closing}?`;
}

/** The evidence and refund calls of the section, each with its toast; the refund form empties after. */
function usePaymentActions(orderId: number) {
  const [submitEvidence, sending] = useSubmitEvidenceMutation();
  const [refund, refunding] = useRefundThroughProviderMutation();
  const [confirm, setConfirm] = useState(false);
  const [amount, setAmount] = useState('');
  const [close, setClose] = useState(false);
  const [askRefund, setAskRefund] = useState<string | null>(null);

  const send = async (submit: boolean) => {
    setConfirm(false);
    try {
      const res = await submitEvidence({ orderId, submit }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const refundPart = async () => {
    setAskRefund(null);
    try {
      const res = await refund({
        orderId,
        amount: amount.trim() || undefined,
        close: close || undefined,
      }).unwrap();
      // The server's answer names the refund id, what was refunded so far and what is left.
      toast.success(res.message);
      setAmount('');
      setClose(false);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return {
    sending: sending.isLoading,
    refunding: refunding.isLoading,
    confirm,
    setConfirm,
    amount,
    setAmount,
    close,
    setClose,
    askRefund,
    setAskRefund,
    send,
    refundPart,
  };
}

/**
 * Payment: the gateway the order was paid through and whether money moves through it here (or why it is
 * handled by hand), its disputes with their deadline and evidence, and its refunds.
 */
export function PaymentSection({ order }: { order: OrderDetails }) {
  const { data } = useGetOrderPaymentQuery(order.order_id);
  const actions = usePaymentActions(order.order_id);
  if (!data) return null;
  const role = sessionUser()?.type ?? null;
  const mayEvidence = can(role, 'orders.disputeEvidence');
  const open = data.disputes.find((d) => d.takes_evidence);

  return (
    <Section title="Payment">
      <FieldGrid
        fields={[
          ['Gateway', data.gateway ?? ''],
          ['Transaction ID', order.transaction_id ?? ''],
          ['Amount paid', `${order.amount} ${order.currency}`],
        ]}
      />
      {data.integrated ? (
        <p className="small text-muted mt-2 mb-0" data-testid="payment-integrated">
          Refunds and chargeback evidence go through {data.gateway} from here.
        </p>
      ) : (
        <Alert variant="secondary" className="small mt-2 mb-0 py-2" data-testid="payment-manual">
          Handled by hand: {data.manual_reason}
        </Alert>
      )}
      {data.disputes.map((d) => (
        <DisputeCard
          key={d.dispute_id}
          dispute={d}
          mayEvidence={mayEvidence}
          busy={actions.sending}
          onSubmit={() => actions.setConfirm(true)}
          onDraft={() => void actions.send(false)}
        />
      ))}
      {data.integrated && (data.refunds.length || order.process_status === 'Refunds') ? (
        <p className="small mt-2 mb-0" data-testid="payment-refunded-so-far">
          Refunded so far: {data.refunded_so_far} · Remaining: {data.remaining}
          {data.pending_refund ? ` · Waiting for ${data.gateway}'s answer on ${data.pending_refund}` : ''}
        </p>
      ) : null}
      {data.integrated && order.process_status === 'Refunds' ? (
        <RefundForm
          order={order}
          gateway={data.gateway}
          amount={actions.amount}
          onAmount={actions.setAmount}
          close={actions.close}
          onClose={actions.setClose}
          busy={actions.refunding}
          onAsk={() => actions.setAskRefund(refundQuestion(order, data, actions.amount, actions.close))}
        />
      ) : null}
      {data.refunds.length ? (
        <DataTable
          rows={data.refunds}
          columns={refundColumns(data.gateway)}
          rowId={refundId}
          className="table table-sm mb-0 small"
          wrapClassName="table-responsive mt-3"
          empty={null}
        />
      ) : null}
      <ConfirmDialog
        show={actions.askRefund !== null}
        message={actions.askRefund ?? ''}
        busy={actions.refunding}
        onYes={() => void actions.refundPart()}
        onNo={() => actions.setAskRefund(null)}
      />
      <ConfirmDialog
        show={actions.confirm && !!open}
        message="Submit the Defence Pack and the evidence to the bank now? Submitted evidence cannot be changed."
        busy={actions.sending}
        onYes={() => void actions.send(true)}
        onNo={() => actions.setConfirm(false)}
      />
    </Section>
  );
}
