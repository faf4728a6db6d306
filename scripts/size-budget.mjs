#!/usr/bin/env node
// Front-end budgets (decision 071), checked in CI: `npm run size [-- --dist DIR]`.
// Builds the client into a temporary folder with a Vite manifest and hidden source maps (or reads an
// existing build with --dist), then measures with gzip what a browser loads first:
//   - customer track page: the JS of customer/index.html (or, without a customer entry, the SPA entry plus
//     the track-page route) ≤ 60 KB gzip;
//   - staff first load: the JS of index.html plus the /admin route chunk (staff-root: login and layout)
//     ≤ 176 KB gzip (CSS is reported beside it; raised from 172 by decision 395);
//   - chart and PDF code never in the staff first load (module paths read from the source maps).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
export const BUDGETS = { trackJs: 60 * KB, staffFirstLoadJs: 176 * KB };
/** Chart and PDF libraries (and the project's own chart/PDF modules) that must stay out of the first load. */
const HEAVY = [
  /node_modules\/(chart\.js|react-chartjs-2|recharts|d3-[a-z-]+|victory[a-z-]*|echarts|echarts-for-react|apexcharts|react-apexcharts|@nivo\/[a-z-]+|uplot|pdf-lib|pdfkit|pdfjs-dist|jspdf|@react-pdf\/[a-z-]+|react-pdf)\//,
  /src\/client\/.*(chart|pdf)[^/]*\.[jt]sx?$/i,
];

const { values } = parseArgs({
  options: { dist: { type: 'string' }, keep: { type: 'boolean', default: false } },
});

let dir = values.dist ? path.resolve(values.dist) : null;
let temp = null;
if (!dir) {
  temp = mkdtempSync(path.join(os.tmpdir(), 'edcard-size-'));
  dir = temp;
  console.log('Building the client with a manifest and source maps into a temporary folder…');
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--outDir',
      dir,
      '--emptyOutDir',
      '--manifest',
      '--sourcemap',
      'hidden',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

const gz = (file) => gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** Static imports of a built chunk (`import{…}from"./x.js"`, `import"./x.js"`); dynamic import() is not one. */
function staticImports(file) {
  const code = readFileSync(path.join(dir, file), 'utf8');
  const found = new Set();
  const re = /\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const m of code.matchAll(re)) found.add(path.posix.join(path.posix.dirname(file), m[1]));
  return [...found];
}

function closureOfFiles(files) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || !existsSync(path.join(dir, f))) return;
    seen.add(f);
    for (const dep of staticImports(f)) visit(dep);
  };
  for (const f of files) visit(f);
  return seen;
}

/** Scripts and preloads of a built HTML page, as paths inside the build folder. */
function htmlScripts(htmlFile) {
  const html = readFileSync(path.join(dir, htmlFile), 'utf8');
  const files = [];
  const css = [];
  for (const m of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const tag = m[0];
    const ref = /(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!ref || /^[a-z]+:/i.test(ref)) continue;
    const rel = ref.startsWith('/') ? ref.slice(1) : path.posix.join(path.posix.dirname(htmlFile), ref);
    if (m[1] === 'script' || /rel="modulepreload"/.test(tag)) files.push(rel);
    else if (/rel="stylesheet"/.test(tag)) css.push(rel);
  }
  return { files, css };
}

const manifestFile = path.join(dir, '.vite/manifest.json');
const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : null;

/** JS and CSS files a manifest entry pulls in statically. */
function manifestClosure(keys) {
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    const entry = manifest[key];
    if (!entry || js.has(entry.file)) return;
    js.add(entry.file);
    for (const c of entry.css ?? []) css.add(c);
    for (const dep of entry.imports ?? []) visit(dep);
  };
  for (const k of keys) visit(k);
  return { js, css };
}

/** The chunk built from a source module: by manifest key, else by file name. */
function routeChunkFiles(sourceKey, namePrefix) {
  if (manifest?.[sourceKey]) return manifestClosure([sourceKey]);
  const assets = readdirAssets().filter((f) => path.posix.basename(f).startsWith(`${namePrefix}-`));
  return {
    js: closureOfFiles(assets.filter((f) => f.endsWith('.js'))),
    css: new Set(assets.filter((f) => f.endsWith('.css'))),
  };
}

