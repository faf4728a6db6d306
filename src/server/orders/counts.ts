import type { FolderCounts } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { slaClock } from '../sla/policy.js';
import { folderCounts, slaCounts } from './lists.js';

/**
 * What get-folder-count answers for one staff member: every folder count and the due-time counts. The
 * live event stream sends the same object, so the screens read one shape from either.
 */
export async function countsFor(db: DbOrTx, staffId: number) {
  const [counts, sla] = await Promise.all([
    folderCounts(db, { today: serviceToday(), staffId }),
    slaClock(db).then((clock) => slaCounts(db, clock)),
  ]);
  return { ...counts, ...sla } satisfies FolderCounts & typeof sla;
}
