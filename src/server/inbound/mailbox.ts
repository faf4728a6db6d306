import { ImapFlow } from 'imapflow';

/** The watched mailbox's connection, from its URL (imap:// or imaps://, the mailbox as the path). */
export function connectionOf(url: string) {
  const u = new URL(url);
  const secure = u.protocol === 'imaps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    secure,
    auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
    mailbox: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'INBOX',
  };
}

/**
 * Deletes the raw copies of these messages (by Message-ID) from the watched mailbox: what an erasure
 * leaves nowhere (decision 352). At most 200 ids, 20 s in all; answers how many messages went.
 */
export async function removeFromMailbox(url: string, messageIds: readonly string[]): Promise<number> {
  const ids = [...new Set(messageIds.filter((id) => id && id.length <= 300))].slice(0, 200);
  if (!ids.length) return 0;
  const { mailbox, ...connection } = connectionOf(url);
  const client = new ImapFlow({ ...connection, logger: false, disableAutoIdle: true });
  client.on('error', () => {});
  const work = async () => {
    await client.connect();
    const lock = await client.getMailboxLock(mailbox);
    let removed = 0;
    try {
      for (const id of ids) {
        const uids = (await client.search({ header: { 'message-id': id } }, { uid: true })) || [];
        if (!uids.length) continue;
        await client.messageDelete(uids.join(','), { uid: true });
        removed += uids.length;
      }
    } finally {
      lock.release();
    }
    return removed;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the mailbox did not answer in time')), 20_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await client.logout().catch(() => client.close());
  }
}
