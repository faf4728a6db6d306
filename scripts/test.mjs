#!/usr/bin/env node
// `npm test`: unit, server (PGlite) and component tests with Vitest, then the end-to-end tests in
// Chromium when /usr/bin/chromium exists. Prints one summary line summed over the runners.
// The end-to-end tests run on a fresh `npm run build`; EDCARD_BUILT=1 says the caller (CI) has just
// built this tree, and the build is not repeated.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.reports');
mkdirSync(reports, { recursive: true });
const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRun = false;

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (only('vitest')) {
  const file = path.join(reports, 'vitest.json');
  rmSync(file, { force: true });
  const r = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    {
      cwd: root,
      stdio: 'inherit',
      env,
    },
  );
  const report = read(file);
  if (report) {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
  if (r.status !== 0) failedRun = true;
  if (!report) totals.failed += 1;
}

if (only('e2e')) {
  if (!existsSync('/usr/bin/chromium')) {
    console.log(
      '\nEnd-to-end tests skipped: /usr/bin/chromium is missing. Enable them with: apt-get install chromium',
    );
  } else {
    const built = process.env.EDCARD_BUILT === '1' && existsSync(path.join(root, 'dist'));
    if (built) console.log('\nEnd-to-end tests on the build made before (EDCARD_BUILT=1)');
    const build = built
      ? { status: 0 }
      : spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', env });
    if (build.status !== 0) {
      failedRun = true;
      totals.failed += 1;
    } else {
      const file = path.join(reports, 'playwright.json');
      rmSync(file, { force: true });
      const r = spawnSync('npx', ['playwright', 'test'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
      });
      const report = read(file);
      if (report) {
        // A test that failed once and passed on its one retry (CI only) counts as passed, and is named.
        totals.passed += report.stats.expected + report.stats.flaky;
        totals.failed += report.stats.unexpected;
        totals.skipped += report.stats.skipped;
        if (report.stats.flaky) console.log(`Playwright: ${report.stats.flaky} test(s) passed only on retry`);
      } else {
        totals.failed += 1;
      }
      if (r.status !== 0) failedRun = true;
    }
  }
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun || totals.failed > 0 ? 1 : 0);
