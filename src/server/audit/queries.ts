import type { Role } from '../../shared/constants.js';
import dayjs from 'dayjs';
import {
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditLogPage,
  type AuditLogQuery,
  type GatewayChange,
  SIGN_IN_ACTION_PREFIX,
} from '../../shared/contracts/audit.js';
import { serviceDayStart } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';

export interface AuditRow {
  id: number | string;
  created_at: Date | string;
  actor_id: number | null;
  actor_email: string | null;
  actor_name: string | null;
  action: string;
  target: string | null;
  from_value: unknown;
  to_value: unknown;
  ip: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The filters of the audit list as SQL over `a` (audit_log). $1 actor id, $2 actor e-mail, $3 action,
 * $4 from instant, $5 to instant (exclusive), $6 hide Admin accounts' sign-ins (the Manager's view).
 */
export const AUDIT_WHERE = `
  ($1::int is null or a.actor_id = $1::int)
  and ($2::text is null or lower(a.actor_email) = lower($2::text))
  and ($3::text is null or a.action = $3::text)
  and ($4::timestamptz is null or a.created_at >= $4::timestamptz)
  and ($5::timestamptz is null or a.created_at < $5::timestamptz)
  and not ($6::boolean and a.action like '${SIGN_IN_ACTION_PREFIX}%' and exists (
    select 1 from staff_users x where x.role = 'Admin'
      and (x.id = a.actor_id or lower(x.email) = lower(a.actor_email))))`;

export const AUDIT_LIST_SQL = `
  select a.id, a.created_at, a.actor_id, a.actor_email, s.name as actor_name, a.action, a.target,
         a.from_value, a.to_value, a.ip
  from audit_log a left join staff_users s on s.id = a.actor_id
  where ${AUDIT_WHERE}
  order by a.created_at desc, a.id desc
  limit ${AUDIT_PAGE_SIZE} offset $7`;

/** One audit row as the API answers it. */
export function auditEntryOf(r: AuditRow): AuditEntry {
  return {
    id: Number(r.id),
    createdAt: iso(r.created_at),
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    actorName: r.actor_name,
    action: r.action,
    target: r.target,
    from: r.from_value,
    to: r.to_value,
    ip: r.ip,
  };
}

export const AUDIT_COUNT_SQL = `select count(*)::int as total from audit_log a where ${AUDIT_WHERE}`;

/** $1…$6 of AUDIT_WHERE for the filters and the viewer (a non-Admin does not see Admin sign-ins). */
export function auditFilterParams(query: Omit<AuditLogQuery, 'page'>, viewer: { role: Role }): unknown[] {
  const actor = query.actor || null;
  const actorId = actor && /^\d{1,9}$/.test(actor) ? Number(actor) : null;
  return [
    actorId,
    actor && actorId === null ? actor : null,
    query.action ?? null,
    query.from ? serviceDayStart(query.from).toISOString() : null,
    query.to ? serviceDayStart(dayjs(query.to).add(1, 'day').format('YYYY-MM-DD')).toISOString() : null,
    viewer.role !== 'Admin',
  ];
}

export async function auditLogPage(
  sql: SqlRunner,
  query: AuditLogQuery,
  viewer: { role: Role },
): Promise<AuditLogPage> {
  const params = auditFilterParams(query, viewer);
  const [list, count] = await Promise.all([
    sql.query<AuditRow>(AUDIT_LIST_SQL, [...params, (query.page - 1) * AUDIT_PAGE_SIZE]),
    sql.query<{ total: number }>(AUDIT_COUNT_SQL, params),
  ]);
  return {
    entries: list.rows.map(auditEntryOf),
    page: query.page,
    pageSize: AUDIT_PAGE_SIZE,
    total: count.rows[0]?.total ?? 0,
  };
}

const names = (v: unknown): string[] => {
  const active = (v as { active?: unknown } | null)?.active;
  return Array.isArray(active) ? active.map(String) : [];
};

/** The last switches of the active payment gateway, newest first, with who made them. */
export async function gatewayChanges(sql: SqlRunner, limit = 10): Promise<GatewayChange[]> {
  const { rows } = await sql.query<AuditRow>(
    `select a.created_at, a.actor_email, s.name as actor_name, a.from_value, a.to_value
     from audit_log a left join staff_users s on s.id = a.actor_id
     where a.action = 'gateway.activate' order by a.created_at desc, a.id desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({
    createdAt: iso(r.created_at),
    actorName: r.actor_name,
    actorEmail: r.actor_email,
    from: names(r.from_value),
    to: names(r.to_value),
  }));
}
