import { sql } from 'drizzle-orm';
import {
  CLOSED_STATUSES,
  FOLDER_COUNT_KEYS,
  FOLDERS,
  type Folder,
  type FolderCounts,
  type OrderStatus,
} from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';
import { STATUS_FOLDERS } from '../orders/folders.js';

/** One row of order_folder_counts, as kept in memory. */
export interface CounterRow {
  status: OrderStatus;
  priority: boolean;
  assignedTo: number | null;
  /** Processing date of New orders (YYYY-MM-DD), null for the others. */
  day: string | null;
  n: number;
}

/** The folder counts of one service day, without My Orders (per user: `open`). */
export interface DayCounts {
  today: string;
  base: FolderCounts;
  /** Open (not closed) orders per assignee: My Orders. */
  open: Map<number, number>;
}

const CLOSED = new Set<OrderStatus>(CLOSED_STATUSES);

/** The folder meanings of folders.ts over the counter rows, in TypeScript (kept equal by counts.test.ts). */
function inFolder(folder: Folder, r: CounterRow, today: string): boolean {
  const status = STATUS_FOLDERS[folder];
  if (status) return r.status === status;
  switch (folder) {
    case 'newOrder':
      return r.status === 'New' && r.assignedTo === null && !r.priority && r.day !== null && r.day <= today;
    case 'priorityOrder':
      return r.status === 'New' && r.assignedTo === null && r.priority && r.day !== null && r.day <= today;
    case 'pendingOrder':
      return r.status === 'New' && r.assignedTo !== null;
    case 'futureOrder':
      return r.status === 'New' && r.day !== null && r.day > today;
    case 'allOrder':
      return r.status !== 'Deleted';
    default:
      return false;
  }
}

/** The counters table, summed per key the folders read. */
export async function readCounterRows(db: DbOrTx): Promise<CounterRow[]> {
  const { rows } = await db.execute<{
    s: OrderStatus;
    p: boolean;
    a: number | null;
    d: string | null;
    n: string;
  }>(sql`
    select process_status as s, processing_mode = ${sqlValue('Priority')} as p, assigned_to as a,
           due_date::text as d, sum(n)::bigint::text as n
    from order_folder_counts group by 1, 2, 3, 4 having sum(n) <> 0`);
  return rows.map((r) => ({
    status: r.s,
    priority: r.p === true || (r.p as unknown) === 't',
    assignedTo: r.a === null ? null : Number(r.a),
    day: r.d,
    n: Number(r.n),
  }));
}

export function dayCounts(rows: readonly CounterRow[], today: string): DayCounts {
  const base = Object.fromEntries(Object.values(FOLDER_COUNT_KEYS).map((k) => [k, 0])) as FolderCounts;
  const open = new Map<number, number>();
  for (const r of rows) {
    for (const f of FOLDERS) {
      if (f !== 'myOrder' && inFolder(f, r, today)) base[FOLDER_COUNT_KEYS[f]] += r.n;
    }
    if (r.assignedTo !== null && !CLOSED.has(r.status)) {
      open.set(r.assignedTo, (open.get(r.assignedTo) ?? 0) + r.n);
    }
  }
  return { today, base, open };
}
