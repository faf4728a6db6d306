// The server's import graph by folder, as text (docs/architecture-graph.md is its output): which folder
// imports which, the floors they stand on, and every pair of folders that import each other (none is
// the goal). Route modules (routes.ts, *-routes.ts) count as the floor "routes", whatever folder holds
// them; the composition files (app.ts, main.ts, routes.ts, jobs.ts) as "(top)"; the seeding and the
// backup (db/seed*.ts, db/backup*.ts: command-line tools that stand on everything) as "(tools)"; each
// other file beside the folders (config.ts, context.ts, translator.ts) as itself; tests are left out.
// Runs dependency-cruiser through its API, like scripts/check-cycles.mjs.
// Usage: node scripts/import-graph.mjs [--write]   (--write: into docs/architecture-graph.md)
import { writeFileSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import config from '../.dependency-cruiser.mjs';

const ROUTE_FILE = /^src\/server\/[^/]+\/(routes|[a-z0-9-]+-routes)\.ts$/;
const TOP = new Set(['app.ts', 'main.ts', 'routes.ts', 'jobs.ts']);
const SKIP = /\.test\.tsx?$|^src\/server\/test\//;
/** The watchers, which call flows as routes do. */
const WATCHERS = new Set(['src/server/inbound/imap.ts']);
const TOOLS = /^src\/server\/db\/(seed|backup)[^/]*\.ts$/;

/** The node of a module in the picture, or null for what the picture leaves out. */
function nodeOf(path) {
  if (SKIP.test(path)) return null;
  if (path.startsWith('src/shared/')) return 'shared';
  if (!path.startsWith('src/server/')) return null;
  if (ROUTE_FILE.test(path) || WATCHERS.has(path)) return 'routes';
  if (TOOLS.test(path)) return '(tools)';
  const rest = path.slice('src/server/'.length);
  if (!rest.includes('/')) return TOP.has(rest) ? '(top)' : rest;
  return rest.split('/')[0];
}

const result = await cruise(['src/server'], { ...config.options, validate: false });
const arrows = new Map();
for (const m of result.output.modules) {
  const from = nodeOf(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = nodeOf(d.resolved);
    if (!to || to === from) continue;
    const key = `${from} -> ${to}`;
    arrows.set(key, (arrows.get(key) ?? 0) + 1);
  }
}

const nodes = [...new Set([...arrows.keys()].flatMap((k) => k.split(' -> ')))].sort();
const out = new Map(nodes.map((n) => [n, []]));
for (const key of arrows.keys()) {
  const [from, to] = key.split(' -> ');
  out.get(from).push(to);
}
const mutual = [...arrows.keys()]
  .map((k) => k.split(' -> '))
  .filter(([a, b]) => a < b && arrows.has(`${b} -> ${a}`))
  .map(([a, b]) => `${a} <-> ${b}`);

/** The boxes that reach each other (Tarjan's strongly connected components): one floor together. */
const component = new Map();
const groups = [];
{
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of out.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
        component.set(w, groups.length);
      } while (w !== v);
      groups.push(group.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
}
/** Floor of each group: 0 for what imports nothing, else one above the highest group it imports. */
const groupFloor = new Map();
function floorOfGroup(g) {
  if (groupFloor.has(g)) return groupFloor.get(g);
  const below = groups[g]
    .flatMap((n) => out.get(n))
    .map((to) => component.get(to))
    .filter((h) => h !== g)
    .map(floorOfGroup);
  const f = below.length ? Math.max(...below) + 1 : 0;
  groupFloor.set(g, f);
  return f;
}
const floor = new Map(nodes.map((n) => [n, floorOfGroup(component.get(n))]));
const floors = [];
groups.forEach((group, g) => {
  const f = groupFloor.get(g);
  floors[f] = [...(floors[f] ?? []), group.length > 1 ? `[${group.join(' + ')}]` : group[0]];
});
for (const names of floors) names?.sort();

const lines = [
  '# The server import graph',
  '',
  'Drawn by `npm run graph` (scripts/import-graph.mjs) from the imports under src/server/, tests left',
  'out. Each folder of the server is one box; route modules (routes.ts, *-routes.ts) and the IMAP',
  'watcher (inbound/imap.ts) are the box "routes" wherever they sit; app.ts, main.ts, routes.ts and',
  'jobs.ts are "(top)"; the seeding and the backup (db/seed*.ts, db/backup*.ts) are "(tools)"; each',
  'other file beside the folders is a box of its own. The floors and the rules that keep them are in',
  'docs/decisions/396-the-server-floors.md; `npm run cycles` checks the rules.',
  '',
  '## Floors',
  '',
  'A box imports only boxes on lower floors (floor 0 imports nothing of the server); boxes that reach',
  'each other through their imports stand together in brackets on one floor.',
  '',
  '```text',
  ...floors.map((names, i) => `floor ${String(i).padStart(2)}: ${names.join(', ')}`).reverse(),
  '```',
  '',
  '## Pairs of boxes that import each other',
  '',
  mutual.length ? mutual.map((m) => `- ${m}`).join('\n') : 'None.',
  '',
  '## Arrows',
  '',
  'Each box with the boxes it imports (the number of import lines).',
  '',
  '```text',
  ...nodes
    .filter((n) => out.get(n).length)
    .sort((a, b) => floor.get(b) - floor.get(a) || a.localeCompare(b))
    .map(
      (n) =>
        `${n.padEnd(14)} -> ${out
          .get(n)
          .sort()
          .map((to) => `${to} (${arrows.get(`${n} -> ${to}`)})`)
          .join(', ')}`,
    ),
  '```',
  '',
];
const text = lines.join('\n');
if (process.argv.includes('--write')) {
  writeFileSync(new URL('../docs/architecture-graph.md', import.meta.url), text);
  console.log(
    `docs/architecture-graph.md: ${nodes.length} boxes, ${arrows.size} arrows, ${mutual.length} pairs`,
  );
} else process.stdout.write(text);
