// Area boundaries (decision 232), part of `npm run validate`:
// - server: orders and their history are written only by the order domain (src/server/orders/), whose
//   rule checks (orders/rules.ts) are its own; the detail screen's reads (order-detail/queries.ts) are
//   the detail screen's; customer mail (mail_log rows) is written only by writeMail in mail/outbox.ts
//   (decision 338); an order status or processing mode is never written by hand inside SQL text (a
//   string or template literal): it is rendered with sqlValue / sqlList (db/sql-lists.ts, decision 344);
// - client: an area uses another area only through what that area offers to others: its API slices
//   (`*-api.ts`), its pages (`*-page.tsx`) and the modules listed in PUBLIC below; the shared layers
//   (transport/, app/, components/, test/) are open to all, components/ does not reach into areas, and
//   transport/ (the floor: requests, the RTK Query slice, the session) imports nothing else of the client.
// Usage: node scripts/check-boundaries.mjs [--root DIR]   (exit 1 and one line per breach)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const root = path.resolve(args.includes('--root') ? (args[args.indexOf('--root') + 1] ?? '.') : '.');

/** Writes of the orders and order_events tables, in Drizzle calls or in SQL text. */
const ORDER_WRITES = [
  /\.(insert|update|delete)\(\s*(orders|orderEvents)\s*\)/,
  /\binsert\s+into\s+(orders|order_events)\b/i,
  /\bupdate\s+(orders|order_events)\s+set\b/i,
  /\bdelete\s+from\s+(orders|order_events)\b/i,
];

/** Server files allowed to write orders or order_events outside the domain, and why. */
const SERVER_WRITE_EXCEPTIONS = {
  'src/server/db/seed.ts': 'the demo and bulk seeds insert thousands of rows set-based',
  'src/server/flows/erase-order.ts':
    'erasure rewrites personal values inside the order and its events; it locks and records through the domain',
};

/** Inserts into the customer mail outbox, in Drizzle calls or in SQL text. */
const MAIL_WRITES = [/\.insert\(\s*mailLog\s*\)/, /\binsert\s+into\s+mail_log\b/i];
const MAIL_WRITER = 'src/server/mail/outbox.ts';
const MAIL_WRITE_EXCEPTIONS = {
  'src/server/db/seed.ts': 'the bulk seed inserts mails already sent, set-based; nothing is to be delivered',
};

