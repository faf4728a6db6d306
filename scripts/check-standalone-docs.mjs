// The repository's comments and docs stand alone: they state a rule or point at docs/product.md or
// docs/decisions/, never at a document outside the repository (a numbered section of a spec or design
// note, an issue number, notes kept elsewhere); the paths they name exist; every setting is described;
// every decision record has its Date and Status lines and is listed in docs/decisions/README.md.
// `npm run docs:check`, part of `npm run validate`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { decisionsIndex, INDEX_FILE } from './decisions-index.mjs';

const ROOTS = ['src', 'e2e', 'bench', 'scripts', 'docs', 'drizzle', '.ci', 'README.md', 'package.json'];
const SELF = 'scripts/check-standalone-docs.mjs';

// Built from parts so this file does not match itself.
const S = '\u00a7';
const RULES = [
  [new RegExp(`\\bspec ${S}|${S} ?\\d`, 'i'), 'a numbered section of an outside document'],
  [/\bDESIGN\b/, 'the outside design note'],
  [new RegExp(['STYLE', 'TOOLCHAIN'].map((n) => `\\b${n}(\\.md)?\\b`).join('|')), 'outside notes'],
  [new RegExp(`product-${'spec'}`), 'the outside product specification'],
  [/\bissues? #?\d+/i, 'an issue number'],
  [/\/work\/shared\b|(\.\.\/)+shared\/(spec|[A-Z]+\.md)/, 'a file outside the repository'],
  [
    // "the spec's order", "spec messages", "(spec: …)"; not a variable named spec (`spec: ChartSpec`).
    new RegExp(
      `\\b([Tt]he|in|a) ${'spec'}('s)?\\b|\\b[Ss]${'pec'}(-named|: [a-z"]| (messages?|fields?|order|formats?|codec|examples?|validation|names?|row)\\b)`,
    ),
    'the outside product specification',
  ],
];

const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...ROOTS],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((f) => f && f !== SELF && !/\.(png|jpe?g|webp|gif|ico|pdf|woff2?|mmdb|gz|zip)$/i.test(f));

/** Each file's text; a file listed but deleted in the working tree has none. */
const texts = new Map();
for (const file of files) {
  try {
    texts.set(file, readFileSync(file, 'utf8'));
  } catch {}
}

const problems = [];
for (const [file, text] of texts) {
  text.split('\n').forEach((line, i) => {
    const hit = RULES.find(([re]) => re.test(line));
    if (hit) problems.push(`${file}:${i + 1}: ${hit[1]}: ${line.trim().slice(0, 140)}`);
  });
}

// A pointer `docs/product.md, "Heading"` names a heading that exists (its start is enough).
const headings = readFileSync('docs/product.md', 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('#'))
  .map((l) => l.replace(/^#+\s*/, ''));
for (const [file, text] of texts) {
  for (const m of text.matchAll(/docs\/product\.md, "([^"]+)"/g)) {
    if (!headings.some((h) => h.startsWith(m[1]))) {
      problems.push(`${file}: docs/product.md has no heading "${m[1]}"`);
    }
  }
}

// A path that docs or a comment names exists: `src/…`, `e2e/…` and the like as written (or with .ts,
// .tsx, .mjs added), `docs/decisions/NNN` and `drizzle/NNNN` by their number. Code files are read in
// their comment lines only (tests build paths of files that do not exist on purpose).
const decisionFiles = readdirSync('docs/decisions');
const migrationFiles = readdirSync('drizzle');
const PATH = /(?<![\w./@*-])((?:src|e2e|bench|scripts|drizzle|deploy|docs)\/[\w./-]*\w)(?![\w*])/g;
const COMMENT = /^\s*(\/\/|\/?\*|--|#)/;
const pathExists = (p) =>
  p.includes('/.data') ||
  (p.startsWith('docs/decisions/') && decisionFiles.some((f) => f.startsWith(p.slice(15)))) ||
  (p.startsWith('drizzle/') && migrationFiles.some((f) => f.startsWith(p.slice(8)))) ||
  ['', '.ts', '.tsx', '.mjs'].some((ext) => existsSync(p + ext));
for (const [file, text] of texts) {
  const prose = /\.md$/.test(file);
  if (!prose && !/\.(ts|tsx|mjs|sql|sh|ya?ml)$/.test(file)) continue;
  text.split('\n').forEach((line, i) => {
    if (!prose && !COMMENT.test(line)) return;
    for (const [, p] of line.matchAll(PATH)) {
      if (!pathExists(p)) problems.push(`${file}:${i + 1}: names ${p}, which does not exist`);
    }
  });
}

// Every setting src/server/config.ts reads is described in .env.example and in the README's table.
const settings = [...readFileSync('src/server/config.ts', 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
  (m) => m[1],
);
for (const doc of ['.env.example', 'README.md']) {
  const text = readFileSync(doc, 'utf8');
  for (const name of settings) {
    if (!new RegExp(`\\b${name}\\b`).test(text))
      problems.push(`${doc}: the setting ${name} is not described`);
  }
}

// Every decision record has its heading, Date and Status lines, and docs/decisions/README.md lists them
// all as `npm run decisions:index` writes it.
const index = decisionsIndex();
problems.push(...index.problems);
let written = '';
try {
  written = readFileSync(INDEX_FILE, 'utf8');
} catch {}
if (written !== index.text) problems.push(`${INDEX_FILE}: out of date; run \`npm run decisions:index\``);

if (problems.length > 0) {
  console.error(
    'Comments and docs must stand alone and name what exists: state the rule, or point at docs/product.md\n' +
      '(a heading) or docs/decisions/NNN-title.md. Found:\n',
  );
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`docs:check: ${texts.size} files stand alone`);
