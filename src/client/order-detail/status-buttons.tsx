import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { MOVABLE_STATUSES, type Role, STATUS_BUTTON_LABELS } from '../../shared/constants';
import type { MailPreview, OrderDetails } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { errorMessage } from '../transport/api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { serviceToday } from '../../shared/dates';
import { decide, orderStateOf } from '../../shared/order-rules';
import { sessionUser } from '../transport/session';
import { useRestoreOrdersMutation } from '../orders/orders-api';
import { useAppDispatch } from '../state/store';
import { likelyNextStatus } from '../live/describe';
import { offerUndo } from '../live/undo';
import {
  ForceCompleteDialog,
  MailBeforeMove,
  setSkipsMailPreview,
  skipsMailPreview,
} from '../components/mail-before-move';
import { useLazyGetMailPreviewQuery, useMoveOrderStatusMutation } from './order-detail-api';
import { useGetOrderPaymentQuery } from './payment-api';
import { CheckboxField } from '../components/form-kit/form-field';
import {
  NO_REFUND_REASON,
  RefundReasonFields,
  type RefundReasonValue,
  refundReasonBody,
  refundReasonFrom,
  refundReasonReady,
} from '../components/refund-reason-fields';

type Movable = (typeof MOVABLE_STATUSES)[number];

/** Moves that cannot be taken back with one click ask first (docs/decisions/042). */
const CONFIRM: Partial<Record<Movable, string>> = {
  Deleted: MSG.confirmDelete,
  Refunded: 'Are you sure want to move this order to Completed Refunds? The customer will be mailed.',
};

/** The state and calls of useStatusMove, shared by the buttons and the questions. */
type MoveFlow = ReturnType<typeof useStatusMove>;

/**
 * The moves of the order and the questions before them: the confirmation of a move that cannot be taken
 * back, the customer's mail first, someone else's recent move, and an Admin's forced completion.
 */
