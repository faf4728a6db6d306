import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  MAIL_AWS_SMTP_URL: optionalUrl,
  MAIL_SENDGRID_SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default('ED-Card <no-reply@ed-card.test>'),
  PUBLIC_SITE_URL: z.url().default('http://127.0.0.1:3000'),
  ALT_LANDING_HOST: z.string().default(''),
  /** Translation widget script for customer pages (e.g. Google Website Translator); unset: none. */
  TRANSLATE_WIDGET_URL: optionalUrl,
  APP_MAIL_DOMAIN: z.string().min(1).default('ed-card.test'),
  /** Seed the demo set into an empty database at start: unset = only the embedded one outside production. */
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', ''])
    .default('')
    .transform((v) => (v === '' ? undefined : v === 'true' || v === '1')),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  REDIS_URL: optionalUrl,
  REMINDER_AFTER_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

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
  let secret = values.JWT_SECRET;
  if (!secret) {
    if (values.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
    }
    secret = localSecret(values.DATA_DIR);
  }
  return { ...values, DATA_DIR: path.resolve(values.DATA_DIR), JWT_SECRET: secret };
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
