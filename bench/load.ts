import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { summarize } from './sql-capture.js';

/** One HTTP call to drive; `vary` changes headers/body per request (rotating client IPs, orders). */
export interface Scenario {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * Sent as it is (a raw mail, a signed webhook payload, a multipart upload's bytes), not as JSON; give
   * the content-type header.
   */
  rawBody?: string | Buffer;
  vary?: (i: number) => {
    headers?: Record<string, string>;
    body?: unknown;
    rawBody?: string | Buffer;
    /** Another path for this request (a customer's own order). */
    path?: string;
  };
}

/** The body of a request as sent: raw text as it is, anything else as JSON. */
export function bodyText(s: {
  body?: unknown;
  rawBody?: string | Buffer | undefined;
}): string | Buffer | undefined {
  if (s.rawBody !== undefined) return s.rawBody;
  return s.body === undefined ? undefined : JSON.stringify(s.body);
}

export interface LoadResult {
  connections: number;
  /** Requests per second asked for (fixed-rate run), or null for an open-throttle run. */
  rate: number | null;
  durationS: number;
  ok: number;
  errors: number;
  statusCounts: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Successful responses per second. */
  perSecond: number;
}

let sequence = 0;

/**
 * Drives one scenario with autocannon over loopback (no pipelining). Latencies are taken from every
 * 2xx response (exact values, not histogram buckets); anything else counts as an error.
 */
export async function runLoad(
  port: number,
  scenario: Scenario,
  opts: {
    connections: number;
    durationS: number;
    rate?: number | undefined;
    /** Stops once this many responses came back (a row whose data runs out, as a queue being claimed). */
    maxRequests?: number | undefined;
  },
): Promise<LoadResult> {
  const headers = { 'content-type': 'application/json', ...scenario.headers };
  const vary = scenario.vary;
  const request: autocannon.Request = {
    method: scenario.method,
    path: scenario.path,
    headers,
    ...(bodyText(scenario) === undefined ? {} : { body: bodyText(scenario) }),
    ...(vary
      ? {
          setupRequest: (req: autocannon.Request) => {
            const v = vary(sequence++);
            return {
              ...req,
              headers: { ...req.headers, ...v.headers },
              ...(v.path ? { path: v.path } : {}),
              ...(bodyText(v) === undefined ? {} : { body: bodyText(v) }),
            };
          },
        }
      : {}),
  };
  const connections = opts.rate
    ? Math.max(1, Math.min(opts.connections, Math.floor(opts.rate)))
    : opts.connections;
  const times: number[] = [];
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  let finished: (err: Error | null) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finished = (err) => (err ? reject(err) : resolve());
  });
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${port}`,
      connections,
      pipelining: 1,
      duration: opts.durationS,
      timeout: 30,
      requests: [request],
      ...(opts.rate ? { overallRate: opts.rate } : {}),
    },
    (err) => finished(err ?? null),
  );
  let responses = 0;
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    responses++;
    if (opts.maxRequests !== undefined && responses === opts.maxRequests) instance.stop();
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    else errors++;
  });
  instance.on('reqError', () => {
    errors++;
  });
  await done;
  const elapsed = (performance.now() - started) / 1000;
  const s = summarize(times);
  return {
    connections,
    rate: opts.rate ?? null,
    durationS: Math.round(elapsed * 100) / 100,
    ok: times.length,
    errors,
    statusCounts,
    ...s,
    perSecond: times.length / elapsed,
  };
}
