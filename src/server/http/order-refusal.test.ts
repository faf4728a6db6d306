import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OrderRefusal, type RefusalKind } from '../orders/refusal.js';
import { registerErrorHandler } from './error-handler.js';
import { HttpError, httpErrorOf } from './errors.js';

describe('an order refusal answers its status in one place', () => {
  it.each([
    ['conflict', 409],
    ['forbidden', 403],
    ['not_found', 404],
    ['invalid', 400],
  ] as [RefusalKind, number][])('%s answers %i with the message and the data', async (kind, status) => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/x', async () => {
      throw new OrderRefusal(kind, 'Refused.', { orders: [{ orderId: 7 }] });
    });
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ status: 0, message: 'Refused.', data: { orders: [{ orderId: 7 }] } });
    await app.close();
  });

  it('keeps an HttpError as it is and knows nothing else', () => {
    const err = new HttpError(429, 'Slow down');
    expect(httpErrorOf(err)).toBe(err);
    expect(httpErrorOf(new Error('boom'))).toBeNull();
    expect(httpErrorOf(new OrderRefusal('conflict', 'No'))?.statusCode).toBe(409);
  });
});
