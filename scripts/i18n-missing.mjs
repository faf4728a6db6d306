#!/usr/bin/env node
// `npm run i18n:missing` (part of `npm run validate`): lists, per customer language, the keys of the
// English catalog (src/shared/i18n/en.ts) that its catalog lacks, and fails when any is missing. At run
// time a missing key falls back to English; this check keeps such gaps from going unnoticed.
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const load = (file) => tsImport(path.join(root, 'src/shared', file), import.meta.url);

const { CUSTOMER_LANGUAGES } = await load('languages.ts');
const { missingKeys } = await load('i18n/format.ts');
let missing = 0;
for (const language of CUSTOMER_LANGUAGES.filter((l) => l !== 'en')) {
  const { default: catalog } = await load(`i18n/${language}.ts`);
  const keys = missingKeys(catalog);
  missing += keys.length;
  console.log(`${keys.length ? 'MISSING' : 'ok     '} ${language.padEnd(4)} ${keys.length} missing key(s)`);
  for (const key of keys) console.log(`          ${key}`);
}
process.exit(missing ? 1 : 0);
