// Writes docs/decisions/README.md: one line per decision record (number, title, status), in number
// order, read from the records themselves. `npm run decisions:index` after adding or changing a record;
// `npm run docs:check` fails while the index is out of date (it calls `decisionsIndex()` below).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DECISIONS_DIR = 'docs/decisions';
export const INDEX_FILE = `${DECISIONS_DIR}/README.md`;
const RECORD = /^(\d{3})-.+\.md$/;

/** One record's index fields, or the problems that keep it out of the index. */
export function readRecord(file, text) {
  const number = RECORD.exec(file)?.[1];
  const problems = [];
  const heading = /^# (\d{3})\s*[—:-]\s*(.+)$/m.exec(text);
  if (!heading) problems.push(`${file}: no "# NNN — Title" heading`);
  else if (heading[1] !== number) problems.push(`${file}: heading number ${heading[1]} is not the file's`);
  if (!/^Date: \d{4}-\d{2}-\d{2}\b/m.test(text)) problems.push(`${file}: no "Date: YYYY-MM-DD" line`);
  const status = /^Status: (\S.*)$/m.exec(text)?.[1].trim();
  if (!status) problems.push(`${file}: no "Status:" line`);
  return {
    file,
    number,
    title: heading?.[2].trim() ?? '',
    status: status ? status[0].toUpperCase() + status.slice(1) : '',
    problems,
  };
}

/** The index text for the records in `dir`, and the problems found in them. */
export function decisionsIndex(dir = DECISIONS_DIR) {
  const records = readdirSync(dir)
    .filter((f) => RECORD.test(f))
    .sort()
    .map((f) => readRecord(f, readFileSync(join(dir, f), 'utf8')));
  const cell = (s) => s.replaceAll('|', '\\|');
  const lines = [
    '# Decision records',
    '',
    'Each record states one decision and why it was taken. Generated from the records by',
    '`npm run decisions:index`; `npm run docs:check` fails while this list is out of date.',
    'Measurements behind the performance records are in bench/investigations/.',
    '',
    '| No. | Decision | Status |',
    '| --- | --- | --- |',
    ...records.map((r) => `| ${r.number} | [${cell(r.title)}](${r.file}) | ${cell(r.status)} |`),
    '',
  ];
  return { text: lines.join('\n'), problems: records.flatMap((r) => r.problems.map((p) => `${dir}/${p}`)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text, problems } = decisionsIndex();
  for (const p of problems) console.error(p);
  writeFileSync(INDEX_FILE, text);
  console.log(`${INDEX_FILE}: ${text.split('\n').filter((l) => /^\| \d/.test(l)).length} records`);
  if (problems.length > 0) process.exit(1);
}
