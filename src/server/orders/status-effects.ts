import type { OrderStatus } from '../../shared/constants.js';
import type { PendingMail } from '../../shared/contracts/order-detail.js';
import type { DbOrTx } from '../db/client.js';
import type { LockedOrder } from './repository.js';

/** An order whose status is about to change, locked by the caller. */
export type StatusChange = Pick<LockedOrder, 'orderId' | 'processStatus' | 'email'>;

/** The customer mails a status change queued, and the ones it did not send again. */
export interface EnteredMails {
  queued: PendingMail[];
  /** Template names not sent again because the customer got them minutes ago. */
  repeats: { templateName: string; minutes: number }[];
}

/**
 * What a status move means beyond the order's own rows, given by the flow that moves it
 * (flows/status-mail.ts): the customer mails of the status entered, and the held mails an undo
 * cancels. The command calls them inside its transaction, at the point of the move where they belong.
 */
export interface StatusEffects {
  /** Queues the mails of `to` for the orders that entered it (none for a restore or with `skip`). */
  entered(
    tx: DbOrTx,
    actorId: number | null,
    changed: readonly StatusChange[],
    to: OrderStatus,
    opts: { restore?: boolean | undefined; skip?: boolean | undefined },
  ): Promise<EnteredMails>;
  /** Cancels the actor's mails of the order still held for the undo window; answers them. */
  cancelHeld(tx: DbOrTx, orderId: number, actorId: number): Promise<{ id: number; kind: string }[]>;
}

/** No mail at all: a restore, which puts orders back where they were. */
export const NO_STATUS_MAIL: StatusEffects = {
  entered: async () => ({ queued: [], repeats: [] }),
  cancelHeld: async () => [],
};
