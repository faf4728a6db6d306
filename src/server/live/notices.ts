import { sql } from 'drizzle-orm';
import type { Role } from '../../shared/constants.js';
import type { StaffNotice } from '../../shared/contracts/live.js';
import type { DbOrTx } from '../db/client.js';

/** The channel of staff notices (a fraud warning to review, a dispute band change). */
export const NOTICE_CHANNEL = 'edcard_notice';

/**
 * A live notice to the open streams of some roles, published in the caller's transaction (PostgreSQL
 * delivers it at commit, to every server instance): nothing is heard of a change that was rolled back.
 */
export async function publishNotice(tx: DbOrTx, roles: readonly Role[], notice: StaffNotice): Promise<void> {
  await tx.execute(sql`select pg_notify(${NOTICE_CHANNEL}, ${JSON.stringify({ roles, notice })})`);
}
