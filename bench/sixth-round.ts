import { passportImage, SPECIMEN } from '../src/server/test/passport-image.js';
import type { Kind } from './report.js';
import type { Scenario } from './load.js';

/**
 * The benchmark rows of the sixth round's features (the government step, the card and passport checks,
 * disputes and finance): reads of one order or one period, and the passport's MRZ read from an uploaded
 * image with `/api/health` and a list read measured beside it. A row whose route the server does not
 * have yet answers "not available" (the job API of the government step).
 */
interface SixthRoundRow {
  key: string;
  /** Rows that take orders off a queue (the job claim): refilled before each phase. */
  claims?: boolean;
  label: string;
  kind: Kind;
  route: { method: 'GET' | 'POST' | 'PATCH'; url: string } | null;
  scenario: Scenario;
  noReplay?: boolean;
  connections?: number;
  alongside?: { label: string; scenario: Scenario; rate: number };
}

const BOUNDARY = 'benchpassportscan';

/** A multipart body with one passport image (drawn, nothing downloaded) in the field `passport`. */
function passportUpload(): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="passport"; filename="passport.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    passportImage(SPECIMEN),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/**
 * Keys for the job API, created through the Admin route (each allows 600 requests a minute, so the
 * row spreads its requests over enough of them). None when the server has no job API.
 */
export async function createMachineKeys(
  post: (path: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>,
  count: number,
): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await post('/api/admin/api-keys', {
      name: `Bench portal robot ${i + 1}`,
      scopes: ['submission'],
      maxPerMinute: 600,
    });
    const key = (res.body.data as { key?: string } | undefined)?.key;
    if (res.status !== 200 || !key) break;
    keys.push(key);
  }
  return keys;
}

const isoMonth = (d: Date) => d.toISOString().slice(0, 7);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function sixthRoundRows(opts: {
  auth: Record<string, string>;
  /** Keys of the job API (scope submission), used in turn: each key is held to 600 requests a minute. */
  machineKeys: string[];
  /** An open order with a failing check (the packet lists it). */
  orderId: number;
  today: Date;
}): SixthRoundRow[] {
  const { auth, machineKeys, orderId, today } = opts;
  const monthStart = `${isoMonth(today)}-01`;
  const yearAgo = new Date(today.getTime() - 364 * 86_400_000);
  const get = (path: string): Scenario => ({ method: 'GET', path, headers: auth });
  return [
    {
      key: 'submission-packet',
      label: 'submission packet of one order',
      kind: 'sixthRound',
      route: { method: 'GET', url: '/api/admin/orders/:orderId/submission-packet' },
      scenario: get(`/api/admin/orders/${orderId}/submission-packet`),
    },
    {
      key: 'submission-job-claim',
      label: 'submission job claim (10 concurrent claimers)',
      claims: true,
      kind: 'sixthRound',
      route: { method: 'POST', url: '/api/submission-jobs/claim' },
      noReplay: true,
      scenario: {
        method: 'POST',
        path: '/api/submission-jobs/claim',
        headers: { authorization: `Bearer ${machineKeys[0] ?? ''}` },
        // An empty JSON object: a JSON content type with no body at all is refused (400).
        body: {},
        vary: (i) => ({
          headers: { authorization: `Bearer ${machineKeys[i % Math.max(1, machineKeys.length)] ?? ''}` },
        }),
      },
    },
    {
      key: 'card-check-read',
      label: "card check of one order (the stored check's answer)",
      kind: 'sixthRound',
      route: { method: 'GET', url: '/api/admin/orders/:orderId/card-check' },
      scenario: get(`/api/admin/orders/${orderId}/card-check`),
    },
    {
      key: 'mrz-read',
      label: 'passport MRZ read from an uploaded image (1250×880 PNG)',
      kind: 'sixthRound',
      route: { method: 'POST', url: '/api/admin/orders/:orderId/passport-scan' },
      noReplay: true,
      scenario: {
        method: 'POST',
        path: `/api/admin/orders/${orderId}/passport-scan`,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        rawBody: passportUpload(),
      },
      // Two at once, one a core: ten decodes at once exceed the decode worker's time limit, and the
      // answer is then "unreadable" (a 200 that measures the refusal, not the read).
      connections: 2,
      alongside: { label: '/api/health', scenario: { method: 'GET', path: '/api/health' }, rate: 20 },
    },
    {
      key: 'disputes-month',
      label: 'dispute ratios of one month (with its 12 months)',
      kind: 'sixthRound',
      route: { method: 'GET', url: '/api/admin/insights/disputes' },
      scenario: get(`/api/admin/insights/disputes?month=${isoMonth(today)}`),
    },
    {
      key: 'finance-month',
      label: 'finance report, one month by day',
      kind: 'sixthRound',
      route: { method: 'GET', url: '/api/admin/reports/finance' },
      scenario: get(`/api/admin/reports/finance?from=${monthStart}&to=${isoDay(today)}&group=day`),
    },
    {
      key: 'finance-year',
      label: 'finance report, one year by month',
      kind: 'sixthRound',
      route: { method: 'GET', url: '/api/admin/reports/finance' },
      scenario: get(`/api/admin/reports/finance?from=${isoDay(yearAgo)}&to=${isoDay(today)}&group=month`),
    },
  ];
}

/** The targets of these rows (PostgreSQL, 1,000,000 orders), p50 in ms, as each feature set them. */
export const SIXTH_ROUND_LIMITS: Record<string, number> = {
  'submission-packet': 5,
  'submission-job-claim': 10,
  'card-check-read': 300,
  'mrz-read': 2000,
  'disputes-month': 50,
  'finance-month': 150,
  'finance-year': 500,
};
