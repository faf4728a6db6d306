#!/usr/bin/env node
// `npm start`: builds what is not built (or is older than its sources), then runs the server. The server
// seeds the demo set only into an empty embedded database outside production, or with SEED_DEMO=1
// (src/server/db/seed-policy.ts); on PostgreSQL use SEED_DEMO=1 or `npm run db:seed`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function needsBuild(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => existsSync(s) && newestMtime(s) > built);
}

const src = (p) => path.join(root, 'src', p);
const steps = [
  ['build:server', path.join(root, 'dist/server/main.js'), [src('server'), src('shared')]],
  ['build:client', path.join(root, 'dist/client/index.html'), [src('client'), src('shared')]],
];
for (const [script, output, sources] of steps) {
  if (needsBuild(output, sources)) {
    console.log(`Building (${script})…`);
    const r = spawnSync(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'dist/server/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