function useStatusMove(order: OrderDetails, role: Role | null) {
  const [move, moving] = useMoveOrderStatusMutation();
  const [restore, restoring] = useRestoreOrdersMutation();
  const isLoading = moving.isLoading || restoring.isLoading;
  const [pending, setPending] = useState<Movable | null>(null);
  const [ask, setAsk] = useState<{ status: Movable; preview: MailPreview } | null>(null);
  const [recent, setRecent] = useState<{ status: Movable; message: string } | null>(null);
  const [force, setForce] = useState<string | null>(null);
  const [reason, setReason] = useState<RefundReasonValue>(NO_REFUND_REASON);
  const [loadPreview] = useLazyGetMailPreviewQuery();
  const dispatch = useAppDispatch();

  const runRestore = async () => {
    try {
      const res = await restore({ orderId: [order.order_id] }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const run = async (status: Movable, extra: { confirmRecent?: boolean; forceReason?: string } = {}) => {
    setAsk(null);
    try {
      const why = status === 'Refunded' ? refundReasonBody(reason) : {};
      const res = await move({ orderId: order.order_id, updatingStatus: status, ...extra, ...why }).unwrap();
      // Undo for 10 s: a move back (or a restore after a delete), as its own change; it also cancels
      // the customer mail the move holds (the message names it).
      offerUndo(dispatch, {
        orderId: order.order_id,
        from: order.process_status,
        to: status,
        message: res.message,
        assigned: !!order.assign_to,
        processingDate: order.processing_date,
      });
    } catch (error) {
      refused(status, error, !!extra.forceReason);
    } finally {
      setPending(null);
    }
  };

  // A refusal that asks (someone else just moved it) or that an Admin may override (no card).
  const refused = (status: Movable, error: unknown, forced: boolean) => {
    const body = (error as { data?: { data?: { recentMove?: unknown; orders?: unknown } } }).data?.data;
    if (body?.recentMove) setRecent({ status, message: errorMessage(error) });
    else if (status === 'Completed' && role === 'Admin' && body?.orders && !forced)
      setForce(errorMessage(error));
    else toast.error(errorMessage(error));
  };

  // Before a move that mails the customer: which mail it is (unless the user turned that off).
  const start = async (status: Movable) => {
    if (status === 'Refunded') setReason(refundReasonFrom(order.refund_reason, order.refund_reason_text));
    if (CONFIRM[status]) return setPending(status);
    if (!skipsMailPreview()) {
      let preview: MailPreview = null;
      try {
        preview = await loadPreview({ orderId: order.order_id, status }).unwrap();
      } catch (error) {
        // The move would be refused (Completed without a card): say so now, mail nothing.
        if ((error as { status?: number }).status === 409) return refused(status, error, false);
      }
      if (preview) return setAsk({ status, preview });
    }
    return run(status);
  };

  return {
    isLoading,
    pending,
    setPending,
    ask,
    setAsk,
    recent,
    setRecent,
    force,
    setForce,
    reason,
    setReason,
    runRestore,
    run,
    start,
  };
}

/** The questions a move may ask before it is made; each starts the move again or closes. */
function MoveDialogs({
  order,
  flow,
  confirmText,
  onMailShown,
}: {
  order: OrderDetails;
  flow: MoveFlow;
  confirmText: (status: Movable) => string;
  onMailShown: () => void;
}) {
  const { ask, recent, force, pending, reason, isLoading, run } = flow;
  return (
    <>
      {ask ? (
        <MailBeforeMove
          preview={ask.preview}
          action={STATUS_BUTTON_LABELS[ask.status]}
          busy={isLoading}
          onYes={() => {
            onMailShown();
            void run(ask.status);
          }}
          onNo={() => flow.setAsk(null)}
        />
      ) : null}
      <ConfirmDialog
        show={recent !== null}
        message={recent?.message ?? ''}
        busy={isLoading}
        onYes={() => {
          const status = recent?.status;
          flow.setRecent(null);
          if (status) void run(status, { confirmRecent: true });
        }}
        onNo={() => flow.setRecent(null)}
      />
      {force !== null ? (
        <ForceCompleteDialog
          message={force}
          busy={isLoading}
          onYes={(reason) => {
            flow.setForce(null);
            void run('Completed', { forceReason: reason });
          }}
          onNo={() => flow.setForce(null)}
        />
      ) : null}
      <ConfirmDialog
        show={pending !== null}
        message={pending ? confirmText(pending) : ''}
        busy={isLoading}
        onYes={() => pending && run(pending)}
        onNo={() => flow.setPending(null)}
        ready={pending !== 'Refunded' || refundReasonReady(reason)}
      >
        {pending === 'Refunded' ? (
          <RefundReasonFields
            id={`refund-reason-${order.order_id}`}
            value={reason}
            onChange={flow.setReason}
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/**
 * One button per status the order may move to, as the shared order rules allow for this role (the
 * server decides again); a deleted order offers Restore instead. Counts and lists refresh after.
 */
export function StatusButtons({ order }: { order: OrderDetails }) {
  const role = sessionUser()?.type ?? null;
  const flow = useStatusMove(order, role);
  const { isLoading } = flow;
  const [showMailFirst, setShowMailFirst] = useState(() => !skipsMailPreview());
  const next = likelyNextStatus(order.process_status);
  const state = orderStateOf(order);
  const today = serviceToday();
  const movable = MOVABLE_STATUSES.filter((to) => decide(state, { kind: 'move', to }, role, today).allowed);
  const canRestore = decide(state, { kind: 'restore' }, role, today).allowed;
  const { data: payment } = useGetOrderPaymentQuery(order.order_id);
  /** A refund through a provider names it and the amount: "Refund 59.00 USD through Stripe …?" */
  const confirmText = (status: Movable) =>
    status === 'Refunded' && payment?.integrated
      ? `Refund ${payment.remaining} through ${payment.gateway} and move this order to Completed Refunds? The customer will be mailed.`
      : (CONFIRM[status] ?? '');

  return (
    <nav aria-label="Move order" className="d-flex flex-wrap gap-2 mb-3">
      {canRestore ? (
        <Button variant="primary" size="sm" disabled={isLoading} onClick={flow.runRestore}>
          Restore
        </Button>
      ) : null}
      {movable.map((status) => (
        <Button
          key={status}
          variant={status === 'Deleted' ? 'outline-danger' : status === next ? 'primary' : 'outline-dark'}
          size="sm"
          disabled={isLoading}
          onClick={() => void flow.start(status)}
        >
          {STATUS_BUTTON_LABELS[status]}
        </Button>
      ))}
      <CheckboxField
        asSwitch
        id={`mail-first-${order.order_id}`}
        className="ms-auto small align-self-center"
        label="Show the customer's mail first"
        checked={showMailFirst}
        onChange={(e) => {
          setSkipsMailPreview(!e.currentTarget.checked);
          setShowMailFirst(e.currentTarget.checked);
        }}
      />
      <MoveDialogs
        order={order}
        flow={flow}
        confirmText={confirmText}
        onMailShown={() => setShowMailFirst(!skipsMailPreview())}
      />
    </nav>
  );
}
