import type { OrderChangeEvent, PresenceEvent } from '../../shared/contracts/live';
import type { StreamState } from './sse';

/**
 * What the live stream and the order screens share, kept small: it is imported by the detail page's
 * API calls (the version of the open order) and by the API layer (409 answers), which load early.
 */

type Listener<T> = (value: T) => void;
function channel<T>() {
  const listeners = new Set<Listener<T>>();
  return {
    emit(value: T) {
      for (const l of listeners) l(value);
    },
    on(listener: Listener<T>): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const orderEvents = channel<OrderChangeEvent>();
export const presenceEvents = channel<PresenceEvent>();

let streamState: StreamState = 'connecting';
export const streamStates = channel<StreamState>();
export function setStreamState(state: StreamState): void {
  if (state === streamState) return;
  streamState = state;
  streamStates.emit(state);
}
export function currentStreamState(): StreamState {
  return streamState;
}

/**
 * The version of each order open on a detail page, as shown there: every change sent from that page
 * carries it as expectedVersion, so a change made elsewhere in the meantime is refused, not overwritten.
 */
const openVersions = new Map<number, number>();
export function setOpenVersion(orderId: number, version: number | null): void {
  if (version === null) openVersions.delete(orderId);
  else openVersions.set(orderId, version);
}
export function openVersion(orderId: number): number | undefined {
  return openVersions.get(orderId);
}
/** Adds expectedVersion to the body of a change of one order when that order is open on a detail page. */
export function withVersion<T extends { orderId: number }>(body: T): T & { expectedVersion?: number } {
  const version = openVersions.get(body.orderId);
  return version === undefined ? body : { ...body, expectedVersion: version };
}

/** A change the server refused with 409 (stale version, or someone else holds the order). */
export interface Conflict {
  orderId: number;
  message: string;
  /** The API call refused (moveOrderStatus, addNewRemark, …) and its body, to try again with takeOver. */
  endpoint: string;
  body: Record<string, unknown>;
  /** Someone else holds the order (the holder rule), as opposed to a stale version. */
  held: boolean;
}
export const conflicts = channel<Conflict>();

/** Called by the API layer for every 409 answer to a change of one order. */
export function reportConflict(endpoint: string, body: unknown, message: string): void {
  if (!body || typeof body !== 'object' || body instanceof FormData) return;
  const orderId = (body as { orderId?: unknown }).orderId;
  const id = Array.isArray(orderId) && orderId.length === 1 ? orderId[0] : orderId;
  if (typeof id !== 'number') return;
  conflicts.emit({
    orderId: id,
    message,
    endpoint,
    body: body as Record<string, unknown>,
    held: / is working on this order/.test(message),
  });
}

/** The folder list the user last worked from: Next order claims from it, Back to the queue returns to it. */
const LAST_QUEUE_KEY = 'edcard.lastQueue';
export interface LastQueue {
  path: string;
  folder: string;
  title: string;
}
export function rememberQueue(queue: LastQueue): void {
  try {
    sessionStorage.setItem(LAST_QUEUE_KEY, JSON.stringify(queue));
  } catch {
    // Storage refused (private mode): Next order then uses New Orders.
  }
}
export function lastQueue(): LastQueue | null {
  try {
    const raw = sessionStorage.getItem(LAST_QUEUE_KEY);
    const q = raw ? (JSON.parse(raw) as Partial<LastQueue>) : null;
    return q && typeof q.path === 'string' && typeof q.folder === 'string' && typeof q.title === 'string'
      ? (q as LastQueue)
      : null;
  } catch {
    return null;
  }
}
