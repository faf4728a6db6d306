import type { FastifyInstance } from 'fastify';
import { ImapFlow } from 'imapflow';
import type { Db } from '../db/client.js';
import { inboundImapClaims } from '../db/schema.js';
import { httpErrorOf } from '../http/errors.js';
import type { Config } from '../config.js';
import { connectionOf } from './mailbox.js';
import { INBOUND_LIMITS, parseInbound } from './parse.js';
import { receiveInboundMail } from '../flows/government-mail.js';

export interface ImapOptions {
  url: string;
  /** The poll fallback: a pass this often even when IDLE says nothing. */
  pollMs?: number;
  log?: (what: object, message: string) => void;
}

export interface ImapWatcher {
  /** One pass over the unseen messages now; answers how many this watcher took. */
  poll(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Watches a mailbox (docs/product.md, "Customers answer back"): IDLE wakes a pass when mail arrives, a
 * timer passes anyway. Each unseen message is claimed in the database first (mailbox, UIDVALIDITY, UID),
 * so of several instances exactly one takes it; it goes through the pipeline and is marked seen.
 */
export async function startImapWatcher(db: Db, config: Config, opts: ImapOptions): Promise<ImapWatcher> {
  const { mailbox, ...connection } = connectionOf(opts.url);
  const log = opts.log ?? (() => {});
  const client = new ImapFlow({ ...connection, logger: false, disableAutoIdle: false });
  client.on('error', (err: Error) => log({ err: err.message }, 'mailbox connection error'));
  await client.connect();
  const opened = await client.mailboxOpen(mailbox);
  const uidValidity = Number(opened.uidValidity);

  let running: Promise<number> | null = null;
  let again = false;
  const passOnce = async (): Promise<number> => {
    let taken = 0;
    const lock = await client.getMailboxLock(mailbox);
    try {
      const uids = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of uids) {
        const claimed = await db
          .insert(inboundImapClaims)
          .values({ mailbox, uidValidity, uid })
          .onConflictDoNothing()
          .returning({ uid: inboundImapClaims.uid });
        if (!claimed.length) continue;
        taken++;
        const message = await client.fetchOne(String(uid), { source: true, size: true }, { uid: true });
        try {
          if (message === false || !message.source) continue;
          if ((message.size ?? message.source.length) > INBOUND_LIMITS.maxBytes) {
            log({ uid }, 'mailbox message over 25 MB left unread');
            continue;
          }
          const result = await receiveInboundMail({ db, config }, await parseInbound(message.source));
          log({ uid, disposition: result.disposition, inboundId: result.inboundId }, 'inbound mail');
        } catch (err) {
          // A message the pipeline refuses (a MIME bomb, not an e-mail) is marked seen and left there.
          const refused = httpErrorOf(err);
          if (!refused) throw err;
          log({ uid, refused: refused.message }, 'mailbox message refused');
        } finally {
          await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
        }
      }
    } finally {
      lock.release();
    }
    return taken;
  };
  const poll = async (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = passOnce().finally(() => {
      running = null;
    });
    const n = await running;
    if (again) {
      again = false;
      return n + (await poll());
    }
    return n;
  };
  const kick = () => {
    poll().catch((err) => log({ err: String((err as Error).message ?? err) }, 'mailbox pass failed'));
  };
  client.on('exists', kick);
  const timer = setInterval(kick, opts.pollMs ?? 60_000);
  timer.unref();
  kick();

  return {
    poll,
    stop: async () => {
      clearInterval(timer);
      client.off('exists', kick);
      await running?.catch(() => 0);
      await client.logout().catch(() => client.close());
    },
  };
}

/** The mailbox watcher as a background job: on when INBOUND_IMAP_URL is set. */
export async function imapJob(app: FastifyInstance): Promise<() => Promise<void>> {
  const url = app.ctx.config.INBOUND_IMAP_URL;
  if (!url) return async () => {};
  const watcher = await startImapWatcher(app.ctx.db, app.ctx.config, {
    url,
    log: (what, message) => app.log.info(what, message),
  });
  return watcher.stop;
}
