import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { PresenceEvent } from '../../shared/contracts/live';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { statusName } from '../../shared/order-rules';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { getAccessToken, sessionUser } from '../transport/session';
import { useAppDispatch } from '../state/store';
import { orderDetailApi } from '../order-detail/order-detail-api';
import './conflict-watch';
import { describeOrderChange } from './describe';
import {
  type Conflict,
  conflicts,
  lastQueue,
  openVersion,
  orderEvents,
  presenceEvents,
  setOpenVersion,
} from './live-bus';
import { formatStaffDateTime } from '../../shared/dates';
import { refreshOrder } from './live-cache';
import { usePutPresenceMutation } from './live-api';

/** A heartbeat keeps the viewer listed; the server forgets one after 30 s without. */
export const PRESENCE_HEARTBEAT_MS = 10_000;
/** Typing in the remark or upload form counts as editing for this long after the last key. */
const EDITING_MS = 15_000;
const EDIT_SECTIONS = ['#section-add-comment-below-block', '#section-upload-document-block'];

/** The time of a change as every staff screen shows times: 24-hour, US Eastern, labelled EST/EDT. */
function hhmm(date = new Date()): string {
  return formatStaffDateTime(date).split(' ').slice(3).join(' ');
}

/** Tells the server at once that this viewer left (also when the tab closes). */
function leave(orderId: number): void {
  const token = getAccessToken();
  if (!token) return;
  void fetch(`/api/admin/presence/${orderId}`, {
    method: 'DELETE',
    headers: { authorization: token },
    keepalive: true,
  }).catch(() => undefined);
}

/** True while the user types in the remark or upload form (and for a while after the last key). */
function useEditing(): boolean {
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onInput = (e: Event) => {
      const target = e.target as HTMLElement | null;
      if (!target?.closest || !EDIT_SECTIONS.some((s) => target.closest(s))) return;
      setEditing(true);
      clearTimeout(timer);
      timer = setTimeout(() => setEditing(false), EDITING_MS);
    };
    document.addEventListener('input', onInput, true);
    document.addEventListener('change', onInput, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('input', onInput, true);
      document.removeEventListener('change', onInput, true);
    };
  }, []);
  return editing;
}

