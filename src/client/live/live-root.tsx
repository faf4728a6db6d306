import './live.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import Modal from 'react-bootstrap/Modal';
import { useStore } from 'react-redux';
import { useLocation, useNavigate } from 'react-router';
import { readPermissionFor, can } from '../../shared/permissions';
import { encodeOrderId } from '../../shared/order-id';
import { FOLDER_ROUTES } from '../orders/nav';
import { getAccessToken, sessionUser } from '../transport/session';
import type { AppStore } from '../state/store';
import { toast } from 'react-toastify';
import { api, errorMessage } from '../transport/api';
import { signalUnauthorized } from '../transport/api-client';
import { ordersApi } from '../orders/orders-api';
import { currentStreamState, orderEvents, rememberQueue, setStreamState, streamStates } from './live-bus';
import { applyLiveEvent } from './live-cache';
import { openNextOrder } from './next-order';
import { openEventStream } from './sse';

/** `g` then a letter: the folder it opens (shown by `?`). */
export const GO_KEYS: { key: string; path: string; label: string }[] = [
  { key: 'd', path: '/admin', label: 'Dashboard' },
  { key: 'n', path: '/admin/recent-order', label: 'New Orders' },
  { key: 'm', path: '/admin/my-order', label: 'My Orders' },
  { key: 'p', path: '/admin/priority-order', label: 'Priority Order' },
  { key: 'e', path: '/admin/pending-order', label: 'Pending Orders' },
  { key: 'a', path: '/admin/awaiting-response', label: 'Awaiting Customer' },
  { key: 'g', path: '/admin/awaiting-govt', label: 'Awaiting Govt' },
  { key: 'c', path: '/admin/called', label: 'Customer Called' },
  { key: 't', path: '/admin/contact-customer', label: 'Contact Customer' },
  { key: 'o', path: '/admin/completed-order', label: 'Completed Orders' },
  { key: 'r', path: '/admin/refund-order', label: 'Refunds' },
  { key: 'h', path: '/admin/order-history', label: 'Order History' },
  { key: 'x', path: '/admin/deleted-order', label: 'Deleted Orders' },
];

const SHORTCUTS: [string, string][] = [
  ['j / k', 'Next / previous order in the list'],
  ['Enter', 'Open the selected order'],
  ['n', 'Next order: assign the next waiting order of your queue to you and open it'],
  ['a', 'Assign to me (the open order, or the selected row)'],
  ['/', 'Search'],
  ['g then a letter', 'Go to a folder (below)'],
  ['Ctrl+K / ⌘K', 'Open an order by its number'],
  ['?', 'This list'],
];

/** Keys typed into a field are the field's. */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  return /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable;
}

function listRows(): HTMLTableRowElement[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('#main-content tbody tr[data-order-id]')];
}

/** j/k: the next or previous list row gets the focus (on its View link, so Enter opens it). */
function moveInList(step: 1 | -1): void {
  const rows = listRows();
  if (!rows.length) return;
  const current = (document.activeElement as HTMLElement | null)?.closest?.('tr[data-order-id]');
  const index = current ? rows.indexOf(current as HTMLTableRowElement) : -1;
  const next = rows[Math.max(0, Math.min(rows.length - 1, index < 0 ? 0 : index + step))]!;
  for (const r of rows) r.classList.toggle('live-row-active', r === next);
  const link = next.querySelector<HTMLElement>('a[href*="/view-order/"]') ?? next;
  link.focus();
  next.scrollIntoView({ block: 'nearest' });
}

/**
 * The event stream: counts, list rows and open orders kept current without polling; it reconnects with
 * backoff and reports its state. Back online, the open orders are read again.
 */
function useLiveStream(store: AppStore) {
  const [state, setState] = useState(currentStreamState());
  useEffect(() => {
    let wasOffline = false;
    const off = streamStates.on((next) => {
      setState(next);
      if (next === 'offline') wasOffline = true;
      // Back online: changes made meanwhile were not heard, so open orders are read again (lists keep
      // their rows; the counts arrive with the connection and the new-orders bar says what grew).
      if (next === 'open' && wasOffline) {
        wasOffline = false;
        store.dispatch(api.util.invalidateTags(['Order']));
      }
    });
    const close = openEventStream({
      url: '/api/admin/events',
      token: getAccessToken,
      onEvent: (event) => applyLiveEvent(store, event),
      onState: setStreamState,
      onUnauthorized: () => signalUnauthorized('Your session has ended — please sign in again'),
    });
    return () => {
      close();
      off();
      setStreamState('connecting');
    };
  }, [store]);
  return state;
}

/** Routing handed this user an order: a notice as it arrives in My Orders. */
function useRoutedNotice() {
  useEffect(
    () =>
      orderEvents.on((e) => {
        const me = sessionUser()?.name;
        if (e.action !== 'assign' || e.by !== '' || !me || e.assignTo !== me) return;
        toast.info(`Routing assigned order ${e.orderId} to you.`, { toastId: `routed:${e.orderId}` });
      }),
    [],
  );
}

/** The queue the user works from: Next order claims from it, Back to the queue returns to it. */
function useRememberQueue() {
  const location = useLocation();
  useEffect(() => {
    const path = location.pathname.replace(/\/+$/, '');
    const route = FOLDER_ROUTES.find((r) => `/admin/${r.path}` === path);
    if (route) rememberQueue({ path: `${path}${location.search}`, folder: route.folder, title: route.title });
  }, [location.pathname, location.search]);
}

