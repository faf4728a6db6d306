#!/usr/bin/env node
// `npm run i18n:compile`: compiles the customer catalogs (src/shared/i18n/*.ts, ICU MessageFormat) into
// message ASTs for the customer page (src/client/customer/messages/*.json). The page formats the ASTs
// with intl-messageformat and ships no ICU parser (docs/decisions/213). `--check` fails when a compiled
// file is out of date (part of `npm run i18n:missing`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'src/client/customer/messages');
const check = process.argv.includes('--check');
const { CUSTOMER_LANGUAGES } = await tsImport(path.join(root, 'src/shared/languages.ts'), import.meta.url);
const { compileCatalog } = await tsImport(path.join(root, 'src/shared/i18n/format.ts'), import.meta.url);
const compile = (catalog) => compileCatalog(catalog, (text) => parse(text));

const stale = [];
const written = [];
for (const language of CUSTOMER_LANGUAGES) {
  const { default: catalog } = await tsImport(
    path.join(root, `src/shared/i18n/${language}.ts`),
    import.meta.url,
  );
  const compiled = compile(catalog);
  const file = path.join(outDir, `${language}.json`);
  const current = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  if (isDeepStrictEqual(current, compiled)) continue;
  if (check) {
    stale.push(path.relative(root, file));
    continue;
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(compiled)}\n`);
  written.push(file);
}
if (written.length) {
  execFileSync('npx', ['biome', 'format', '--write', ...written], { cwd: root, stdio: 'ignore' });
  console.log(`compiled ${written.map((f) => path.relative(root, f)).join(', ')}`);
}
if (stale.length) {
  console.log(`STALE   ${stale.join(', ')}: run npm run i18n:compile`);
  process.exit(1);
}
if (check) console.log('ok      compiled customer messages are up to date');
