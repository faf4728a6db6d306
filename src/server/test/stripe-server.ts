import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * A local HTTP server that speaks Stripe's documented request and response shapes for the calls the
 * product makes (refunds, dispute-evidence files, dispute updates): form-encoded requests with bracketed
 * keys, JSON objects back, Stripe's error objects, and stored answers per Idempotency-Key. It records
 * everything it was sent, so tests check what left the product. Nothing leaves the machine.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The form fields, nested as Stripe reads them (`metadata[order_id]` → metadata.order_id). */
  form: Record<string, unknown>;
  /** The uploaded file of a files request. */
  file?: { name: string; type: string; bytes: Buffer; purpose: string } | undefined;
}

/** What the next refund requests do (consumed in order; when empty, they succeed). */
export type RefundBehaviour =
  | { kind: 'ok'; status?: 'succeeded' | 'pending' }
  | { kind: 'card_declined' }
  | { kind: 'already_refunded' }
  | { kind: 'timeout'; ms: number }
  | { kind: 'server_error' }
  /** Stripe creates the refund but the answer is lost (a 500 after the refund exists). */
  | { kind: 'server_error_after' };

/** A payment the double knows (GET /v1/charges/:id, /v1/payment_intents/:id). */
export interface DoublePayment {
  amount: number;
  currency?: string;
  metadata?: Record<string, string>;
  customer?: string | null;
  /** The charge's billing e-mail (receipt_email). */
  email?: string | null;
}

