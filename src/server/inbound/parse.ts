import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Splitter } from '@zone-eu/mailsplit';
import EmailReplyParser from 'email-reply-parser';
import { convert } from 'html-to-text';
import {
  type AddressObject,
  type Attachment,
  type MailParserOptions,
  type ParsedMail,
  simpleParser,
} from 'mailparser';
import { HttpError, payloadTooLarge } from '../http/errors.js';

/** The limits of one inbound message (docs/product.md, "Customers answer back"). */
export const INBOUND_LIMITS = {
  maxBytes: 25 * 1024 * 1024,
  maxAttachments: 20,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxParts: 100,
  maxDepth: 8,
  /** Text kept per message; the rest of a very long body is cut. */
  maxTextChars: 100_000,
} as const;

export const TOO_LARGE_MESSAGE = 'The message is too large. The maximum size is 25 MB.';
export const MIME_TOO_COMPLEX_MESSAGE = 'The message has too many parts or nests them too deeply.';
export const UNREADABLE_MESSAGE = 'The message could not be read as an e-mail.';

export interface DeliveryReport {
  /** failed (5.x.x) or delayed (4.x.x). */
  permanent: boolean;
  status: string;
  recipient: string | null;
  diagnostic: string | null;
  /** Message-IDs the report names (the original message's Message-ID and our own header). */
  originalIds: string[];
  /** The Reply-To of the returned message (our signed reply address, when it was ours). */
  originalReplyTo: string[];
}

export interface InboundMail {
  messageId: string | null;
  fromEmail: string | null;
  fromName: string | null;
  subject: string;
  date: Date | null;
  /** Every address the message was sent to (To, Cc, Delivered-To, X-Original-To, envelope). */
  recipients: string[];
  /** In-Reply-To first, then References, newest first. */
  threadIds: string[];
  bodyText: string;
  quotedText: string;
  wasHtml: boolean;
  autoReply: boolean;
  report: DeliveryReport | null;
  /** Every `Authentication-Results` header value (unfolded), top first. */
  authResults: string[];
  /** Header values that say the message is one of ours coming back. */
  ourOrderHeader: string | null;
  attachments: Attachment[];
  sizeBytes: number;
  /** The message as it came (RFC 822, at most INBOUND_LIMITS.maxBytes): kept so matching can run again. */
  raw: Buffer;
}

/**
 * Walks the MIME tree without decoding anything and refuses a message with more parts or deeper
 * nesting than any real mail has, before the full parser spends time on it.
 */
async function checkStructure(raw: Buffer): Promise<void> {
  let parts = 0;
  let tooComplex = false;
  const splitter = new Splitter({ maxChildNodes: INBOUND_LIMITS.maxParts + 1 });
  const sink = new Writable({
    objectMode: true,
    write(data: { type: string; parentNode?: unknown; value?: unknown }, _enc, done) {
      if (data.type === 'node') {
        parts++;
        let depth = 0;
        for (let n = data.parentNode as { parentNode?: unknown } | undefined; n; n = n.parentNode as never)
          depth++;
        if (parts > INBOUND_LIMITS.maxParts || depth > INBOUND_LIMITS.maxDepth) tooComplex = true;
      }
      done();
    },
  });
  try {
    await pipeline(Readable.from([raw]), splitter, sink);
  } catch (err) {
    if (/child nodes/i.test(String((err as Error).message))) tooComplex = true;
    else throw new HttpError(422, UNREADABLE_MESSAGE);
  }
  if (tooComplex) throw new HttpError(422, MIME_TOO_COMPLEX_MESSAGE);
}

const header = (mail: ParsedMail, name: string): string | null => {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return String(v);
};

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list
    .flatMap((f) => f.value.flatMap((a) => [a.address, ...(a.group ?? []).map((g) => g.address)]))
    .filter((a): a is string => !!a)
    .map((a) => a.toLowerCase());
}

const ANGLE_IDS = /<[^<>\s]{1,250}>/g;

function idsOf(value: string | string[] | undefined | null): string[] {
  const text = Array.isArray(value) ? value.join(' ') : (value ?? '');
  const found = text.match(ANGLE_IDS) ?? [];
  const bare = found.length
    ? []
    : text
        .split(/\s+/)
        .filter((t) => /^[^<>\s@]+@[^<>\s@]+$/.test(t))
        .map((t) => `<${t}>`);
  return [...found, ...bare];
}

/** RFC 3834 and the headers common auto-responders set (docs/decisions/306). */
function isAutoReply(mail: ParsedMail): boolean {
  const auto = header(mail, 'auto-submitted');
  if (auto && auto.trim().toLowerCase() !== 'no') return true;
  if (header(mail, 'x-autoreply') || header(mail, 'x-autorespond')) return true;
  if (header(mail, 'x-auto-response-suppress')) return true;
  const precedence = header(mail, 'precedence')?.trim().toLowerCase();
  return (
    precedence === 'bulk' || precedence === 'junk' || precedence === 'list' || precedence === 'auto_reply'
  );
}

function fieldOf(block: string, name: string): string | null {
  const m = new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, 'im').exec(block);
  return m ? m[1]!.replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

