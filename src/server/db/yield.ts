import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the event loop read sockets and run timers before bulk work goes on. The embedded database
 * answers a query without any I/O, so a loop of transactions would otherwise hold the process for its
 * whole length (a 500-order macro: seconds in which no other request is even read). Call it between
 * the units of a bulk job, outside any transaction.
 */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}
