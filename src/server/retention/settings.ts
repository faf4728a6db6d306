import { eq } from 'drizzle-orm';
import type { OrderEventAction } from '../../shared/constants.js';
import {
  DEFAULT_RETENTION_DAYS,
  type RetentionSettings,
  retentionSettings,
} from '../../shared/contracts/retention.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings } from '../db/schema.js';

/**
 * The retention setting (how many days after the travel an order's personal data is erased) and the
 * order event an erasure records. The erasure itself is a flow (flows/erase-order.ts).
 */

const KEY = 'retention';
export const ERASE_ACTION = 'erase' satisfies OrderEventAction;

export async function getRetentionSettings(db: DbOrTx): Promise<RetentionSettings> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, KEY));
  const parsed = retentionSettings.safeParse(row?.value);
  return parsed.success ? parsed.data : { days: DEFAULT_RETENTION_DAYS };
}

export async function saveRetentionSettings(db: DbOrTx, value: RetentionSettings, by: number): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: KEY, value, updatedBy: by, updatedAt: new Date() })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: new Date() } });
}
