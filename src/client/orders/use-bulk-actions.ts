import { useState } from 'react';
import { toast } from 'react-toastify';
import type { Folder, Role } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { serviceToday } from '../../shared/dates';
import { type BulkAction, folderActions } from '../../shared/folder-actions';
import { MSG } from '../../shared/messages';
import { decide, type OrderAction, orderStateOf } from '../../shared/order-rules';
import {
  NO_REFUND_REASON,
  type RefundReasonValue,
  refundReasonBody,
  refundReasonFrom,
  refundReasonReady,
} from '../components/refund-reason-fields';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import {
  useAssignOrdersMutation,
  useCompleteRefundMutation,
  useDeleteOrdersMutation,
  useRestoreOrdersMutation,
} from './orders-api';

/** The shared order rules' verdict on one list row (the server decides again on every request). */
export function rowDecision(row: OrderListRow, action: OrderAction, role: Role | null) {
  return decide(orderStateOf(row), action, role, serviceToday());
}

const CONFIRM: Record<BulkAction, string> = {
  delete: MSG.confirmDelete,
  assign: MSG.confirmAssign,
  moveBack: MSG.confirmMoveBack,
  refund: 'Are you sure want to mark the selected orders as refunded? The customers will be mailed.',
  restore: 'Restore the selected orders? Each goes back to the status it had before it was deleted.',
};

/** How each bulk action shows in the bar (which ones a folder offers is the shared folder policy). */
const BULK_BUTTON: Record<BulkAction, { label: string; variant: string }> = {
  assign: { label: 'Assign to me', variant: 'primary' },
  moveBack: { label: 'Move to Original Folder', variant: 'primary' },
  refund: { label: 'Refunded it', variant: 'success' },
  delete: { label: 'Delete Order', variant: 'danger' },
  restore: { label: 'Restore', variant: 'primary' },
};

/** The bulk actions the order rules check on the rows before asking (the others the server alone rules). */
const RULED: Partial<Record<BulkAction, OrderAction>> = {
  delete: { kind: 'delete' },
  refund: { kind: 'completeRefund' },
  restore: { kind: 'restore' },
};

interface BulkActionsInput {
  folder: Folder;
  role: Role | null;
  /** The rows on screen: the rules are checked on the selected ones before asking. */
  rows: readonly OrderListRow[];
  /** Changes with the page, size, search or data set: the selection then starts empty. */
  dataKey: unknown;
}

/**
 * The selection and the bulk and row actions of a queue screen: which actions the folder offers the role,
 * the rules' refusal before asking, the confirmation, the request and its toast. A success clears the
 * selection; the screen only lays the parts out.
 */
export function useBulkActions({ folder, role, rows, dataKey }: BulkActionsInput) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pending, setPending] = useState<{ action: BulkAction; ids: number[] } | null>(null);
  const [reason, setReason] = useState<RefundReasonValue>(NO_REFUND_REASON);
  // A new page, size, search or data set starts with nothing selected.
  const [selectionFor, setSelectionFor] = useState(dataKey);
  if (selectionFor !== dataKey) {
    setSelectionFor(dataKey);
    setSelected(new Set());
  }

  const [deleteOrders, del] = useDeleteOrdersMutation();
  const [assignOrders, asg] = useAssignOrdersMutation();
  const [completeRefund, ref] = useCompleteRefundMutation();
  const [restoreOrders, rst] = useRestoreOrdersMutation();
  const busy = del.isLoading || asg.isLoading || ref.isLoading || rst.isLoading;

  /** The first selected row the rules refuse for an action, so the button can say why before asking. */
  const refusal = (action: BulkAction, ids: Iterable<number>) => {
    const ruled = RULED[action];
    if (!ruled) return null;
    const chosen = new Set(ids);
    for (const row of rows) {
      if (!chosen.has(row.order_id)) continue;
      const d = rowDecision(row, ruled, role);
      if (!d.allowed) return `Order ${row.order_id}: ${d.message}`;
    }
    return null;
  };

  const run = async (action: BulkAction, ids: number[]) => {
    try {
      if (action === 'delete') {
        await deleteOrders({ orderId: ids, folderName: folder }).unwrap();
        toast.success(MSG.deleted);
      } else if (action === 'assign') {
        await assignOrders({ orderId: ids, assignto: sessionUser()?.name || 'me' }).unwrap();
        toast.success(MSG.assigned);
      } else if (action === 'moveBack') {
        const res = await assignOrders({ orderId: ids, assignto: '' }).unwrap();
        toast.success(res.message);
      } else if (action === 'restore') {
        const res = await restoreOrders({ orderId: ids }).unwrap();
        toast.success(res.message);
      } else {
        const res = await completeRefund({ orderId: ids, ...refundReasonBody(reason) }).unwrap();
        // Some orders refused by the payment provider: the message names them and why.
        const failed = (res.data as { failed?: unknown[] } | undefined)?.failed?.length;
        if (failed) toast.warning(res.message);
        else toast.success(res.message);
      }
      setSelected(new Set());
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  /** Asks to confirm an action on some orders, unless the rules already refuse one of them. */
  const ask = (action: BulkAction, ids: number[]) => {
    if (!ids.length) return;
    const refused = refusal(action, ids);
    if (refused) return toast.error(refused);
    if (action === 'refund') {
      // The reason the selected orders share (the duplicate decision presets one) is the start.
      const chosen = rows.filter((r) => ids.includes(r.order_id));
      const first = chosen[0];
      const same = chosen.every((r) => r.refund_reason === first?.refund_reason);
      setReason(
        same && first ? refundReasonFrom(first.refund_reason, first.refund_reason_text) : NO_REFUND_REASON,
      );
    }
    setPending({ action, ids });
  };

  const policy = folderActions(folder, role);
  return {
    selected,
    toggle: (id: number) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    toggleAll: (checked: boolean) => setSelected(checked ? new Set(rows.map((r) => r.order_id)) : new Set()),
    clear: () => setSelected(new Set()),
    busy,
    /** The bulk buttons the folder offers the role, in the policy's order. */
    buttons: policy.bulk.map((action) => ({ action, ...BULK_BUTTON[action] })),
    /** The per-row actions the folder offers the role. */
    rowActions: policy.row,
    ask,
    /** The confirmation dialog of the action asked for. */
    confirm: {
      show: pending !== null,
      message: pending ? CONFIRM[pending.action] : '',
      onYes: () => (pending ? run(pending.action, pending.ids) : undefined),
      onNo: () => setPending(null),
      ready: pending?.action !== 'refund' || refundReasonReady(reason),
    },
    /** 'Refunded it' asks why (docs/product.md, "Refund reasons"): shown in the confirmation. */
    refundReason: pending?.action === 'refund' ? { value: reason, onChange: setReason } : null,
  };
}