/** The values SQL text must not spell by hand: ORDER_STATUSES and PROCESSING_MODES of src/shared/constants.ts. */
const SQL_CONSTANTS = (() => {
  const constants = readFileSync(new URL('../src/shared/constants.ts', import.meta.url), 'utf8');
  return ['ORDER_STATUSES', 'PROCESSING_MODES'].flatMap((name) => {
    const list = new RegExp(`export const ${name} = \\[([^\\]]*)\\]`).exec(constants)?.[1];
    const values = [...(list ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    if (!values.length) throw new Error(`${name} not found in src/shared/constants.ts`);
    return values;
  });
})();
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A status or mode quoted as an SQL literal: 'Completed', 'Priority'. */
const QUOTED_CONSTANT = new RegExp(`'(${SQL_CONSTANTS.map(escapeRegExp).join('|')})'`);
/** What makes a string SQL text: a keyword of a statement or clause, a comparison or a list test. */
const SQL_TEXT =
  /\b(select|insert|update|delete|where|when|values|from)\b|\bin\s*\(|<>|!=|(^|[^=!<>])=($|[^=>])/i;

/** Status and mode literals inside the SQL text of a file: the line of each string or template holding one. */
function constantLiteralLines(rel, text) {
  if (!QUOTED_CONSTANT.test(text)) return [];
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const lines = [];
  const visit = (node) => {
    let parts = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) parts = [node.text];
    else if (ts.isTemplateExpression(node)) {
      parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    }
    if (parts) {
      const literal = parts.join(' ? ');
      if (QUOTED_CONSTANT.test(literal) && SQL_TEXT.test(literal)) {
        lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** What an area offers to other areas besides `*-api.ts` and `*-page.tsx`. */
const PUBLIC = {
  auth: ['use-session-user', 'sign-out'],
  orders: ['columns', 'order-queue', 'sidebar-views', 'nav'],
  live: ['live-bus', 'live-root', 'describe', 'next-order', 'order-live-panel', 'undo', 'new-orders-bar'],
  insights: ['my-day-card', 'dispute-band-card'],
  communication: ['macro-menu'],
  'shift-notes': ['shift-note-card'],
};
const SHARED_CLIENT = new Set(['transport', 'state', 'components', 'test']);

/** Client imports allowed against the rules above, and why. */
const CLIENT_EXCEPTIONS = {
  'src/client/components/due-badge.tsx -> orders/columns':
    'the due badge shows the due text of the order lists (dueText); move dueText here when columns.ts is next changed',
};

function walk(dir, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

const isTest = (rel) => /\.test\.tsx?$/.test(rel) || rel.startsWith('src/server/test/');

/** The breaches of one file (path relative to the root, with forward slashes). */
export function breachesOf(rel, text) {
  const found = [];
  if (rel.startsWith('src/server/') && !isTest(rel)) {
    const inDomain = rel.startsWith('src/server/orders/');
    if (!inDomain && !SERVER_WRITE_EXCEPTIONS[rel]) {
      for (const re of ORDER_WRITES) {
        if (re.test(text)) {
          found.push(
            `${rel}: writes orders or order_events outside src/server/orders/ (use an order command of src/server/orders/ or orders/events.ts)`,
          );
          break;
        }
      }
    }
    if (rel !== MAIL_WRITER && !MAIL_WRITE_EXCEPTIONS[rel] && MAIL_WRITES.some((re) => re.test(text))) {
      found.push(`${rel}: writes mail_log outside ${MAIL_WRITER} (queue customer mail through writeMail)`);
    }
    for (const line of constantLiteralLines(rel, text)) {
      found.push(
        `${rel}:${line}: an order status or processing mode written by hand in SQL text (render it with sqlValue or sqlList from db/sql-lists.ts)`,
      );
    }
    const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
    for (const spec of imports) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (!inDomain && target.startsWith('src/server/orders/rules')) {
        found.push(`${rel}: imports orders/rules.ts, the domain's own checks (call a command instead)`);
      }
      if (
        target.startsWith('src/server/order-detail/queries') &&
        !rel.startsWith('src/server/order-detail/')
      ) {
        found.push(
          `${rel}: imports the detail screen's reads (order-detail/queries.ts); read through orders/repository.ts`,
        );
      }
    }
  }
  if (rel.startsWith('src/client/') && !isTest(rel)) {
    const area = rel.split('/')[2];
    const imports = [...text.matchAll(/(?:from\s+|import\()\s*'([^']+)'/g)].map((m) => m[1]);
    for (const spec of imports) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (!target.startsWith('src/client/')) continue;
      const parts = target.split('/');
      const targetArea = parts[2];
      if (area === 'transport' && targetArea !== 'transport') {
        found.push(
          `${rel}: the transport layer imports ${parts.slice(2).join('/')} (it is the floor: nothing above it)`,
        );
        continue;
      }
      // app/ (router, navigation, staff shell) composes the areas and stands above them all; only the
      // entry (src/client/main.tsx) imports it (the dependency-cruiser rule checks the tests too).
      if (targetArea === 'app' && area !== 'app') {
        if (rel.split('/').length === 3) continue;
        found.push(
          `${rel}: imports app/${parts.slice(3).join('/')}, the composition above the areas (it imports them, not the other way round)`,
        );
        continue;
      }
      if (parts.length < 4 || targetArea === area || SHARED_CLIENT.has(targetArea) || area === 'app')
        continue;
      const rest = parts
        .slice(3)
        .join('/')
        .replace(/\.(tsx?|js)$/, '');
      if (CLIENT_EXCEPTIONS[`${rel} -> ${targetArea}/${rest}`]) continue;
      if (area === 'components') {
        found.push(`${rel}: a shared component imports the ${targetArea} area (${rest})`);
        continue;
      }
      const open = /-api$|-page$/.test(rest) || (PUBLIC[targetArea] ?? []).includes(rest);
      if (!open) {
        found.push(
          `${rel}: imports ${targetArea}/${rest}, an internal of the ${targetArea} area (use what it offers, or list it in PUBLIC of scripts/check-boundaries.mjs)`,
        );
      }
    }
  }
  return found;
}

const breaches = [];
for (const file of walk(path.join(root, 'src'))) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  breaches.push(...breachesOf(rel, readFileSync(file, 'utf8')));
}
if (breaches.length) {
  for (const b of breaches) console.error(b);
  console.error(`\n${breaches.length} boundary breach(es); see docs/decisions/232-area-boundaries.md`);
  process.exit(1);
}
console.log('Area boundaries hold.');
