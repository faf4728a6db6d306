import { eq } from 'drizzle-orm';
import {
  DEFAULT_SECURITY_SETTINGS,
  type SecuritySettings,
  securitySettings,
} from '../../shared/contracts/account.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings } from '../db/schema.js';

const KEY = 'security';

/** The sign-in settings (defaults when never saved or unreadable). */
export async function getSecuritySettings(db: DbOrTx): Promise<SecuritySettings> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, KEY));
  const parsed = securitySettings.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_SECURITY_SETTINGS;
}

export async function saveSecuritySettings(db: DbOrTx, value: SecuritySettings, by: number): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: KEY, value, updatedBy: by, updatedAt: new Date() })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: new Date() } });
}
