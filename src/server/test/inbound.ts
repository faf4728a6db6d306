import { afterAll, beforeAll } from 'vitest';
import { type MailQueue, startMailQueue } from '../mail/queue.js';
import { createTestApp, type TestApp } from './app.js';
import { startSmtp, type TestSmtp } from './smtp.js';

/** The inbound webhook's token and the reply-address domain the inbound tests run with. */
export const INBOUND_TOKEN = 'inbound-token-for-tests-0123456789';
export const INBOUND_DOMAIN = 'in.ed-card.test';

export interface InboundMailApp {
  t: TestApp;
  /** The real SMTP server both mail providers deliver to. */
  smtp: TestSmtp;
  queue: MailQueue;
}

/**
 * Customers answering back, end to end: within a `describe`, an app with the inbound webhook and reply
 * addresses on, both mail providers pointed at a real SMTP server, and the mail queue delivering. The
 * fields are filled before the first test runs.
 */
export function inboundMailApp(overrides: Record<string, string> = {}): InboundMailApp {
  const fixture = {} as InboundMailApp;
  beforeAll(async () => {
    fixture.smtp = await startSmtp();
    fixture.t = await createTestApp({
      INBOUND_TOKEN,
      INBOUND_REPLY_DOMAIN: INBOUND_DOMAIN,
      MAIL_AWS_SMTP_URL: fixture.smtp.url,
      MAIL_SENDGRID_SMTP_URL: fixture.smtp.url,
      ...overrides,
    });
    fixture.queue = await startMailQueue(fixture.t.app, {
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 0.5,
      dispatchIntervalMs: 300,
      reminderCron: null,
    });
  });
  afterAll(async () => {
    await fixture.queue?.stop();
    await fixture.t?.close();
    await fixture.smtp?.close();
  });
  return fixture;
}

/**
 * Posts a raw message to the inbound webhook as the provider does (`message/rfc822`). Text gets CRLF
 * line ends; a Buffer is sent as it is.
 */
export const postInbound = (t: TestApp, raw: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/inbound/mail',
    headers: { authorization: `Bearer ${INBOUND_TOKEN}`, 'content-type': 'message/rfc822', ...headers },
    payload: typeof raw === 'string' ? Buffer.from(raw.replace(/\r?\n/g, '\r\n')) : raw,
  });
