import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './smtp.js';

export const DOVECOT = '/usr/sbin/dovecot';
export const hasDovecot = existsSync(DOVECOT);

export interface TestImap {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A real IMAP server for tests: Debian's dovecot on a free loopback port with its own temporary
 * configuration, one mailbox user, Maildir storage; stopped (by its pid) and removed by close().
 */
export async function startDovecot(): Promise<TestImap> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-imap-'));
  const port = await freePort();
  const pass = `pw-${Math.random().toString(36).slice(2)}`;
  for (const sub of ['run', 'state', 'home']) mkdirSync(path.join(dir, sub));
  // dovecot's auth process (an unprivileged user) reads the test's password file.
  chmodSync(dir, 0o755);
  writeFileSync(path.join(dir, 'users'), `inbox:{PLAIN}${pass}::::::\n`, { mode: 0o644 });
  // Mail processes never run as root: as root, the mailbox belongs to the package's dovecot user.
  const owner = process.getuid?.() === 0 ? 'dovecot' : os.userInfo().username;
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'dovecot:dovecot', path.join(dir, 'home')]);
  const userdb =
    process.getuid?.() === 0
      ? 'uid=dovecot gid=dovecot'
      : `uid=${process.getuid?.()} gid=${process.getgid?.()}`;
  const conf = path.join(dir, 'dovecot.conf');
  writeFileSync(
    conf,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
${owner === 'dovecot' ? '' : `default_internal_user = ${owner}\ndefault_login_user = ${owner}\n`}mail_location = maildir:${dir}/home/%u/Maildir
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = ${userdb} home=${dir}/home/%u
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', conf], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > until || child.exitCode !== null)
      throw new Error(`dovecot did not start (see ${dir}/dovecot.log)`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url: `imap://inbox:${pass}@127.0.0.1:${port}/INBOX`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
