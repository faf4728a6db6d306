import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailProvider } from '../../shared/constants.js';
import type { Config } from '../config.js';

export interface SendResult {
  messageId: string;
  /** The provider's own id of the message when its answer names one (it may rewrite Message-ID). */
  providerId?: string | undefined;
  /** Where it went: "smtp://host:port" or the .eml file written to the outbox. */
  via: string;
}

export interface MailSender {
  send(provider: MailProvider, message: Mail.Options): Promise<SendResult>;
  close(): void;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'mail-outbox');
}

function smtpUrlOf(config: Config, provider: MailProvider): string | undefined {
  return provider === 'AWS' ? config.MAIL_AWS_SMTP_URL : config.MAIL_SENDGRID_SMTP_URL;
}

/** Host and port only: never log or store the credentials of an SMTP URL. */
function describeSmtp(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

/**
 * The two providers (docs/product.md): nodemailer SMTP transports from MAIL_AWS_SMTP_URL / MAIL_SENDGRID_SMTP_URL;
 * a provider without a URL writes each message as an .eml file under DATA_DIR/mail-outbox instead.
 */
export function createMailSender(config: Config): MailSender {
  const smtp = new Map<MailProvider, Transporter>();
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  const smtpFor = (provider: MailProvider, url: string) => {
    let transport = smtp.get(provider);
    if (!transport) {
      const timeouts: SMTPTransport.Options = {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      };
      transport = nodemailer.createTransport(url, timeouts);
      smtp.set(provider, transport);
    }
    return transport;
  };

  return {
    async send(provider, message) {
      const full: Mail.Options = { from: config.MAIL_FROM, ...message };
      const url = smtpUrlOf(config, provider);
      if (url) {
        const info = await smtpFor(provider, url).sendMail(full);
        return { messageId: info.messageId, providerId: providerIdOf(info.response), via: describeSmtp(url) };
      }
      const info = await stream.sendMail(full);
      const dir = outboxDir(config.DATA_DIR);
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${provider.toLowerCase()}-${randomBytes(4).toString('hex')}.eml`;
      const partial = path.join(dir, `.${name}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, path.join(dir, name));
      return { messageId: info.messageId, via: `outbox/${name}` };
    },
    close() {
      for (const transport of smtp.values()) transport.close();
      smtp.clear();
    },
  };
}

/** The id in an SMTP answer such as "250 Ok 0100018c…" (SES) or "250 Ok: queued as abc123" (SendGrid). */
export function providerIdOf(response: string | undefined): string | undefined {
  const m = /^250[ -](?:2\.0\.0 )?Ok:?\s+(?:queued as\s+)?<?([A-Za-z0-9._=+-]{6,200})>?\s*$/i.exec(
    response ?? '',
  );
  return m?.[1];
}
