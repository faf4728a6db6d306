import { eq } from 'drizzle-orm';
import { DEFAULT_ROUTING_POLICY, type RoutingPolicy, routingPolicy } from '../../shared/contracts/routing.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings, staffUsers } from '../db/schema.js';

/** The routing policy lives in app_settings under this key. */
export const ROUTING_SETTINGS_KEY = 'routingPolicy';

export async function getRoutingPolicy(
  db: DbOrTx,
): Promise<RoutingPolicy & { updatedAt: string | null; updatedBy: string | null }> {
  const [row] = await db
    .select({ value: appSettings.value, updatedAt: appSettings.updatedAt, by: staffUsers.name })
    .from(appSettings)
    .leftJoin(staffUsers, eq(staffUsers.id, appSettings.updatedBy))
    .where(eq(appSettings.key, ROUTING_SETTINGS_KEY));
  return {
    ...parseRoutingPolicy(row?.value),
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy: row?.by ?? null,
  };
}

/** The stored policy's value as the routes and passes use it (the default where unset or unreadable). */
export function parseRoutingPolicy(value: unknown): RoutingPolicy {
  const parsed = routingPolicy.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_ROUTING_POLICY;
}

export async function saveRoutingPolicy(
  db: DbOrTx,
  value: RoutingPolicy,
  by: number,
  at: Date,
): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: ROUTING_SETTINGS_KEY, value, updatedBy: by, updatedAt: at })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: at } });
}

/** Does any folder route automatically? */
export const routingOn = (p: RoutingPolicy): boolean =>
  p.routing.newOrder === 'auto' || p.routing.priorityOrder === 'auto' || p.routing.customerAnswers === 'auto';
