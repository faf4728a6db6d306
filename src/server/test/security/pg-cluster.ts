import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A private, throw-away PostgreSQL cluster for fault tests (stop/start without disturbing anyone else's
 * server). Needs the PostgreSQL server binaries; as root it runs them as the postgres user.
 */
export function postgresBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const version = readdirSync(base).sort().at(-1);
  const dir = version ? path.join(base, version, 'bin') : '';
  return dir && existsSync(path.join(dir, 'initdb')) ? dir : null;
}

export class PrivateCluster {
  readonly dir: string;
  readonly port: number;
  private readonly bin: string;

  constructor(port: number) {
    const bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL server binaries not found');
    this.bin = bin;
    this.port = port;
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-pg-'));
    this.run('chmod', ['777', this.dir], false);
    this.asPostgres('initdb', ['-D', this.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }

  get data() {
    return path.join(this.dir, 'data');
  }

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start() {
    this.asPostgres('pg_ctl', [
      '-D',
      this.data,
      '-w',
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }

  stop() {
    this.asPostgres('pg_ctl', ['-D', this.data, '-w', '-m', 'fast', 'stop']);
  }

  destroy() {
    spawnSync(this.cmd('pg_ctl'), ['-D', this.data, '-m', 'immediate', 'stop'], this.spawnOpts());
    rmSync(this.dir, { recursive: true, force: true });
  }

  private cmd(name: string) {
    return path.join(this.bin, name);
  }

  private spawnOpts() {
    return process.getuid?.() === 0 ? { uid: uidOf('postgres'), gid: gidOf('postgres') } : {};
  }

  private asPostgres(name: string, args: string[]) {
    execFileSync(this.cmd(name), args, { stdio: 'ignore', cwd: this.dir, ...this.spawnOpts() });
  }

  private run(cmd: string, args: string[], check = true) {
    const r = spawnSync(cmd, args);
    if (check && r.status !== 0) throw new Error(`${cmd} failed`);
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
