import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  INTAKE_API_KEY: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** Days a passport must stay valid after the departure date; less is a warning on the order (0: none). */
  PASSPORT_MIN_VALIDITY_DAYS: z.coerce.number().int().min(0).max(3650).default(0),
  MAIL_AWS_SMTP_URL: optionalUrl,
  MAIL_SENDGRID_SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default('ED-Card <no-reply@ed-card.test>'),
  PUBLIC_SITE_URL: z.url().default('http://127.0.0.1:3000'),
  ALT_LANDING_HOST: z.string().default(''),
  /** The support address in customer mails and pages; unset: the sender address of MAIL_FROM (decision 361). */
  SUPPORT_EMAIL: optionalText.pipe(z.email('must be an e-mail address').optional()),
  /** Translation widget script for customer pages (e.g. Google Website Translator); unset: none. */
  TRANSLATE_WIDGET_URL: optionalUrl,
  APP_MAIL_DOMAIN: z.string().min(1).default('ed-card.test'),
  /** Seed the demo set into an empty database at start: unset = only the embedded one outside production. */
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', ''])
    .default('')
    .transform((v) => (v === '' ? undefined : v === 'true' || v === '1')),
  /** How many demo orders a seeded empty database gets (0: the staff and gateways only). */
  SEED_DEMO_ORDERS: z.coerce.number().int().min(0).max(1_000_000).default(3000),
  /**
   * Proxies in front: `false` (none), a hop count (`1` = one proxy; `true` means 1), or a comma list of
   * proxy addresses/CIDRs. Only the X-Forwarded-For entries those proxies added are believed.
   */
  TRUST_PROXY: z.string().trim().default('false').transform(parseTrustProxy),
  /** A staff session not used for this long ends (its absolute end stays 12 hours). */
  SESSION_IDLE_HOURS: z.coerce.number().positive().max(12).default(8),
  /** A live event stream is closed after this many seconds (the browser reconnects at once). */
  LIVE_STREAM_MAX_SECONDS: z.coerce.number().min(1).max(43_200).default(3600),
  /** Every open live event stream's session is read again this often, in seconds. */
  LIVE_STREAM_RECHECK_SECONDS: z.coerce.number().min(0.05).max(3600).default(60),
  /** Open live event streams per session and per user; a new one closes the oldest beyond them. */
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(10_000).default(5),
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Track-page lookups per IP address in 10 minutes (the customer's order search). */
  TRACK_PER_IP_MAX: z.coerce.number().int().min(1).max(100_000).default(20),
  REDIS_URL: optionalUrl,
  /** Where documents live: `local` (DATA_DIR/documents) or `s3` (an S3-compatible bucket, S3_*). */
  DOCUMENT_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optionalText,
  /** Endpoint of an S3-compatible store (MinIO, Ceph…); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** Bucket in the path (`endpoint/bucket/key`), as most S3-compatible stores need. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Downloads answer a redirect to a short-lived presigned URL instead of streaming through the app. */
  S3_PRESIGNED_DOWNLOADS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  S3_PRESIGNED_SECONDS: z.coerce.number().int().min(10).max(3600).default(60),
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  AWS_SESSION_TOKEN: optionalText,
  /** Seconds between SIGTERM (readiness false) and closing the listener; unset: 5 in production, else 0. */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).optional(),
  /** Bearer token of GET /metrics; unset: no metrics endpoint (404). */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** Bearer token of POST /api/inbound/mail (a provider's inbound webhook); unset: no such route (404). */
  INBOUND_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** Domain of the per-order reply addresses (reply+<token>@domain); unset: customer mails carry no Reply-To. */
  INBOUND_REPLY_DOMAIN: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a domain name')
      .optional(),
  ),
  /**
   * The government's sender domains (comma list): mail from them to an application address
   * ({order id}@APP_MAIL_DOMAIN), authenticated by our receiving server, is government mail; unset: none is.
   */
  GOV_SENDER_DOMAINS: optionalText.pipe(
    z
      .string()
      .regex(
        /^\s*[a-z0-9.-]+\.[a-z]{2,}(\s*,\s*[a-z0-9.-]+\.[a-z]{2,})*\s*$/i,
        'must be a comma list of domain names',
      )
      .optional(),
  ),
  /** A mailbox the server watches for customer mail (imaps://user:pass@host:993/INBOX); unset: none. */
  INBOUND_IMAP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^imaps?:\/\/[^@/]+@[^/]+(\/.*)?$/i, 'must be imap(s)://user:password@host[:port][/mailbox]')
      .optional(),
  ),
  /**
   * The authserv-id of our receiving mail server's Authentication-Results headers; only those count to
   * say a sender is authenticated (dkim=pass or dmarc=pass for its domain). Unset: no sender is.
   */
  INBOUND_AUTHSERV_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,253}$/, 'must be a host name (the authserv-id)')
      .optional(),
  ),
  REMINDER_AFTER_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Worker threads that build Defence Packs and invoices and read uploaded PDFs (the concurrency limit). */
  PDF_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /** Heap cap of each PDF worker thread, in MB: a task that needs more fails alone. */
  PDF_WORKER_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(256),
  /** Stripe's API (refunds, dispute evidence); a local server in tests. Unset: Stripe's own. */
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
  /** Secret API key; unset: orders paid through Stripe keep the manual refund and chargeback flow. */
  STRIPE_SECRET_KEY: optionalText,
  /** Signing secret of the webhook endpoint (whsec_…); unset: POST /api/webhooks/stripe answers 404. */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Each call to Stripe gives up after this long (a clear message, nothing changed). */
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** The government's fee per traveller (one order is one traveller), in US cents (the finance report). */
  GOV_FEE_CENTS: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  /** Where a dispute band change is mailed (besides the managers' live notice); unset: no mail. */
  MANAGER_ALERT_EMAIL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.email().max(254).optional())
    .optional(),
});

