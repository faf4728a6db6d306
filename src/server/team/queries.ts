import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Role } from '../../shared/constants.js';
import type { MemberRouting, WeekHours } from '../../shared/contracts/routing.js';
import type { TeamMember } from '../../shared/contracts/team.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { DbOrTx } from '../db/client.js';
import { staffUsers } from '../db/schema.js';
import { forgetStaffUser } from '../auth/staff-cache.js';

const columns = {
  id: staffUsers.id,
  name: staffUsers.name,
  email: staffUsers.email,
  role: staffUsers.role,
  capacity: staffUsers.capacity,
  languages: staffUsers.languages,
  shift: staffUsers.shift,
  away: staffUsers.away,
  awayUntil: staffUsers.awayUntil,
};

/** The public shape of a member: never the hash; `memberRole` is what the list shows. */
function toMember(row: {
  id: number;
  name: string;
  email: string;
  role: Role;
  capacity: number;
  languages: CustomerLanguage[];
  shift: WeekHours | null;
  away: boolean;
  awayUntil: Date | null;
}): TeamMember {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    type: row.role,
    memberRole: row.role,
    capacity: row.capacity,
    languages: row.languages,
    shift: row.shift,
    away: row.away,
    awayUntil: row.awayUntil ? row.awayUntil.toISOString() : null,
  };
}

export async function listMembers(db: DbOrTx): Promise<TeamMember[]> {
  const rows = await db
    .select(columns)
    .from(staffUsers)
    .where(isNull(staffUsers.deletedAt))
    .orderBy(asc(staffUsers.id));
  return rows.map(toMember);
}

/** A live member, optionally locked for the rest of the transaction. */
export async function findMember(db: DbOrTx, id: number, lock = false): Promise<TeamMember | null> {
  const query = db
    .select(columns)
    .from(staffUsers)
    .where(and(eq(staffUsers.id, id), isNull(staffUsers.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  return row ? toMember(row) : null;
}

/** Is the e-mail taken by another live member (case-insensitive)? */
export async function emailTaken(db: DbOrTx, email: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(
      and(
        sql`lower(${staffUsers.email}) = ${email.toLowerCase()}`,
        isNull(staffUsers.deletedAt),
        exceptId ? ne(staffUsers.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function insertMember(
  db: DbOrTx,
  values: { name: string; email: string; role: Role; passwordHash: string; mustChangePassword?: boolean },
): Promise<TeamMember> {
  const [row] = await db.insert(staffUsers).values(values).returning(columns);
  return toMember(row!);
}

/** Updates a member; `revoke` bumps the token version so every token of theirs dies. */
export async function updateMember(
  db: DbOrTx,
  id: number,
  values: {
    name: string;
    email: string;
    role: Role;
    passwordHash?: string | undefined;
    mustChangePassword?: boolean | undefined;
  } & Partial<MemberRouting>,
  revoke: boolean,
): Promise<TeamMember> {
  forgetStaffUser(id); // the guard's cached lookups on this instance (others hear the trigger)
  const [row] = await db
    .update(staffUsers)
    .set({
      name: values.name,
      email: values.email,
      role: values.role,
      ...(values.passwordHash ? { passwordHash: values.passwordHash } : {}),
      ...(values.mustChangePassword !== undefined ? { mustChangePassword: values.mustChangePassword } : {}),
      ...(values.capacity !== undefined ? { capacity: values.capacity } : {}),
      ...(values.languages !== undefined ? { languages: [...new Set(values.languages)] } : {}),
      ...(values.shift !== undefined ? { shift: values.shift } : {}),
      ...(values.away !== undefined ? { away: values.away } : {}),
      ...(values.awayUntil !== undefined
        ? { awayUntil: values.awayUntil === null ? null : new Date(values.awayUntil) }
        : {}),
      ...(revoke ? { tokenVersion: sql`${staffUsers.tokenVersion} + 1` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(staffUsers.id, id))
    .returning(columns);
  return toMember(row!);
}

/** Soft delete: the row stays (orders still name their assignee), sign-in and tokens stop. */
export async function softDeleteMember(db: DbOrTx, id: number): Promise<void> {
  forgetStaffUser(id);
  await db
    .update(staffUsers)
    .set({ deletedAt: new Date(), tokenVersion: sql`${staffUsers.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(staffUsers.id, id));
}

/** Postgres unique violation (a concurrent add with the same e-mail), wrapped or not by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