/** Presence on the open order: heartbeats, the leave call, and who else is on it. */
function usePresence(orderId: number, editing: boolean): PresenceEvent['viewers'] {
  const [putPresence] = usePutPresenceMutation();
  const [viewers, setViewers] = useState<PresenceEvent['viewers']>([]);
  useEffect(() => {
    let live = true;
    const beat = () =>
      putPresence({ orderId, editing })
        .unwrap()
        .then((p) => live && p.data && setViewers(p.data.viewers))
        .catch(() => undefined);
    void beat();
    const timer = setInterval(beat, PRESENCE_HEARTBEAT_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [orderId, editing, putPresence]);
  useEffect(() => {
    const off = presenceEvents.on((p) => {
      if (p.orderId === orderId) setViewers(p.viewers);
    });
    const onHide = () => leave(orderId);
    window.addEventListener('pagehide', onHide);
    return () => {
      off();
      window.removeEventListener('pagehide', onHide);
      leave(orderId);
    };
  }, [orderId]);
  return viewers;
}

/** "Take over and move to Completed Orders": what the refused change would have done. */
function takeOverLabel(c: Conflict): string {
  if (c.endpoint === 'moveOrderStatus')
    return `Take over and move it to ${statusName(String(c.body.updatingStatus))}`;
  if (c.endpoint === 'addNewRemark') return 'Take over and save the remark';
  return 'Take over and try again';
}

/**
 * Changes to the open order made elsewhere: every change sent from this page carries the version shown
 * here; a newer version reloads the order and, when someone else made it, leaves a notice; a refused
 * change of this order is kept to be explained.
 */
function useOrderChanges(order: OrderDetails, me: ReturnType<typeof sessionUser>) {
  const dispatch = useAppDispatch();
  const orderId = order.order_id;
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const shown = useRef(order.version);
  shown.current = order.version;

  // Every change sent from this page carries the version shown here.
  useEffect(() => {
    setOpenVersion(orderId, order.version);
  }, [orderId, order.version]);
  useEffect(() => () => setOpenVersion(orderId, null), [orderId]);

  useEffect(() => {
    const offOrder = orderEvents.on((e) => {
      if (e.orderId !== orderId || e.version <= shown.current) return;
      refreshOrder(dispatch, orderId);
      if (e.by && e.by === me?.name) return;
      setNotice(`${describeOrderChange(e)} at ${hhmm()}. The page shows the change.`);
    });
    const offConflict = conflicts.on((c) => {
      if (c.orderId === orderId) setConflict(c);
    });
    return () => {
      offOrder();
      offConflict();
    };
  }, [dispatch, orderId, me?.name]);

  const reload = useCallback(() => {
    setConflict(null);
    setNotice(null);
    refreshOrder(dispatch, orderId);
  }, [dispatch, orderId]);

  return { notice, setNotice, conflict, setConflict, reload };
}

/** Take over: the refused call again, with takeOver and the version shown now. */
function useTakeOver(orderId: number, onDone: () => void) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const takeOver = async (c: Conflict) => {
    setBusy(true);
    try {
      const body = { ...c.body, takeOver: true, expectedVersion: openVersion(orderId) };
      // The body is the refused call's own, plus takeOver and the version shown now.
      const res =
        c.endpoint === 'addNewRemark'
          ? await dispatch(
              orderDetailApi.endpoints.addNewRemark.initiate(
                body as Parameters<typeof orderDetailApi.endpoints.addNewRemark.initiate>[0],
              ),
            ).unwrap()
          : await dispatch(
              orderDetailApi.endpoints.moveOrderStatus.initiate(
                body as Parameters<typeof orderDetailApi.endpoints.moveOrderStatus.initiate>[0],
              ),
            ).unwrap();
      onDone();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, takeOver };
}

/** A refused change explained, with Reload, Take over (when offered) and Dismiss. */
function ConflictAlert({
  conflict,
  mayTakeOver,
  busy,
  onReload,
  onTakeOver,
  onDismiss,
}: {
  conflict: Conflict;
  mayTakeOver: boolean;
  busy: boolean;
  onReload: () => void;
  onTakeOver: () => void;
  onDismiss: () => void;
}) {
  return (
    <Alert variant="warning" className="mt-2 mb-0 py-2" role="alert" data-testid="conflict">
      <div>{conflict.message}</div>
      <div className="d-flex flex-wrap gap-2 mt-2">
        <Button size="sm" variant="primary" onClick={onReload}>
          Reload
        </Button>
        {conflict.held && mayTakeOver && ['moveOrderStatus', 'addNewRemark'].includes(conflict.endpoint) ? (
          <Button size="sm" variant="outline-danger" disabled={busy} onClick={onTakeOver}>
            {takeOverLabel(conflict)}
          </Button>
        ) : null}
        <Button size="sm" variant="link" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </Alert>
  );
}

/**
 * The live side of the order detail page: who else is on the order, a notice when it changed elsewhere
 * (the page reloads it by itself), a refused change explained with Reload (and, for Admin and Manager
 * when someone else holds the order, Take over), and Back to the queue.
 */
export function OrderLivePanel({ order }: { order: OrderDetails }) {
  const navigate = useNavigate();
  const me = sessionUser();
  const orderId = order.order_id;
  const editing = useEditing();
  const viewers = usePresence(orderId, editing).filter((v) => v.staffId !== me?.id);
  const { notice, setNotice, conflict, setConflict, reload } = useOrderChanges(order, me);
  const { busy, takeOver } = useTakeOver(orderId, () => setConflict(null));

  const queue = lastQueue();
  const mayTakeOver = can(me?.type ?? null, 'orders.releaseAny');
  const others = viewers.map((v) => `${v.name} is ${v.editing ? 'editing' : 'viewing'}`);

  return (
    <div className="live-order-panel mb-3">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={() => navigate(queue?.path ?? '/admin/recent-order')}
        >
          Back to {queue?.title ?? 'the queue'}
        </Button>
        <span className="small text-body-secondary ms-2" role="status" data-testid="presence">
          {others.length ? others.join(', ') : ''}
        </span>
      </div>
      {notice ? (
        <Alert
          variant="info"
          className="mt-2 mb-0 py-2"
          dismissible
          onClose={() => setNotice(null)}
          data-testid="change-notice"
        >
          Changed elsewhere: {notice}
        </Alert>
      ) : null}
      {conflict ? (
        <ConflictAlert
          conflict={conflict}
          mayTakeOver={mayTakeOver}
          busy={busy}
          onReload={reload}
          onTakeOver={() => void takeOver(conflict)}
          onDismiss={() => setConflict(null)}
        />
      ) : null}
    </div>
  );
}