/** What Fastify's `trustProxy` gets: false, a hop count, or the trusted proxy addresses. */
export type TrustProxy = false | number | string[];

/** Fastify's `trustProxy` option: a hop count becomes "trust the nearest N hops". */
export function fastifyTrustProxy(
  tp: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof tp === 'number') return (_address, hop) => hop < tp;
  return tp;
}

function parseTrustProxy(value: string, issues: z.RefinementCtx): TrustProxy {
  const v = value.toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad || entries.length === 0) {
    issues.addIssue({
      code: 'custom',
      message: `must be false, a hop count or a comma list of proxy addresses/CIDRs (bad entry: ${bad ?? value})`,
    });
    return z.NEVER;
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export type Config = Omit<z.infer<typeof schema>, 'JWT_SECRET'> & { JWT_SECRET: string };

export class ConfigError extends Error {}

/**
 * Parses the environment once. A wrong value stops start-up with a message naming the variable.
 * Outside production a missing JWT_SECRET is generated once and kept under DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (values.DOCUMENT_STORAGE === 's3' && !values.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when DOCUMENT_STORAGE=s3');
  }
  let secret = values.JWT_SECRET;
  if (!secret) {
    if (values.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
    }
    secret = localSecret(values.DATA_DIR);
  }
  return {
    ...values,
    SUPPORT_EMAIL: values.SUPPORT_EMAIL ?? fallbackSupportEmail(values.MAIL_FROM, values.APP_MAIL_DOMAIN),
    DATA_DIR: path.resolve(values.DATA_DIR),
    JWT_SECRET: secret,
  };
}

/** A host no customer can write to: an IP address or localhost. */
const unreachableHost = (host: string) =>
  /^(localhost|.+\.localhost)$/i.test(host) || /^[\d.]+$/.test(host) || /[:[\]]/.test(host);

/**
 * SUPPORT_EMAIL unset (decision 361): the sender address of MAIL_FROM ("Name <address>" or the bare
 * address), else support@APP_MAIL_DOMAIN; never an address at an IP address or localhost.
 */
export function fallbackSupportEmail(mailFrom: string, mailDomain: string): string {
  const address = (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
  const domain = /^[^\s@]+@([^\s@]+)$/.exec(address)?.[1];
  if (domain && !unreachableHost(domain)) return address;
  return unreachableHost(mailDomain) ? 'support@ed-card.test' : `support@${mailDomain}`;
}

function localSecret(dataDir: string): string {
  const file = path.join(path.resolve(dataDir), 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
