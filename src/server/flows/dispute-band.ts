import { eq } from 'drizzle-orm';
import type { DisputeBand } from '../../shared/contracts/payment-risk.js';
import { now as clockNow } from '../auth/clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { paymentPolicy, staffNotices } from '../db/schema.js';
import { publishNotice } from '../live/notices.js';
import { currentMonth, disputeBand } from '../payments/dispute-ratios.js';
import { MANAGER_ROLES } from '../payments/stripe-risk.js';

/**
 * The month's dispute band against the last one the managers were told
 * (docs/product.md, "Dispute ratios"): a change is told once — a live notice to Admin and Manager, and a mail to MANAGER_ALERT_EMAIL
 * where set — under the policy row's lock, so two instances never tell it twice. Answers the band and
 * whether it was told now.
 */
export async function checkDisputeBand(
  db: Db,
  config: Config,
  now = clockNow(),
): Promise<{ band: DisputeBand; notified: boolean }> {
  const month = currentMonth(now);
  const { band, total } = await disputeBand(db, month);
  return db.transaction(async (tx) => {
    await tx.insert(paymentPolicy).values({ id: 1 }).onConflictDoNothing();
    const [row] = await tx.select().from(paymentPolicy).where(eq(paymentPolicy.id, 1)).for('update');
    const before = (row?.notifiedBand ?? 'ok') as DisputeBand;
    if (row?.notifiedMonth === month && before === band) return { band, notified: false };
    await tx
      .update(paymentPolicy)
      .set({ notifiedMonth: month, notifiedBand: band })
      .where(eq(paymentPolicy.id, 1));
    // A new month that starts where the last one ended is no change.
    if (before === band) return { band, notified: false };
    const ratios = `Visa-style ${total.visaRatio ?? 0} %, Mastercard-style ${total.mastercardRatio ?? 0} %`;
    const text = `Dispute ratio for ${month} is now ${band} (was ${before}): ${ratios}.`;
    await publishNotice(tx, MANAGER_ROLES, { kind: 'dispute_band', text, orderId: null });
    if (config.MANAGER_ALERT_EMAIL) {
      await tx.insert(staffNotices).values({
        userId: null,
        kind: 'dispute-band',
        toEmail: config.MANAGER_ALERT_EMAIL,
        subject: `Dispute ratio ${band} for ${month}`,
        body: [
          text,
          '',
          'The bands follow the payment policy\'s thresholds; see Insights, "Dispute ratios".',
          '',
          'ED-Card',
        ].join('\n'),
      });
    }
    return { band, notified: true };
  });
}

/**
 * The band check after a dispute or an early fraud warning, off the webhook's request: the provider is
 * answered at once, and one check runs at a time per database in this process — events arriving while
 * it runs are covered by one more check after it (the policy row's lock still keeps two instances from
 * telling a change twice). Answers the promise of the check that covers this call (tests await it).
 */
const checks = new WeakMap<Db, { running: Promise<void>; again: boolean }>();
export function scheduleDisputeBandCheck(
  db: Db,
  config: Config,
  onError: (err: unknown) => void,
): Promise<void> {
  const current = checks.get(db);
  if (current) {
    current.again = true;
    return current.running;
  }
  const state = { running: Promise.resolve(), again: false };
  state.running = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      do {
        state.again = false;
        await checkDisputeBand(db, config).catch(onError);
      } while (state.again);
      // In the same step as the last look at `again`: a later call starts a check of its own.
      checks.delete(db);
    })
    .finally(() => {
      if (checks.get(db) === state) checks.delete(db);
    });
  checks.set(db, state);
  return state.running;
}