/** A delivery report (RFC 3464): its status per recipient and the message it reports on. */
async function deliveryReportOf(mail: ParsedMail): Promise<DeliveryReport | null> {
  const contentType = header(mail, 'content-type') ?? '';
  const status = mail.attachments.find((a) => a.contentType === 'message/delivery-status');
  if (!/multipart\/report/i.test(contentType) && !status) return null;
  const text = status ? status.content.toString('utf8') : '';
  const code = fieldOf(text, 'Status') ?? /\b([45]\.\d{1,3}\.\d{1,3})\b/.exec(mail.text ?? '')?.[1] ?? null;
  if (!code) return null;
  const recipient =
    (fieldOf(text, 'Final-Recipient') ?? fieldOf(text, 'Original-Recipient'))?.replace(/^rfc822;\s*/i, '') ??
    null;
  const original = mail.attachments.find(
    (a) =>
      a.contentType === 'message/rfc822' ||
      a.contentType === 'text/rfc822-headers' ||
      a.contentType === 'message/rfc822-headers',
  );
  const originalIds: string[] = [];
  const originalReplyTo: string[] = [];
  if (original) {
    const headText = original.content.toString('utf8').split(/\r?\n\r?\n/)[0] ?? '';
    for (const name of ['X-ED-Card-Message-Id', 'Message-ID'])
      originalIds.push(...idsOf(fieldOf(headText, name)));
    for (const a of (fieldOf(headText, 'Reply-To') ?? '').match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? [])
      originalReplyTo.push(a.toLowerCase().slice(0, 320));
  }
  return {
    permanent: code.startsWith('5'),
    status: code.slice(0, 20),
    recipient: recipient?.toLowerCase().slice(0, 320) ?? null,
    diagnostic: fieldOf(text, 'Diagnostic-Code')?.slice(0, 500) ?? null,
    originalIds: originalIds.slice(0, 20),
    originalReplyTo: originalReplyTo.slice(0, 5),
  };
}

/** Splits the new text from the quoted history (email-reply-parser); both stay, the history folded. */
export function splitQuoted(text: string): { visible: string; quoted: string } {
  const email = new EmailReplyParser().read(text);
  const fragments = email.getFragments();
  const visible = fragments
    .filter((f) => !f.isHidden())
    .map((f) => f.getContent())
    .join('\n')
    .trim();
  const quoted = fragments
    .filter((f) => f.isHidden())
    .map((f) => f.getContent())
    .join('\n')
    .trim();
  return visible ? { visible, quoted } : { visible: text.trim(), quoted: '' };
}

/** HTML as plain text: scripts, styles and images dropped, link targets not shown, nothing fetched. */
function htmlAsText(html: string): string {
  return convert(html.slice(0, 2 * 1024 * 1024), {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'a', options: { ignoreHref: true } },
    ],
  });
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Parses a raw message (RFC 5322) within the limits: 413 over 25 MB, 422 for a MIME bomb or what is not
 * an e-mail. HTML is never kept as HTML: the text part, or the HTML converted to text (scripts, styles
 * and remote images dropped), with the quoted history folded apart.
 */
export async function parseInbound(raw: Buffer, envelopeTo: string[] = []): Promise<InboundMail> {
  if (raw.length > INBOUND_LIMITS.maxBytes) throw payloadTooLarge(TOO_LARGE_MESSAGE);
  if (raw.length === 0) throw new HttpError(400, UNREADABLE_MESSAGE);
  await checkStructure(raw);
  let mail: ParsedMail;
  try {
    // maxChildNodes is handed on to the MIME splitter, which enforces it.
    const options: MailParserOptions & { maxChildNodes: number } = {
      keepDeliveryStatus: true,
      // HTML-only mail is converted here (htmlAsText), never with remote image addresses.
      skipHtmlToText: true,
      skipImageLinks: true,
      skipTextLinks: true,
      maxHtmlLengthToParse: 2 * 1024 * 1024,
      maxChildNodes: INBOUND_LIMITS.maxParts + 1,
    };
    mail = await simpleParser(raw, options);
  } catch {
    throw new HttpError(422, UNREADABLE_MESSAGE);
  }
  if (mail.headers.size === 0) throw new HttpError(422, UNREADABLE_MESSAGE);
  const from = mail.from?.value[0];
  const wasHtml = !mail.text?.trim() && !!mail.html;
  const text = clip(
    (wasHtml ? htmlAsText(mail.html as string) : (mail.text ?? ''))
      .replace(/\r\n/g, '\n')
      .replace(CONTROL, ''),
    INBOUND_LIMITS.maxTextChars,
  );
  const { visible, quoted } = splitQuoted(text);
  const report = await deliveryReportOf(mail);
  const recipients = [
    ...addressesOf(mail.to),
    ...addressesOf(mail.cc),
    ...['delivered-to', 'x-original-to', 'envelope-to'].flatMap((h) =>
      (header(mail, h) ?? '').split(',').map((a) => a.trim().replace(/^<|>$/g, '').toLowerCase()),
    ),
    ...envelopeTo.map((a) => a.toLowerCase()),
  ].filter(Boolean);
  return {
    messageId: mail.messageId ? clip(mail.messageId.trim(), 300) : null,
    fromEmail: from?.address ? clip(from.address.toLowerCase(), 320) : null,
    fromName: from?.name ? clip(from.name.replace(CONTROL, ''), 200) : null,
    subject: clip((mail.subject ?? '').replace(CONTROL, ''), 500),
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    recipients: [...new Set(recipients)],
    threadIds: [...new Set([...idsOf(mail.inReplyTo), ...idsOf(mail.references).reverse()])].slice(0, 50),
    bodyText: visible,
    quotedText: quoted,
    wasHtml,
    autoReply: isAutoReply(mail),
    report,
    authResults: mail.headerLines
      .filter((h) => h.key === 'authentication-results')
      .slice(0, 50)
      .map((h) =>
        h.line
          .replace(/^[^:]*:/, '')
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      ),
    ourOrderHeader: header(mail, 'x-ed-card-order'),
    attachments: report
      ? []
      : mail.attachments.filter(
          (a) =>
            !a.related && !a.contentType.startsWith('message/') && !a.contentType.startsWith('text/rfc822'),
        ),
    sizeBytes: raw.length,
    raw,
  };
}
