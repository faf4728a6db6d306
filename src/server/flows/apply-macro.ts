import { eq } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { MacroOutcome } from '../../shared/contracts/communication.js';
import { completionMailSuppressed, statusName } from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { conflict, httpErrorOf } from '../http/errors.js';
import { assertCardMayLeave } from '../orders/card-gate.js';
import { addRemark, changeStatus } from './move-status.js';
import { assertMayMail } from '../orders/documents.js';
import { latestDocument, lockOrders } from '../orders/repository.js';
import { queueTemplateMail } from '../mail/template-mail.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import { renderSubject } from '../communication/render.js';
import type { Config } from '../config.js';
import { templateValuesFor } from '../communication/templates.js';
import { yieldToEventLoop } from '../db/yield.js';

import { findMacro, type MacroRow } from '../communication/macros.js';

/**
 * Applying a macro to orders: per order, in one transaction, its status move (the order rules and the
 * holder rule), its remark and its customer mail (held for the undo window), each order refused alone.
 */

const FLAGS_OFF = {
  whatsapp: 'N',
  telephone: 'N',
  statusRefund: 'N',
  voided: 'N',
  chargeBack: 'N',
  reportError: 'N',
} as const;

/** The WhatsApp text of a macro for one order (plain text, values filled in). */
async function whatsappFor(db: DbOrTx, config: Config, macro: MacroRow, orderId: number) {
  if (!macro.whatsappText) return null;
  const values = await templateValuesFor(db, config, orderId);
  return values
    ? renderSubject(macro.whatsappText.replace(/\n/g, '\u2028'), values).replace(/\u2028/g, '\n')
    : null;
}

/** The "just moved" question of a refused order, for the client to ask and apply again. */
function recentMoveOf(err: unknown): { recentMove?: { by: string; to: string | null } } {
  const data =
    (httpErrorOf(err)?.data as { recentMove?: { by: string; to: string | null } } | undefined) ?? null;
  return data?.recentMove ? { recentMove: data.recentMove } : {};
}

/**
 * Applies a macro to each order in its own transaction: the remark, the move and the mail of one order
 * commit together or not at all, under the same rules as doing them by hand (the shared order rules,
 * the holder rule). One order refused leaves the others done; the answer says per order what happened.
 * Between orders it yields to the event loop, so other staff's requests are answered meanwhile.
 */
export async function applyMacro(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  input: {
    macroId: number;
    orderIds: number[];
    takeOver?: boolean | undefined;
    confirmRecent?: boolean | undefined;
  },
  log: { error: (obj: object, msg: string) => void },
): Promise<{ outcomes: MacroOutcome[] }> {
  const macro = await findMacro(db, input.macroId);
  const outcomes: MacroOutcome[] = [];
  for (const orderId of [...new Set(input.orderIds)]) {
    // One order at a time, then the others' requests: a long macro never stalls the rest (PGlite).
    await yieldToEventLoop();
    try {
      const result = await db.transaction(async (tx) => {
        const [order] = await lockOrders(tx, [orderId], 'Order not found');
        if (macro.moveTo === 'Refunded' && paymentRouteOf(config, order!).kind === 'integrated') {
          // The money goes back through the provider first: 'Refunded it' does that, a macro cannot.
          throw conflict(`Paid through ${order!.merchantName}: use 'Refunded it' to refund it there first.`);
        }
        if (macro.requiresDocument && !(await latestDocument(tx, orderId))) {
          throw conflict('No approved card has been uploaded for this order yet.');
        }
        // A mail or a completion with a card its check blocks: refused, as by hand (orders/card-gate.ts).
        if (macro.templateKey || macro.moveTo === 'Completed') await assertCardMayLeave(tx, [orderId]);
        if (macro.templateKey) await assertMayMail(tx, actor, order!, !macro.moveTo, input.takeOver ?? false);
        const done: string[] = [];
        let held = false;
        let status = order!.processStatus;
        if (macro.remark) {
          await addRemark(tx, actor, {
            orderId,
            remark: macro.remark,
            ...FLAGS_OFF,
            takeOver: input.takeOver,
          });
          done.push('remark added');
        }
        if (macro.moveTo) {
          const moved = await changeStatus(tx, actor, {
            orderId,
            to: macro.moveTo as OrderStatus,
            takeOver: input.takeOver,
            confirmRecent: input.confirmRecent,
            // The macro's own mail replaces the status notification.
            notify: !macro.templateKey,
          });
          if (moved.mail?.heldUntil) held = true;
          status = moved.to;
          done.push(`moved to ${statusName(moved.to)}`);
        }
        // Out of ChargeBack into Completed the customer gets no mail (src/shared/order-rules.ts).
        const silent = !!macro.moveTo && completionMailSuppressed(order!.processStatus, status);
        if (macro.templateKey && !silent) {
          const mail = await queueTemplateMail(tx, {
            orderId,
            templateKey: macro.templateKey,
            kind: 'macro',
            toEmail: order!.email,
            requestedBy: actor.id,
          });
          if (!mail) throw conflict(`The template ${macro.templateKey} no longer exists.`);
          if (mail.queued && mail.mail.heldUntil) held = true;
          done.push(
            mail.queued
              ? `mail "${mail.mail.templateName}" (${mail.mail.language}) queued`
              : `mail "${mail.templateName}" not sent again (sent ${mail.minutes} min ago)`,
          );
        }
        if (silent) done.push('no mail: the order was in ChargeBack');
        return { status, done, held };
      });
      outcomes.push({
        orderId,
        result: 'done',
        message: result.done.length ? result.done.join(', ') : 'nothing to do',
        processStatus: result.status,
        whatsappText: await whatsappFor(db, config, macro, orderId),
        ...(result.held ? { mailHeld: true } : {}),
      });
    } catch (err) {
      const refused = httpErrorOf(err);
      if (!refused) log.error({ err, orderId, macroId: macro.id }, 'macro failed on an order');
      const [current] = await db
        .select({ status: orders.processStatus })
        .from(orders)
        .where(eq(orders.orderId, orderId))
        .limit(1);
      outcomes.push({
        orderId,
        result: 'refused',
        message: refused ? refused.message : 'The order could not be changed (server error).',
        processStatus: current?.status ?? null,
        whatsappText: null,
        ...recentMoveOf(err),
      });
    }
  }
  return { outcomes };
}
