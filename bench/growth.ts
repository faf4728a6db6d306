import type { Kind, Run } from './report.js';

/** Rows that read through an index: their cost should barely grow with the table (decision 342). */
const INDEXED: ReadonlySet<Kind> = new Set<Kind>(['list', 'deep', 'search', 'detail', 'attention', 'checks']);
/** Year-long aggregates: held to a ceiling at the biggest size instead of a growth ratio. */
const YEAR_LONG: ReadonlySet<Kind> = new Set<Kind>(['report', 'insights']);
/** The growth allowed from the smallest to the biggest size, p50. */
export const GROWTH_LIMIT = 1.3;
/** The p95 ceiling of a year-long report at the biggest size, ms. */
export const YEAR_LONG_P95_MS = 150;

const ms = (v: number | undefined) => (v === undefined ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));

/**
 * The growth table of one `--growth` run: every indexed row's p50 at each size (one server and
 * dataset per size, measured one after the other), the ratio smallest → biggest and the verdict.
 */
export function growthMarkdown(runs: Run[], startedAt: string, loadAvg: number[]): string {
  const bySize = new Map<number, Run[]>();
  for (const r of runs) bySize.set(r.orders, [...(bySize.get(r.orders) ?? []), r]);
  const sorted = [...bySize.keys()].sort((a, b) => a - b);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  const template = first === undefined ? undefined : bySize.get(first)?.[0];
  if (first === undefined || last === undefined || !template) return '';
  const repeats = Math.min(...sorted.map((n) => bySize.get(n)?.length ?? 0));
  const sizes = sorted.map((n) => n.toLocaleString('en-US'));
  const keys = template.endpoints.filter((e) => INDEXED.has(e.kind) || YEAR_LONG.has(e.kind));
  /** The median over the repeats of one size. */
  const p = (size: number, key: string, q: 'p50' | 'p95') => {
    const v = (bySize.get(size) ?? [])
      .map((r) => r.endpoints.find((e) => e.key === key)?.latency?.[q])
      .filter((x): x is number => typeof x === 'number')
      .sort((x, y) => x - y);
    return v.length ? v[Math.floor(v.length / 2)] : undefined;
  };
  const lines = keys.map((e) => {
    const cells = sorted.map((n) => ms(p(n, e.key, 'p50')));
    const a = p(first, e.key, 'p50');
    const b = p(last, e.key, 'p50');
    const ratio = a && b ? b / a : undefined;
    const p95 = p(last, e.key, 'p95');
    const yearLong = YEAR_LONG.has(e.kind);
    const verdict = yearLong
      ? p95 === undefined
        ? '–'
        : p95 <= YEAR_LONG_P95_MS
          ? `met (p95 ${ms(p95)} ms)`
          : `**MISSED** (p95 ${ms(p95)} ms)`
      : ratio === undefined
        ? '–'
        : ratio <= GROWTH_LIMIT
          ? 'met'
          : '**MISSED**';
    const label = e.label.replace(/ \(\d[\d,]*\)$/, ' (last page)');
    return `| ${label} | ${cells.join(' | ')} | ${ratio === undefined ? '–' : `${ratio.toFixed(2)}×`} | ${verdict} |`;
  });
  return [
    `## How cost grows with the table (\`npm run bench -- --growth ${sorted.join(',')}\`)`,
    '',
    `${startedAt} · ${template.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} · load average at start ${loadAvg.map((l) => l.toFixed(2)).join(' / ')} · p50 of the fixed-rate run, ms, the median of ${repeats} run${repeats === 1 ? '' : 's'} per size (sizes alternating). Target: p50 at ${sizes[sizes.length - 1]} ≤ ${GROWTH_LIMIT}× p50 at ${sizes[0]}; year-long reports and insights p95 ≤ ${YEAR_LONG_P95_MS} ms at ${sizes[sizes.length - 1]}.`,
    '',
    `| row | ${sizes.join(' | ')} | growth | |`,
    `|---|${sizes.map(() => '---:|').join('')}---:|---|`,
    ...lines,
    '',
  ].join('\n');
}
