import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileLine {
  fn: string;
  where: string;
  selfMs: number;
  selfPct: number;
}

/** Self time per function (summed over every node of the same function and place), largest first. */
export function topSelfTime(
  file: string,
  top = 15,
): { lines: ProfileLine[]; totalMs: number; idlePct: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i]!;
    // Each sample's time is the gap to the next one (V8 attributes the delta that follows it).
    const dt = deltas[i + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  }
  const byFn = new Map<string, { fn: string; where: string; us: number }>();
  let total = 0;
  let idle = 0;
  for (const n of profile.nodes) {
    const us = selfUs.get(n.id) ?? 0;
    total += us;
    const name = n.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') idle += us;
    const where = n.callFrame.url
      ? `${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
      : name.startsWith('(')
        ? ''
        : 'native';
    const key = `${name}|${where}`;
    const entry = byFn.get(key) ?? { fn: name, where, us: 0 };
    entry.us += us;
    byFn.set(key, entry);
  }
  const busy = Math.max(1, total - idle);
  const lines = [...byFn.values()]
    .filter((e) => e.fn !== '(idle)')
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ fn: e.fn, where: e.where, selfMs: e.us / 1000, selfPct: (100 * e.us) / busy }));
  return { lines, totalMs: total / 1000, idlePct: (100 * idle) / Math.max(1, total) };
}

/** node_modules/<pkg>/… or the path inside the project. */
function shortUrl(url: string): string {
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) return p.slice(nm + 'node_modules/'.length);
  const src = p.indexOf('/src/');
  return src >= 0 ? p.slice(src + 1) : path.basename(p);
}

/** The summary as Markdown: what the server spent its CPU on while one row was measured. */
export function profileMarkdown(file: string, title: string, top = 15): string {
  const { lines, totalMs, idlePct } = topSelfTime(file, top);
  return [
    `### ${title}`,
    '',
    `\`${path.basename(file)}\`: ${(totalMs / 1000).toFixed(1)} s sampled, ${idlePct.toFixed(0)} % idle. Top self time (share of the busy time):`,
    '',
    '| function | where | self ms | share |',
    '|---|---|---:|---:|',
    ...lines.map(
      (l) =>
        `| \`${l.fn.replace(/\|/g, '\\|')}\` | ${l.where.replace(/\|/g, '\\|')} | ${l.selfMs.toFixed(0)} | ${l.selfPct.toFixed(1)} % |`,
    ),
    '',
  ].join('\n');
}

// `npx tsx bench/profile.ts <file.cpuprofile> [top]` prints the summary.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(profileMarkdown(file, path.basename(file), Number(process.argv[3] ?? 15)));
}