function readdirAssets() {
  return readdirSync(path.join(dir, 'assets')).map((f) => `assets/${f}`);
}

const sum = (files) => [...files].filter((f) => existsSync(path.join(dir, f))).reduce((n, f) => n + gz(f), 0);

function union(...sets) {
  return new Set(sets.flatMap((s) => [...s]));
}

// Staff first load: the SPA entry and the /admin route chunk (staff-root renders the login and the layout).
const entry = manifest
  ? manifestClosure(['index.html'])
  : { js: closureOfFiles(htmlScripts('index.html').files), css: new Set(htmlScripts('index.html').css) };
const staffRoute = routeChunkFiles('app/staff-root.tsx', 'staff-root');
// staff-root lazy-loads one of two screens: the login (signed out) or the layout (signed in). The first
// load is the heavier of the two paths.
const branches = [
  ['login', routeChunkFiles('auth/login-page.tsx', 'login-page')],
  ['layout', routeChunkFiles('app/staff-layout.tsx', 'staff-layout')],
].map(([name, chunk]) => ({
  name,
  js: union(entry.js, staffRoute.js, chunk.js),
  css: union(entry.css, staffRoute.css, chunk.css),
}));
const heaviest = branches.reduce((a, b) => (sum(b.js) > sum(a.js) ? b : a));
const staffJs = heaviest.js;
const staffCss = heaviest.css;

// Customer track page: its own entry when the build has one, else the SPA entry plus the track route.
let trackJs;
let trackWhat;
if (existsSync(path.join(dir, 'customer/index.html'))) {
  trackJs = closureOfFiles(htmlScripts('customer/index.html').files);
  trackWhat = 'customer/index.html';
} else {
  trackJs = union(entry.js, routeChunkFiles('customer/track-page.tsx', 'track-page').js);
  trackWhat = 'index.html + track-page route (no customer entry in this build)';
}

// Chart and PDF modules in the staff first load, from the source maps.
const heavy = [];
let mapsRead = 0;
for (const file of staffJs) {
  const mapFile = path.join(dir, `${file}.map`);
  if (!existsSync(mapFile)) continue;
  mapsRead++;
  const { sources = [] } = JSON.parse(readFileSync(mapFile, 'utf8'));
  for (const src of sources) {
    const normal = src.replace(/\\/g, '/');
    if (HEAVY.some((re) => re.test(normal))) heavy.push(`${file}: ${normal.replace(/^(\.\.\/)+/, '')}`);
  }
}

const staffBytes = sum(staffJs);
const trackBytes = sum(trackJs);
const rows = [
  ['customer track page JS', trackBytes, BUDGETS.trackJs, trackWhat, [...trackJs]],
  [
    'staff first load JS',
    staffBytes,
    BUDGETS.staffFirstLoadJs,
    `index.html + /admin route (staff-root) + ${heaviest.name} screen, the heavier path`,
    [...staffJs],
  ],
];
let failed = false;
console.log('\nFront-end budgets (gzip -9):');
for (const [name, bytes, budget, what, files] of rows) {
  const ok = bytes <= budget;
  failed ||= !ok;
  console.log(
    `  ${ok ? 'ok  ' : 'OVER'} ${name.padEnd(24)} ${kb(bytes).padStart(9)} / ${kb(budget)}  (${what}; ${files.length} files)`,
  );
  if (!ok) for (const f of files) console.log(`         ${f} ${kb(gz(f))}`);
}
console.log(`       staff first load CSS     ${kb(sum(staffCss)).padStart(9)}  (reported, not budgeted)`);
if (mapsRead === 0) {
  console.log('  ??   chart/PDF check: no source maps in this build (run without --dist to check)');
} else if (heavy.length) {
  failed = true;
  console.log('  FAIL chart or PDF code in the staff first load:');
  for (const h of heavy) console.log(`         ${h}`);
} else {
  console.log(`  ok   no chart or PDF code in the staff first load (${mapsRead} source maps read)`);
}
if (temp && !values.keep) rmSync(temp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
