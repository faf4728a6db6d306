import { notifyStatusEntered } from '../mail/template-mail.js';
import { cancelHeldMails } from '../mail/limits.js';
import type { StatusEffects } from '../orders/status-effects.js';

/**
 * The customer mail of a status move: the mails of the status entered, as its notification setting
 * says, and the held mails an undo cancels. Given to the order commands that move a status.
 */
export const statusMail: StatusEffects = {
  entered: (tx, actorId, changed, to, opts) => notifyStatusEntered(tx, actorId, changed, to, opts),
  cancelHeld: (tx, orderId, actorId) => cancelHeldMails(tx, orderId, actorId),
};
