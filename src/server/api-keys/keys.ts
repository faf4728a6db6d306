import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { apiKeys, staffUsers } from '../db/schema.js';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';

/**
 * API keys for machines (docs/product.md, "Machines that submit"; decision 365). A key is `edc_` and
 * 32 random bytes in base64url, answered once and stored as its sha256 (a high-entropy secret needs no
 * slow hash). Each key has its own staff row (role Team, no usable password, no shift, capacity 0,
 * named "<key name> (machine)") that holds the orders its jobs claim; revoking the key ends that row too.
 */

const API_KEY_SCOPES = ['submission'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const KEY_PATTERN = /^edc_[A-Za-z0-9_-]{43,}$/;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

interface ApiKeyView {
  id: number;
  name: string;
  scopes: string[];
  maxPerMinute: number;
  createdAt: string;
  revokedAt: string | null;
}

function viewOf(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    maxPerMinute: row.maxPerMinute,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
  };
}

export async function createApiKey(
  db: Db,
  actor: StaffIdentity,
  input: { name: string; scopes: ApiKeyScope[]; maxPerMinute?: number | undefined },
  ip: string | null,
): Promise<ApiKeyView & { key: string }> {
  const key = `edc_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [machine] = await tx
      .insert(staffUsers)
      .values({
        name: `${input.name} (machine)`,
        email: `machine-${randomBytes(8).toString('hex')}@machines.invalid`,
        // Not a bcrypt hash: no password ever matches it, so the row never signs in.
        passwordHash: '!machine',
        role: 'Team',
        capacity: 0,
        shift: null,
      })
      .returning({ id: staffUsers.id });
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: input.name,
        keyHash: hashKey(key),
        scopes: [...new Set(input.scopes)],
        maxPerMinute: input.maxPerMinute ?? 6,
        machineUserId: machine!.id,
        createdBy: actor.id,
      })
      .returning();
    await recordAudit(tx, {
      action: 'api-key.create',
      actorId: actor.id,
      target: `api-key:${row!.id}`,
      to: { name: row!.name, scopes: row!.scopes, maxPerMinute: row!.maxPerMinute },
      ip,
    });
    return { ...viewOf(row!), key };
  });
}

export async function listApiKeys(db: DbOrTx): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.id));
  return rows.map(viewOf);
}

export async function revokeApiKey(
  db: Db,
  actor: StaffIdentity,
  id: number,
  ip: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) throw notFound('API key not found or already revoked');
    await tx.update(staffUsers).set({ deletedAt: new Date() }).where(eq(staffUsers.id, row.machineUserId));
    await recordAudit(tx, {
      action: 'api-key.revoke',
      actorId: actor.id,
      target: `api-key:${row.id}`,
      from: { name: row.name },
      ip,
    });
  });
}

/** The machine of a request: its key, scope-checked and rate-limited. */
export interface Machine {
  keyId: number;
  name: string;
  maxPerMinute: number;
  identity: StaffIdentity;
}

declare module 'fastify' {
  interface FastifyRequest {
    machine?: Machine;
  }
}

/** Per-instance fixed one-minute windows per key (decision 365). */
const windows = new Map<number, { start: number; count: number }>();

function rateLimit(keyId: number, max: number, at = Date.now()): void {
  const current = windows.get(keyId);
  if (!current || at - current.start >= 60_000) {
    windows.set(keyId, { start: at, count: 1 });
    return;
  }
  if (current.count >= max) {
    const wait = Math.max(1, Math.ceil((current.start + 60_000 - at) / 1000));
    throw new HttpError(429, `Too many requests for this API key: at most ${max} a minute.`, {
      retryAfterSeconds: wait,
    });
  }
  current.count += 1;
}

/**
 * Authenticates `Authorization: Bearer edc_…` for a job route: 401 for no key, a garbage or revoked
 * one; 403 for a key without `scope`; 429 over its rate. A staff token is not a key (401).
 */
export async function authenticateMachine(
  db: DbOrTx,
  request: FastifyRequest,
  scope: ApiKeyScope,
): Promise<Machine> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  const key = match?.[1];
  if (!key || !KEY_PATTERN.test(key)) throw unauthorized('Unauthorized: an API key is required.');
  const [row] = await db
    .select({ key: apiKeys, email: staffUsers.email })
    .from(apiKeys)
    .innerJoin(staffUsers, eq(staffUsers.id, apiKeys.machineUserId))
    .where(and(eq(apiKeys.keyHash, hashKey(key)), isNull(apiKeys.revokedAt)));
  if (!row) throw unauthorized('Unauthorized: this API key is unknown or revoked.');
  if (!row.key.scopes.includes(scope)) throw forbidden(`This API key does not have the "${scope}" scope.`);
  rateLimit(row.key.id, row.key.maxPerMinute);
  const machine: Machine = {
    keyId: row.key.id,
    name: row.key.name,
    maxPerMinute: row.key.maxPerMinute,
    identity: {
      id: row.key.machineUserId,
      name: `${row.key.name} (machine)`,
      type: 'Team',
      email: row.email,
    },
  };
  request.machine = machine;
  return machine;
}
