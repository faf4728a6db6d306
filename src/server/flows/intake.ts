import type { z } from 'zod';
import type { intakeOrderBody } from '../../shared/contracts/intake.js';
import { RISKY_LEVELS } from '../../shared/contracts/payment-risk.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import { checkLevel } from '../../shared/order-checks.js';
import type { DbOrTx } from '../db/client.js';
import { orderValuesFromSnake } from '../orders/columns.js';
import { createOrder } from '../orders/creation.js';
import { type CheckSettings, checksOfNewOrder, refreshChecks } from '../orders/order-checks.js';
import { addSystemRemark } from '../orders/remarks.js';
import { lockOrderIds } from '../orders/repository.js';
import { inTransaction } from '../orders/transaction.js';
import { now } from '../clock.js';

/**
 * An order taken in from the application site, in one transaction: written once with its checks (a
 * risky payment on a risk hold, with its remark), then its possible duplicates' checks run again.
 * Answers the order's id and its checks (the stored ones when the same order was sent again).
 */
export async function takeOrderIn(
  db: DbOrTx,
  settings: CheckSettings,
  body: z.infer<typeof intakeOrderBody>,
  language: CustomerLanguage | null,
) {
  return inTransaction(db, async (tx) => {
    // The order is written once, with its checks; its possible duplicates are run again after.
    const values = { ...orderValuesFromSnake(body), language };
    // A risky payment holds the order before submission (decision 372).
    const risky = RISKY_LEVELS.includes(values.riskLevel ?? '');
    if (risky) values.checkFlags = ['risk_hold'];
    const found = await checksOfNewOrder(tx, values, settings, now());
    // Its possible duplicates are rewritten after the insert: locked first, in id order, before the
    // insert takes its folder counter's row. A routing pass or a claim holding one of them while it
    // waits for that counter row would otherwise deadlock with this intake.
    await lockOrderIds(tx, found.candidates);
    const id = await createOrder(tx, {
      ...values,
      checks: found.checks,
      checkLevel: checkLevel(found.checks),
    });
    if (risky) {
      await addSystemRemark(
        tx,
        id,
        `Payment risk ${values.riskLevel}: the order is on a risk hold. A Manager reviews it and clears the hold with a reason before it is submitted.`,
      );
    }
    // The same order sent again matches itself: its stored checks are the answer then.
    if (found.candidates.includes(id)) {
      const again = await refreshChecks(tx, [id], settings, now(), { withCandidates: true });
      return { orderId: id, checks: again.get(id) ?? [] };
    }
    if (found.candidates.length) await refreshChecks(tx, found.candidates, settings, now());
    return { orderId: id, checks: found.checks };
  });
}
