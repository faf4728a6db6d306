import { describe, expect, it } from 'vitest';
import { decodeOrderId, encodeOrderId } from './order-id.js';

describe('order-id codec', () => {
  it('encodes the doubled id as base64 without padding', () => {
    expect(encodeOrderId(100001)).toBe(Buffer.from('200002').toString('base64').replace(/=+$/, ''));
    expect(encodeOrderId(100001)).toBe('MjAwMDAy');
    expect(encodeOrderId('123456')).toBe('MjQ2OTEy');
  });
  it('decodes back to the id for many ids', () => {
    for (const id of [100001, 100002, 123456, 999999, 1234567, 98765432]) {
      expect(decodeOrderId(encodeOrderId(id))).toBe(id);
    }
  });
  it('rejects text that is not an encoded id', () => {
    expect(decodeOrderId('')).toBeNull();
    expect(decodeOrderId('not base64!')).toBeNull();
    expect(decodeOrderId(Buffer.from('200003').toString('base64'))).toBeNull(); // odd: not doubled
    expect(decodeOrderId(Buffer.from('abc').toString('base64'))).toBeNull();
    expect(decodeOrderId('A')).toBeNull();
  });
});
