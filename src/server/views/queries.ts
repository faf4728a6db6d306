import { and, count, eq, or } from 'drizzle-orm';
import type { Folder } from '../../shared/constants.js';
import {
  MAX_VIEWS_PER_USER,
  type SavedView,
  type SavedViewBody,
  type ViewQuery,
  viewQuery,
} from '../../shared/contracts/views.js';
import { can, readPermissionFor } from '../../shared/permissions.js';
import { recordAudit } from '../audit/audit.js';
import type { AppContext, StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { savedViews, staffUsers } from '../db/schema.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { readList } from '../order-lists/read-list.js';

type ViewRow = typeof savedViews.$inferSelect;

/** The views a member sees: their own and the shared ones whose folder their role may read. */
export async function viewsFor(ctx: AppContext, staff: StaffIdentity): Promise<SavedView[]> {
  const rows = await ctx.db
    .select({ v: savedViews, ownerName: staffUsers.name })
    .from(savedViews)
    .leftJoin(staffUsers, eq(staffUsers.id, savedViews.ownerId))
    .where(or(eq(savedViews.ownerId, staff.id), eq(savedViews.shared, true)))
    .orderBy(savedViews.name, savedViews.id);
  const visible = rows.filter((r) => can(staff.type, readPermissionFor(r.v.folder as Folder)));
  return Promise.all(visible.map(async (r) => answer(ctx, r.v, r.ownerName ?? '', staff)));
}

async function answer(
  ctx: AppContext,
  v: ViewRow,
  ownerName: string,
  staff: StaffIdentity,
): Promise<SavedView> {
  // A stored query that no longer passes today's rules counts as no filter rather than failing the list.
  const parsed = viewQuery.safeParse(v.query);
  const query: ViewQuery = parsed.success ? parsed.data : {};
  const folder = v.folder as Folder;
  const { limit: _l, columns: _c, ...list } = query;
  const { total } = await readList(ctx, staff, folder, { ...list, read: { total: true } });
  return {
    id: v.id,
    name: v.name,
    folder,
    query,
    shared: v.shared,
    ownerName,
    mine: v.ownerId === staff.id,
    count: total,
  };
}

/** The member's own view, for a change: another member's shared view is 403, an unseen one 404. */
async function ownView(db: DbOrTx, staff: StaffIdentity, id: number): Promise<ViewRow> {
  const [v] = await db.select().from(savedViews).where(eq(savedViews.id, id)).for('update');
  if (!v || (v.ownerId !== staff.id && !v.shared)) throw notFound('View not found');
  if (v.ownerId !== staff.id) throw forbidden('Only the member who saved this view may change it.');
  return v;
}

/** What the audit log keeps of a view: enough to see who shared or changed what. */
const auditValue = (v: Pick<ViewRow, 'name' | 'folder' | 'query' | 'shared'>) => ({
  name: v.name,
  folder: v.folder,
  shared: v.shared,
  query: v.query,
});

function checkAllowed(staff: StaffIdentity, body: SavedViewBody): void {
  if (!can(staff.type, readPermissionFor(body.folder))) throw forbidden();
  if (body.shared && !can(staff.type, 'views.share'))
    throw forbidden('Only Admin and Manager may share a view with everyone.');
}

export async function createView(
  ctx: AppContext,
  staff: StaffIdentity,
  body: SavedViewBody,
  ip: string | null = null,
): Promise<SavedView> {
  checkAllowed(staff, body);
  // Counted once committed: the count reads the orders, not the view.
  const saved = await ctx.db.transaction(async (tx) => {
    // Serialises one member's creations so the cap holds under concurrent requests.
    await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staff.id)).for('update');
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(savedViews)
      .where(eq(savedViews.ownerId, staff.id));
    if (n >= MAX_VIEWS_PER_USER)
      throw conflict(`You can keep at most ${MAX_VIEWS_PER_USER} views: delete one first.`);
    const [v] = await tx
      .insert(savedViews)
      .values({
        ownerId: staff.id,
        name: body.name,
        folder: body.folder,
        query: body.query,
        shared: body.shared,
      })
      .returning();
    await recordAudit(tx, {
      action: 'view.create',
      actorId: staff.id,
      actorEmail: staff.email,
      target: `view:${v!.id}`,
      to: auditValue(v!),
      ip,
    });
    return v!;
  });
  return answer(ctx, saved, staff.name, staff);
}

export async function updateView(
  ctx: AppContext,
  staff: StaffIdentity,
  id: number,
  body: SavedViewBody,
  ip: string | null = null,
): Promise<SavedView> {
  const saved = await ctx.db.transaction(async (tx) => {
    const before = await ownView(tx, staff, id);
    checkAllowed(staff, body);
    const [v] = await tx
      .update(savedViews)
      .set({
        name: body.name,
        folder: body.folder,
        query: body.query,
        shared: body.shared,
        updatedAt: new Date(),
      })
      .where(and(eq(savedViews.id, id), eq(savedViews.ownerId, staff.id)))
      .returning();
    await recordAudit(tx, {
      action: 'view.update',
      actorId: staff.id,
      actorEmail: staff.email,
      target: `view:${id}`,
      from: auditValue(before),
      to: auditValue(v!),
      ip,
    });
    return v!;
  });
  return answer(ctx, saved, staff.name, staff);
}

export async function deleteView(
  db: DbOrTx,
  staff: StaffIdentity,
  id: number,
  ip: string | null = null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await ownView(tx, staff, id);
    await tx.delete(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.ownerId, staff.id)));
    await recordAudit(tx, {
      action: 'view.delete',
      actorId: staff.id,
      actorEmail: staff.email,
      target: `view:${id}`,
      from: auditValue(before),
      ip,
    });
  });
}
