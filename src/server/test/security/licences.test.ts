import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, '../../../../scripts/check-licences.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project folder with installed packages: name → licence (undefined: no licence field). */
function project(prod: Record<string, string | undefined>, dev: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'edcard-licences-'));
  dirs.push(dir);
  const deps = (names: object) => Object.fromEntries(Object.keys(names).map((n) => [n, '1.0.0']));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      version: '1.0.0',
      dependencies: deps(prod),
      devDependencies: deps(dev),
    }),
  );
  for (const [name, license] of Object.entries({ ...prod, ...dev })) {
    mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(
      path.join(dir, 'node_modules', name, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', ...(license === undefined ? {} : { license }) }),
    );
  }
  return dir;
}

async function check(dir?: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...(dir ? [dir] : [])]);
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('npm run licences', () => {
  it('passes on this project: no AGPL/GPL/SSPL package in production (ua-parser-js 2 is gone)', async () => {
    const { code, output } = await check();
    expect(output).not.toMatch(/REFUSED/);
    expect(code).toBe(0);
    expect(output).toMatch(/licences: \d+ production packages, none under AGPL, GPL or SSPL/);
  });

  it('fails on AGPL, GPL (also with an exception) and SSPL production packages, naming each', async () => {
    const dir = project({
      'agpl-lib': 'AGPL-3.0-or-later',
      'gpl-lib': 'GPL-2.0-only WITH Classpath-exception-2.0',
      'sspl-lib': 'SSPL-1.0',
      'both-lib': '(MIT AND GPL-3.0)',
      'bare-lib': undefined,
      'fine-lib': 'MIT',
    });
    const { code, output } = await check(dir);
    expect(code).toBe(1);
    for (const name of ['agpl-lib', 'gpl-lib', 'sspl-lib', 'both-lib', 'bare-lib']) {
      expect(output).toContain(`REFUSED  ${name}@1.0.0`);
    }
    expect(output).not.toContain('fine-lib');
  });

  it('allows LGPL, a dual licence with a permissive choice, and copyleft only among dev tools', async () => {
    const dir = project(
      { 'lgpl-lib': 'LGPL-3.0-or-later', 'dual-lib': '(MIT OR GPL-3.0)', 'isc-lib': 'ISC' },
      { 'gpl-dev-tool': 'GPL-3.0' },
    );
    const { code, output } = await check(dir);
    expect(output).not.toMatch(/REFUSED/);
    expect(code).toBe(0);
    expect(output).toContain('lgpl-lib@1.0.0: LGPL-3.0-or-later (allowed: weak copyleft)');
  });
});
