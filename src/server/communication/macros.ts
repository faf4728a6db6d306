import { asc, eq, sql } from 'drizzle-orm';
import type { Macro, MacroBody } from '../../shared/contracts/communication.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { macros } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { assertSendableKey } from './notifications.js';

export type MacroRow = typeof macros.$inferSelect;

function macroOf(m: MacroRow): Macro {
  return {
    id: m.id,
    name: m.name,
    remark: m.remark,
    moveTo: m.moveTo,
    templateKey: m.templateKey,
    whatsappText: m.whatsappText,
    requiresDocument: m.requiresDocument,
    updatedAt: m.updatedAt.toISOString(),
  };
}

export async function listMacros(db: DbOrTx): Promise<Macro[]> {
  const rows = await db.select().from(macros).orderBy(asc(macros.name));
  return rows.map(macroOf);
}

export async function findMacro(db: DbOrTx, id: number): Promise<MacroRow> {
  const [m] = await db.select().from(macros).where(eq(macros.id, id)).limit(1);
  if (!m) throw notFound('No such macro.');
  return m;
}

async function checkBody(tx: DbOrTx, body: MacroBody, exceptId?: number) {
  if (!body.remark && !body.moveTo && !body.templateKey && !body.whatsappText) {
    throw badRequest('A macro needs at least one step: a remark, a status move, a mail or a WhatsApp text.');
  }
  if (body.templateKey) await assertSendableKey(tx, body.templateKey, 'templateKey');
  const [clash] = await tx
    .select({ id: macros.id })
    .from(macros)
    .where(sql`lower(${macros.name}) = lower(${body.name})`)
    .limit(1);
  if (clash && clash.id !== exceptId) throw conflict(`A macro named "${body.name}" exists already.`);
}

const stepsOf = (m: MacroBody | MacroRow) => ({
  name: m.name,
  remark: m.remark,
  moveTo: m.moveTo,
  templateKey: m.templateKey,
  whatsappText: m.whatsappText,
  requiresDocument: m.requiresDocument,
});

export async function createMacro(db: Db, actor: StaffIdentity, body: MacroBody): Promise<Macro> {
  return db.transaction(async (tx) => {
    await checkBody(tx, body);
    const [m] = await tx
      .insert(macros)
      .values({ ...stepsOf(body), createdBy: actor.id })
      .returning();
    await recordAudit(tx, {
      action: 'macro.create',
      actorId: actor.id,
      target: `macro ${m!.id}`,
      to: stepsOf(body),
    });
    return macroOf(m!);
  });
}

export async function updateMacro(db: Db, actor: StaffIdentity, id: number, body: MacroBody): Promise<Macro> {
  return db.transaction(async (tx) => {
    const before = await findMacro(tx, id);
    await checkBody(tx, body, id);
    const [m] = await tx
      .update(macros)
      .set({ ...stepsOf(body), updatedAt: sql`now()` })
      .where(eq(macros.id, id))
      .returning();
    await recordAudit(tx, {
      action: 'macro.update',
      actorId: actor.id,
      target: `macro ${id}`,
      from: stepsOf(before),
      to: stepsOf(body),
    });
    return macroOf(m!);
  });
}

export async function deleteMacro(db: Db, actor: StaffIdentity, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findMacro(tx, id);
    await tx.delete(macros).where(eq(macros.id, id));
    await recordAudit(tx, {
      action: 'macro.delete',
      actorId: actor.id,
      target: `macro ${id}`,
      from: stepsOf(before),
    });
  });
}
