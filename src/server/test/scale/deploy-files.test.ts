import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../config.js';

/**
 * Docker cannot run on the test machines, so the deploy files are checked for what they must say:
 * the compose file's app environment is a valid configuration of this app, the proxy and TRUST_PROXY
 * agree, and the image is multi-stage, non-root and runs the built app.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const read = (p: string) => readFileSync(path.join(root, p), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
}

const compose = parse(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Service> };

/** Compose interpolation: ${X:-default} → default, ${X:?message} → a value a user must supply. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')
    .replace(/\$\{JWT_SECRET:\?[^}]*\}/g, 'a-jwt-secret-of-at-least-thirty-two-characters')
    .replace(/\$\{[A-Z_]+:\?[^}]*\}/g, 'set');
}

describe('deploy/compose.yaml', () => {
  const { services } = compose;

  it('has two app instances, PostgreSQL, Redis, an S3 store, a mail catcher and a reverse proxy', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['app1', 'app2', 'mailpit', 'minio', 'minio-init', 'postgres', 'proxy', 'redis'].sort(),
    );
    expect(services.postgres!.image).toMatch(/^postgres:/);
    expect(services.redis!.image).toMatch(/^redis:/);
    expect(services.minio!.image).toMatch(/^minio\/minio/);
    expect(services.mailpit!.image).toMatch(/^axllent\/mailpit/);
    expect(services.proxy!.image).toMatch(/^caddy:/);
    for (const app of ['app1', 'app2']) {
      expect(services[app]!.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
      expect(services[app]!.healthcheck!.test.join(' ')).toContain('/api/health/ready');
    }
    expect(services.app2!.depends_on).toEqual({ app1: { condition: 'service_healthy' } });
  });

  it('the app environment is a valid configuration: PostgreSQL, Redis, S3, SMTP, one trusted proxy hop', () => {
    for (const app of ['app1', 'app2']) {
      const env = Object.fromEntries(
        Object.entries(services[app]!.environment!).map(([k, v]) => [k, interpolate(String(v))]),
      );
      const config = loadConfig(env);
      expect(config).toMatchObject({
        NODE_ENV: 'production',
        DOCUMENT_STORAGE: 's3',
        S3_BUCKET: 'edcard-documents',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: true,
        DATABASE_URL: 'postgres://edcard:edcard@postgres:5432/edcard',
        REDIS_URL: 'redis://redis:6379',
        MAIL_AWS_SMTP_URL: 'smtp://mailpit:1025',
      });
      // Caddy is the one proxy in front: exactly one hop is trusted.
      expect(config.TRUST_PROXY).toBe(1);
    }
  });

  it('the proxy balances both instances on their readiness', () => {
    expect(services.proxy!.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddy = read('deploy/Caddyfile');
    expect(caddy).toMatch(/reverse_proxy app1:3000 app2:3000/);
    expect(caddy).toMatch(/health_uri \/api\/health\/ready/);
  });

  const dockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  it.skipIf(dockerCompose.status !== 0)(
    'passes `docker-compose config` (the Compose tool’s own validation)',
    () => {
      const res = spawnSync(
        'docker-compose',
        ['-f', path.join(root, 'deploy/compose.yaml'), 'config', '-q'],
        {
          encoding: 'utf8',
          env: { ...process.env, JWT_SECRET: 'a-jwt-secret-of-at-least-thirty-two-characters' },
        },
      );
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
    },
  );
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('is multi-stage: builds in one stage, runs the built app as the non-root node user in the last', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/npm ci/);
    expect(stages[0]).toMatch(/npm run build/);
    expect(stages[0]).toMatch(/npm prune --omit=dev/);
    const runtime = stages.at(-1)!;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/COPY (--\S+ )*src /);
    expect(runtime).toMatch(/COPY --from=build \S* ?\/app\/dist \.\/dist/);
    expect(runtime).toMatch(/CMD \["node", "--enable-source-maps", "dist\/server\/main\.js"\]/);
    // Migrations are read from <app>/drizzle (dist/server/db → ../../../drizzle).
    expect(runtime).toMatch(/COPY (--\S+ )*drizzle \.\/drizzle/);
  });

  it('sends the builder only sources, manifests and migrations', () => {
    const ignore = read('.dockerignore').split('\n');
    expect(ignore).toContain('**');
    for (const kept of ['!package.json', '!package-lock.json', '!src/**', '!drizzle/**'])
      expect(ignore).toContain(kept);
    expect(existsSync(path.join(root, 'drizzle'))).toBe(true);
  });
});
