import type { Role } from '../../shared/constants.js';
import { AUDIT_ACTIONS, type AuditExportQuery } from '../../shared/contracts/audit.js';
import { csvCell } from '../../shared/csv.js';
import { formatStaffDateTime } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';
import { AUDIT_COUNT_SQL, AUDIT_WHERE, type AuditRow, auditEntryOf, auditFilterParams } from './queries.js';

/** Entries read per database round trip while the file streams out. */
const CHUNK = 2000;

export const AUDIT_CSV_HEADER = [
  'When',
  'When (UTC)',
  'Actor',
  'Actor e-mail',
  'Action',
  'Target',
  'From',
  'To',
  'IP',
];

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

function line(r: AuditRow): string {
  const e = auditEntryOf(r);
  return [
    formatStaffDateTime(e.createdAt),
    e.createdAt,
    e.actorName ?? '',
    e.actorEmail ?? '',
    (AUDIT_ACTIONS as Record<string, string>)[e.action] ?? e.action,
    e.target ?? '',
    json(e.from),
    json(e.to),
    e.ip ?? '',
  ]
    .map(csvCell)
    .join(',');
}

/**
 * The whole filtered audit log as it stood at `bound` (the highest id when the export began, so the
 * export's own record and later entries are not in it), newest first, read in keyset chunks.
 */
export async function auditExportSnapshot(
  sql: SqlRunner,
  query: AuditExportQuery,
  viewer: { role: Role },
): Promise<{ total: number; lines: () => AsyncGenerator<string> }> {
  const params = auditFilterParams(query, viewer);
  const { rows: top } = await sql.query<{ bound: string | number }>(
    'select coalesce(max(id), 0) as bound from audit_log',
  );
  const bound = Number(top[0]?.bound ?? 0);
  const { rows: counted } = await sql.query<{ total: number }>(`${AUDIT_COUNT_SQL} and a.id <= $7`, [
    ...params,
    bound,
  ]);
  const total = counted[0]?.total ?? 0;
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${AUDIT_CSV_HEADER.map(csvCell).join(',')}\r\n`;
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const result: { rows: (AuditRow & { cursor_at: string })[] } = await sql.query(
        `select a.id, a.created_at, a.created_at::text as cursor_at, a.actor_id, a.actor_email,
                s.name as actor_name, a.action, a.target, a.from_value, a.to_value, a.ip
         from audit_log a left join staff_users s on s.id = a.actor_id
         where ${AUDIT_WHERE} and a.id <= $7
           and ($8::timestamptz is null or (a.created_at, a.id) < ($8::timestamptz, $9::bigint))
         order by a.created_at desc, a.id desc
         limit ${CHUNK}`,
        [...params, bound, after?.at ?? null, after?.id ?? null],
      );
      const rows = result.rows;
      if (!rows.length) return;
      yield `${rows.map(line).join('\r\n')}\r\n`;
      if (rows.length < CHUNK) return;
      const last: AuditRow & { cursor_at: string } = rows[rows.length - 1]!;
      after = { at: last.cursor_at, id: String(last.id) };
    }
  }
  return { total, lines };
}