/** `a`: the open order's Assign to me, or else the selected row assigned to the user. False: nothing to assign. */
function assignToMe(store: AppStore): boolean {
  const button = [...document.querySelectorAll<HTMLButtonElement>('.detail-action-bar button')].find(
    (b) => b.textContent?.trim() === 'Assign to me' && !b.disabled,
  );
  if (button) {
    button.click();
    return true;
  }
  const row = (document.activeElement as HTMLElement | null)?.closest?.('tr[data-order-id]');
  const id = Number(row?.getAttribute('data-order-id'));
  if (!id) return false;
  const me = sessionUser()?.name || 'me';
  store
    .dispatch(ordersApi.endpoints.assignOrders.initiate({ orderId: [id], assignto: me }))
    .unwrap()
    .then((res) => toast.success(res.message || `Order ${id} is now assigned to you.`))
    .catch((error) => toast.error(errorMessage(error)));
  return true;
}

/** `/`: the list's search box gets the focus. False: the page has none. */
function focusSearch(): boolean {
  const search = document.querySelector<HTMLInputElement>('#main-content input[type="search"]');
  if (!search) return false;
  search.focus();
  return true;
}

/** The keyboard shortcuts of the staff screens (listed by `?`); keys typed into a field are the field's. */
function useShortcuts(store: AppStore, onHelp: () => void, onJump: () => void) {
  const navigate = useNavigate();
  const pendingG = useRef<number>(0);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        onJump();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || e.defaultPrevented) return;
      if (document.querySelector('.modal.show')) return;
      const role = sessionUser()?.type ?? null;
      if (pendingG.current > Date.now()) {
        pendingG.current = 0;
        const go = GO_KEYS.find((g) => g.key === e.key);
        const folder = FOLDER_ROUTES.find((r) => `/admin/${r.path}` === go?.path)?.folder;
        if (go && (!folder || can(role, readPermissionFor(folder)))) {
          e.preventDefault();
          navigate(go.path);
        }
        return;
      }
      switch (e.key) {
        case 'g':
          pendingG.current = Date.now() + 1500;
          return;
        case '?':
          onHelp();
          break;
        case '/':
          if (!focusSearch()) return;
          break;
        case 'j':
          moveInList(1);
          break;
        case 'k':
          moveInList(-1);
          break;
        case 'n':
          void openNextOrder(store.dispatch, navigate);
          break;
        case 'a':
          if (!assignToMe(store)) return;
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, store, onHelp, onJump]);
}

/** `?`: the shortcuts, then the folders `g` and a letter open. */
function ShortcutsHelp({ show, onHide }: { show: boolean; onHide: () => void }) {
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="shortcuts-title">
      <Modal.Header closeButton>
        <Modal.Title id="shortcuts-title">Keyboard shortcuts</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <dl className="row mb-0 small">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys} className="d-contents">
              <dt className="col-4">
                <kbd>{keys}</kbd>
              </dt>
              <dd className="col-8">{what}</dd>
            </div>
          ))}
          {GO_KEYS.map((g) => (
            <div key={g.key} className="d-contents">
              <dt className="col-4">
                <kbd>g {g.key}</kbd>
              </dt>
              <dd className="col-8">{g.label}</dd>
            </div>
          ))}
        </dl>
      </Modal.Body>
    </Modal>
  );
}

/**
 * The live part of the staff screens, loaded after sign-in as its own chunk: the event stream (counts,
 * list rows and open orders kept current without polling; reconnects with backoff, says when offline),
 * the keyboard shortcuts and the jump-to-order box. Unmounted on sign-out, which closes the stream.
 */
export function LiveRoot() {
  const store = useStore() as AppStore;
  const [help, setHelp] = useState(false);
  const [jump, setJump] = useState(false);
  const state = useLiveStream(store);
  useRoutedNotice();
  useRememberQueue();
  const openHelp = useCallback(() => setHelp(true), []);
  const openJump = useCallback(() => setJump(true), []);
  useShortcuts(store, openHelp, openJump);

  return (
    <>
      {state === 'offline' ? <OfflineBanner /> : null}
      <ShortcutsHelp show={help} onHide={() => setHelp(false)} />
      <JumpToOrder show={jump} onHide={() => setJump(false)} />
    </>
  );
}

/** Ctrl/Cmd-K: open any order by its number. */
function JumpToOrder({ show, onHide }: { show: boolean; onHide: () => void }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const open = (e: React.FormEvent) => {
    e.preventDefault();
    const id = value.trim().replace(/^#/, '');
    if (!/^\d{1,15}$/.test(id) || Number(id) < 1) {
      setError('Type an order number, digits only.');
      return;
    }
    onHide();
    setValue('');
    setError('');
    navigate(`/admin/view-order/${encodeOrderId(Number(id))}`);
  };
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="jump-title">
      <form onSubmit={open} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="jump-title" className="h5">
            Open an order
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <label htmlFor="jump-order-id" className="form-label">
            Order number
          </label>
          <input
            id="jump-order-id"
            className={`form-control${error ? ' is-invalid' : ''}`}
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            value={value}
            aria-describedby={error ? 'jump-order-error' : undefined}
            onChange={(e) => setValue(e.target.value)}
          />
          {error ? (
            <div id="jump-order-error" className="invalid-feedback">
              {error}
            </div>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <button type="submit" className="btn btn-primary">
            Open
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}

/** The slot under the top bar (staff-layout.tsx) where the offline notice sits in the page's flow. */
const LIVE_STATUS_SLOT_ID = 'live-status';

/**
 * "Live updates are offline", in the flow of the page under the top bar: it moves the content down by
 * one line instead of lying over any button (the detail's action bar is fixed to the bottom).
 */
function OfflineBanner() {
  const banner = (
    <div className="live-offline alert alert-warning py-1 px-3 mb-0 small rounded-0" role="status">
      Live updates are offline — reconnecting… Counts and lists may be out of date.
    </div>
  );
  const slot = document.getElementById(LIVE_STATUS_SLOT_ID);
  return slot ? createPortal(banner, slot) : banner;
}