export interface StripeDouble {
  url: string;
  requests: RecordedRequest[];
  refundBehaviours: RefundBehaviour[];
  /** Disputes the server knows (status changes with evidence submitted). */
  disputes: Map<string, { status: string; evidence: Record<string, unknown> }>;
  files: Map<string, { name: string; type: string; bytes: Buffer; purpose: string }>;
  /** Payments the double knows by charge or payment intent id; any other answers 404. */
  payments: Map<string, DoublePayment>;
  /** Refunds created (listed by GET /v1/refunds once the request creating them has finished). */
  refunds: Record<string, unknown>[];
  /** Every refund request takes this long before it is carried out (a slow provider). */
  slow: { ms: number };
  /** Payouts, newest first (GET /v1/payouts), and the balance transactions of each (by payout id). */
  payouts: Record<string, unknown>[];
  balanceTransactions: Map<string, Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** `a[b][c]=v` pairs into nested objects. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function stripeError(status: number, error: Record<string, unknown>) {
  return { status, body: { error: { request_log_url: 'https://dashboard.invalid/logs/req', ...error } } };
}

/**
 * `port`: a fixed port (0: any). `control`: the end-to-end run also gets `/__double/…` routes to register a
 * dispute, a payment or a payout and read what was sent, since it drives the double from another process.
 */
export async function startStripeDouble(
  opts: { port?: number; control?: boolean } = {},
): Promise<StripeDouble> {
  const app: FastifyInstance = Fastify({ logger: false });
  const requests: RecordedRequest[] = [];
  const refundBehaviours: RefundBehaviour[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const disputes = new Map<string, { status: string; evidence: Record<string, unknown> }>();
  const files = new Map<string, { name: string; type: string; bytes: Buffer; purpose: string }>();
  const payments = new Map<string, DoublePayment>();
  const refunds: Record<string, unknown>[] = [];
  const slow = { ms: 0 };
  const payouts: Record<string, unknown>[] = [];
  const balanceTransactions = new Map<string, Record<string, unknown>[]>();
  /** Idempotency keys whose first request is still being carried out (Stripe answers 409 meanwhile). */
  const inProgress = new Set<string>();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseStripeForm(body as string)),
  );
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024 } });

  const authorised = (auth: string | undefined) => !!auth && /^Bearer sk_test_/.test(auth);
  const unauthorised = stripeError(401, {
    type: 'invalid_request_error',
    message: 'Invalid API Key provided.',
  });

  app.post('/v1/refunds', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    requests.push({ method: 'POST', path: '/v1/refunds', headers: request.headers, form });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    const key = request.headers['idempotency-key'];
    const stored = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (stored) {
      return reply.code(stored.status).header('idempotent-replayed', 'true').send(stored.body);
    }
    if (typeof key === 'string' && inProgress.has(key)) {
      // Stripe's documented answer to a second request while the first with the same key is running.
      return reply.code(409).send(
        stripeError(409, {
          type: 'idempotency_error',
          message:
            'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' +
            key +
            '. Please try again later.',
        }).body,
      );
    }
    if (typeof key === 'string') inProgress.add(key);
    try {
      return await carryOut(form, key, reply);
    } finally {
      if (typeof key === 'string') inProgress.delete(key);
    }
  });

  async function carryOut(
    form: Record<string, unknown>,
    key: string | string[] | undefined,
    reply: import('fastify').FastifyReply,
  ) {
    const behaviour = refundBehaviours.shift() ?? { kind: 'ok' };
    if (slow.ms) await new Promise((r) => setTimeout(r, slow.ms));
    if (behaviour.kind === 'timeout') {
      await new Promise((r) => setTimeout(r, behaviour.ms));
      // The request was still carried out: a retry with the same key gets this same refund.
    }
    if (behaviour.kind === 'server_error') {
      return reply
        .code(500)
        .send(stripeError(500, { type: 'api_error', message: 'An unknown error occurred' }).body);
    }
    const answer =
      behaviour.kind === 'card_declined'
        ? stripeError(402, {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
          })
        : behaviour.kind === 'already_refunded'
          ? stripeError(400, {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge ${String(form.charge ?? '')} has already been refunded.`,
            })
          : {
              status: 200,
              body: {
                id: stripeId('re'),
                object: 'refund',
                amount: Number(form.amount),
                balance_transaction: stripeId('txn'),
                charge: form.charge ?? stripeId('ch'),
                created: Math.floor(Date.now() / 1000),
                currency: 'usd',
                metadata: form.metadata ?? {},
                payment_intent: form.payment_intent ?? null,
                reason: form.reason ?? null,
                receipt_number: null,
                status: behaviour.kind === 'ok' ? (behaviour.status ?? 'succeeded') : 'succeeded',
              },
            };
    if (answer.status === 200) refunds.unshift(answer.body as Record<string, unknown>);
    if (behaviour.kind === 'server_error_after') {
      const lost = stripeError(500, { type: 'api_error', message: 'An unknown error occurred' });
      return reply.code(500).send(lost.body);
    }
    if (typeof key === 'string') idempotent.set(key, answer);
    return reply.code(answer.status).send(answer.body);
  }

  app.get<{ Querystring: Record<string, string> }>('/v1/refunds', async (request, reply) => {
    requests.push({ method: 'GET', path: '/v1/refunds', headers: request.headers, form: request.query });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    const { charge, payment_intent: intent } = request.query;
    const data = refunds.filter(
      (r) => (charge && r.charge === charge) || (intent && r.payment_intent === intent),
    );
    return { object: 'list', data: data.slice(0, 100), has_more: false, url: '/v1/refunds' };
  });

  /** One page of a Stripe list: `limit` (1–100, default 10) after the `starting_after` id. */
  const page = (all: Record<string, unknown>[], query: Record<string, string>, url: string) => {
    const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10) || 10));
    let start = 0;
    if (query.starting_after) {
      const at = all.findIndex((o) => o.id === query.starting_after);
      if (at < 0) return null;
      start = at + 1;
    }
    const data = all.slice(start, start + limit);
    return { object: 'list', data, has_more: start + limit < all.length, url };
  };
  const missing = (message: string) =>
    stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message }).body;

  app.get<{ Querystring: Record<string, string> }>('/v1/payouts', async (request, reply) => {
    requests.push({ method: 'GET', path: '/v1/payouts', headers: request.headers, form: request.query });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    return (
      page(payouts, request.query, '/v1/payouts') ??
      reply.code(404).send(missing(`No such payout: '${request.query.starting_after}'`))
    );
  });

  app.get<{ Querystring: Record<string, string> }>('/v1/balance_transactions', async (request, reply) => {
    requests.push({
      method: 'GET',
      path: '/v1/balance_transactions',
      headers: request.headers,
      form: request.query,
    });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    const payout = request.query.payout ?? '';
    const all = balanceTransactions.get(payout);
    if (!all) return reply.code(404).send(missing(`No such payout: '${payout}'`));
    const list = page(all, request.query, '/v1/balance_transactions');
    if (!list) {
      return reply.code(404).send(missing(`No such balance transaction: '${request.query.starting_after}'`));
    }
    // The source is an id unless the request expands it (`expand[]=data.source`).
    const expand = Object.entries(request.query).some(
      ([k, v]) => k.startsWith('expand') && v === 'data.source',
    );
    const idOf = (source: unknown) =>
      source && typeof source === 'object' ? (source as { id: string }).id : (source ?? null);
    return expand ? list : { ...list, data: list.data.map((t) => ({ ...t, source: idOf(t.source) })) };
  });

  const paymentObject =
    (kind: 'charge' | 'payment_intent') =>
    async (
      request: import('fastify').FastifyRequest<{ Params: { id: string } }>,
      reply: import('fastify').FastifyReply,
    ) => {
      const path = `/v1/${kind === 'charge' ? 'charges' : 'payment_intents'}/${request.params.id}`;
      requests.push({ method: 'GET', path, headers: request.headers, form: {} });
      if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
      const p = payments.get(request.params.id);
      if (!p) {
        return reply.code(404).send(
          stripeError(404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such ${kind}: '${request.params.id}'`,
          }).body,
        );
      }
      return {
        id: request.params.id,
        object: kind,
        amount: p.amount,
        currency: p.currency ?? 'usd',
        customer: p.customer ?? null,
        metadata: p.metadata ?? {},
        receipt_email: p.email ?? null,
        billing_details: { email: p.email ?? null },
      };
    };
  app.get('/v1/charges/:id', paymentObject('charge'));
  app.get('/v1/payment_intents/:id', paymentObject('payment_intent'));

  app.post('/v1/files', async (request, reply) => {
    const fields: Record<string, string> = {};
    let file: RecordedRequest['file'];
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        file = { name: part.filename, type: part.mimetype, bytes: await part.toBuffer(), purpose: '' };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    if (file) file.purpose = fields.purpose ?? '';
    requests.push({ method: 'POST', path: '/v1/files', headers: request.headers, form: fields, file });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    if (!file || fields.purpose !== 'dispute_evidence') {
      return reply
        .code(400)
        .send(
          stripeError(400, { type: 'invalid_request_error', message: 'Missing required param: file.' }).body,
        );
    }
    const id = stripeId('file');
    files.set(id, file);
    return {
      id,
      object: 'file',
      created: Math.floor(Date.now() / 1000),
      filename: file.name,
      purpose: 'dispute_evidence',
      size: file.bytes.length,
      type: file.type === 'application/pdf' ? 'pdf' : file.type.split('/')[1],
    };
  });

  app.post<{ Params: { id: string } }>('/v1/disputes/:id', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    requests.push({
      method: 'POST',
      path: `/v1/disputes/${request.params.id}`,
      headers: request.headers,
      form,
    });
    if (!authorised(request.headers.authorization)) return reply.code(401).send(unauthorised.body);
    const dispute = disputes.get(request.params.id);
    if (!dispute) {
      return reply.code(404).send(
        stripeError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such dispute: '${request.params.id}'`,
        }).body,
      );
    }
    dispute.evidence = { ...dispute.evidence, ...((form.evidence as object) ?? {}) };
    if (form.submit === 'true') dispute.status = 'under_review';
    return { id: request.params.id, object: 'dispute', status: dispute.status, evidence: dispute.evidence };
  });

  if (opts.control) {
    app.post<{ Body: { id: string } }>('/__double/disputes', async (request) => {
      disputes.set(request.body.id, { status: 'needs_response', evidence: {} });
      return { ok: true };
    });
    app.post<{ Body: { id: string } & DoublePayment }>('/__double/payments', async (request) => {
      const { id, ...payment } = request.body;
      payments.set(id, payment);
      return { ok: true };
    });
    // A payout (newest first) and its balance transactions, as the finance walk-through reads them.
    app.post<{
      Body: { payout: Record<string, unknown> & { id: string }; transactions: Record<string, unknown>[] };
    }>('/__double/payouts', async (request) => {
      payouts.unshift(request.body.payout);
      balanceTransactions.set(request.body.payout.id, request.body.transactions);
      return { ok: true };
    });
    app.get('/__double/requests', async () =>
      requests.map((r) => ({
        method: r.method,
        path: r.path,
        form: r.form,
        file: r.file
          ? {
              name: r.file.name,
              type: r.file.type,
              purpose: r.file.purpose,
              base64: r.file.bytes.toString('base64'),
            }
          : null,
      })),
    );
  }
  const url = await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  return {
    url,
    requests,
    refundBehaviours,
    disputes,
    files,
    payments,
    refunds,
    slow,
    payouts,
    balanceTransactions,
    close: () => app.close(),
  };
}
