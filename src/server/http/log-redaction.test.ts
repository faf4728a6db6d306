import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

/** The request log keeps where a request went, never what was searched for or whose address it named. */
describe('redactUrl', () => {
  it('redacts search terms and personal parameters, whatever their case or encoding', () => {
    expect(redactUrl('/api/admin/export-orders/allOrder?search=Zebedee&sort=due')).toBe(
      '/api/admin/export-orders/allOrder?search=[REDACTED]&sort=due',
    );
    expect(redactUrl('/api/x?searchVal=Maria%20Lopez&Email=a%40b.example&q=1&phone=555&page=2')).toBe(
      '/api/x?searchVal=[REDACTED]&Email=[REDACTED]&q=[REDACTED]&phone=[REDACTED]&page=2',
    );
    expect(redactUrl('/api/x?s%65arch=hidden')).toBe('/api/x?s%65arch=[REDACTED]');
  });

  it('redacts an e-mail address anywhere: another parameter, a bare value, the path', () => {
    expect(redactUrl('/api/x?note=quirinus.zebedee%40example.com&folder=allOrder')).toBe(
      '/api/x?note=[REDACTED]&folder=allOrder',
    );
    expect(redactUrl('/api/x?maria@example.com')).toBe('/api/x?[REDACTED]');
    expect(redactUrl('/api/customers/maria.lopez@example.com/orders')).toBe(
      '/api/customers/[REDACTED]/orders',
    );
  });

  it('keeps what is no personal data, and still redacts secrets and tokens', () => {
    expect(redactUrl('/api/admin/get-orders-list/allOrder?page=2&limit=50&nationality=USA')).toBe(
      '/api/admin/get-orders-list/allOrder?page=2&limit=50&nationality=USA',
    );
    expect(redactUrl('/api/front/download?token=abc.def.ghi')).toBe('/api/front/download?token=[REDACTED]');
  });
});
