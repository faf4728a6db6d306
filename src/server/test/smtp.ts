import net from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { PDFParse } from 'pdf-parse';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server for tests: every message is parsed back with mailparser. */
export interface TestSmtp {
  port: number;
  url: string;
  messages: ParsedMail[];
  /** Resolves when at least `n` messages arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as net.AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    async waitFor(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mail(s), got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (a provider that is down). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A file part of a multipart body; `field` is the form field (`uploadVisaDoc` unless given). */
interface FilePart {
  field?: string;
  name: string;
  type?: string;
  content: Buffer;
}

/** A multipart/form-data body for app.inject, with one file or several. */
export function multipart(
  fields: Record<string, string>,
  files?: FilePart | FilePart[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----edcard${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files === undefined ? [] : Array.isArray(files) ? files : [files]) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'uploadVisaDoc'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The text and page count of a PDF, read back with pdf-parse. */
export async function pdfText(bytes: Uint8Array | Buffer): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText();
    return { text: result.text, pages: result.total };
  } finally {
    await parser.destroy();
  }
}

/** Polls until `check` returns a truthy value. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
