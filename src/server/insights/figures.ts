// How the insights' rows (insights/queries.ts) become figures: percentiles from the duration histograms,
// the per-member rows, the backlog by folder and age, on-time shares and mail with its bounces.
import { BACKLOG_FOLDERS, type InsightsData, percentileRank } from '../../shared/contracts/insights.js';

/** A row of DAILY_SQL: a day row (`day` set) or an actor row (`day` null). */
export interface DailyRow {
  day: string | null;
  actor_id: number | null;
  name: string;
  received: number;
  completed: number;
  refunded: number;
  deleted: number;
  chargebacks: number;
  status_moves: number;
  remarks: number;
  completed_due: number;
  completed_on_time: number;
}
/** A row of HISTOGRAM_SQL: kind 1 payment → Completed, kind 2 a member's handling. */
export interface HistogramRow {
  kind: number;
  actor_id: number | null;
  hours: number;
  n: number;
}
export interface AssignedRow {
  staff_id: number;
  name: string;
  assigned: number;
  median_first_action_minutes: number | null;
}
export interface BacklogRow {
  folder: string;
  total: number;
  lt24h: number;
  d1to3: number;
  d3to7: number;
}
export type MailRow = { day: string; provider: string; sent: number; failed: number; pending: number };
export type BouncedRow = { day: string; provider: string; bounced: number };

type Bins = [number, number][];

/** Nearest-rank percentile (num/den) of a histogram given as [hours, n] pairs; null when empty. */
function histogramPercentile(bins: Bins, total: number, num: number, den: number) {
  if (total <= 0) return null;
  const rank = percentileRank(total, num, den);
  let cum = 0;
  for (const [hours, n] of bins) {
    cum += n;
    if (cum >= rank) return hours;
  }
  return null;
}

export const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

const byHours = (a: [number, number], b: [number, number]) => a[0] - b[0];

/**
 * The histograms of the period: payment → Completed over all orders (count, median, p90), and each
 * member's handling bins by member.
 */
export function durationFigures(rows: HistogramRow[]) {
  const overallBins: Bins = [];
  const handlingBins = new Map<number, Bins>();
  for (const r of rows) {
    if (r.kind === 1) {
      overallBins.push([r.hours, r.n]);
    } else if (r.kind === 2) {
      const actor = r.actor_id ?? 0;
      handlingBins.set(actor, [...(handlingBins.get(actor) ?? []), [r.hours, r.n]]);
    }
  }
  overallBins.sort(byHours);
  const overallCompleted = overallBins.reduce((sum, [, n]) => sum + n, 0);
  const overall = {
    completed: overallCompleted,
    median: histogramPercentile(overallBins, overallCompleted, 1, 2),
    p90: histogramPercentile(overallBins, overallCompleted, 9, 10),
  };
  return { overall, handlingBins };
}

/**
 * One row per member who moved, remarked, handled or was assigned an order in the period: their counts,
 * median handling hours, routing figures and on-time share; most completions first.
 */
export function perStaffFigures(
  daily: DailyRow[],
  handlingBins: Map<number, Bins>,
  assignedRows: AssignedRow[],
): InsightsData['perStaff'] {
  const names = new Map<number, string>();
  const counts = new Map<
    number,
    { completed: number; statusMoves: number; remarks: number; completedDue: number; onTime: number }
  >();
  for (const r of daily) {
    if (r.day !== null || r.actor_id === null) continue;
    names.set(r.actor_id, r.name);
    if (r.status_moves + r.remarks > 0)
      counts.set(r.actor_id, {
        completed: r.completed,
        statusMoves: r.status_moves,
        remarks: r.remarks,
        completedDue: r.completed_due,
        onTime: r.completed_on_time,
      });
  }
  const assignedTo = new Map(assignedRows.map((r) => [Number(r.staff_id), r]));
  for (const r of assignedRows) if (!names.has(Number(r.staff_id))) names.set(Number(r.staff_id), r.name);
  const staffIds = new Set([...counts.keys(), ...handlingBins.keys(), ...assignedTo.keys()]);
  const perStaff = [...staffIds].map((staffId) => {
    const bins = (handlingBins.get(staffId) ?? []).sort(byHours);
    const handled = bins.reduce((sum, [, n]) => sum + n, 0);
    const c = counts.get(staffId);
    return {
      staffId,
      name: names.get(staffId) ?? 'System',
      completed: c?.completed ?? 0,
      statusMoves: c?.statusMoves ?? 0,
      remarks: c?.remarks ?? 0,
      handled,
      medianHandlingHours: histogramPercentile(bins, handled, 1, 2),
      assigned: assignedTo.get(staffId)?.assigned ?? 0,
      medianFirstActionMinutes: (() => {
        const m = assignedTo.get(staffId)?.median_first_action_minutes;
        return m === null || m === undefined ? null : Math.round(Number(m));
      })(),
      completedWithDue: c?.completedDue ?? 0,
      onTimeShare: ratio(c?.onTime ?? 0, c?.completedDue ?? 0),
    };
  });
  perStaff.sort((a, b) => b.completed - a.completed || a.name.localeCompare(b.name) || a.staffId - b.staffId);
  return perStaff;
}

/** The open orders per folder by age (older than seven days = the rest of the folder), and their totals. */
export function backlogFigures(rows: BacklogRow[]): InsightsData['backlog'] {
  const backlogByFolder = new Map(rows.map((r) => [r.folder, r]));
  const folders = BACKLOG_FOLDERS.map(({ key, label }) => {
    const r = backlogByFolder.get(key);
    const total = r?.total ?? 0;
    const lt24h = r?.lt24h ?? 0;
    const d1to3 = r?.d1to3 ?? 0;
    const d3to7 = r?.d3to7 ?? 0;
    return { folder: key, label, lt24h, d1to3, d3to7, gt7d: total - lt24h - d1to3 - d3to7, total };
  });
  const sum = (k: 'lt24h' | 'd1to3' | 'd3to7' | 'gt7d' | 'total') => folders.reduce((s, f) => s + f[k], 0);
  return {
    total: {
      lt24h: sum('lt24h'),
      d1to3: sum('d1to3'),
      d3to7: sum('d3to7'),
      gt7d: sum('gt7d'),
      total: sum('total'),
    },
    folders,
  };
}

/** Completions on time among those with a due time; the others are counted apart (decision 270). */
export function onTimeFigures(
  rows: { completed: number; completed_due: number; completed_on_time: number }[],
) {
  const completed = rows.reduce((s, r) => s + r.completed_due, 0);
  const withinTarget = rows.reduce((s, r) => s + r.completed_on_time, 0);
  const withoutDue = rows.reduce((s, r) => s + r.completed - r.completed_due, 0);
  return { completed, withinTarget, withoutDue, share: ratio(withinTarget, completed) };
}

/** The mail rows with bounced mails moved from "sent" to "failed" (and counted on their own as `bounced`). */
export function mailWithBounces(rows: MailRow[], bounces: BouncedRow[]): (MailRow & { bounced: number })[] {
  const key = (r: { day: string; provider: string }) => `${r.day}\u0000${r.provider}`;
  const bounced = new Map(bounces.map((b) => [key(b), Number(b.bounced)]));
  return rows.map((r) => {
    const n = Math.min(bounced.get(key(r)) ?? 0, r.sent);
    return { ...r, sent: r.sent - n, failed: r.failed + n, bounced: n };
  });
}
