import { describe, expect, it } from 'vitest';
import type { OrderListRow } from '../../shared/contracts/orders';
import { cellText, dueText } from './columns';

const row = {
  order_id: 7,
  process_status: 'New',
  first_name: 'Jane',
  last_name: 'Doe',
  arrival_date: '2026-03-07',
  email: 'jane@example.com',
  telephone_number: null,
  phone_code: null,
  created_at: '2026-11-18T20:16:05.000Z',
  refund_date: null,
  processing_date: '2026-03-01',
  process_month: 'Mar',
  assign_to: '',
} as unknown as OrderListRow;

describe('list cells', () => {
  it('keep the fixed UTC date-time format of the lists and label the zone', () => {
    expect(cellText(row, 'datetime')).toBe('18/11/2026 20:16:05 UTC');
    expect(cellText({ ...row, created_at: '' }, 'datetime')).toBe('');
    expect(cellText(row, 'arrival')).toBe('07/03/2026');
  });
});

describe('due text', () => {
  const now = Date.parse('2031-01-12T00:00:00Z');
  it('says how long is left or how late, in minutes, hours or days', () => {
    expect(dueText('2031-01-12T05:00:00Z', now)).toBe('in 5 h');
    expect(dueText('2031-01-11T22:00:00Z', now)).toBe('2 h late');
    expect(dueText('2031-01-12T00:40:00Z', now)).toBe('in 40 min');
    expect(dueText('2031-01-15T00:00:00Z', now)).toBe('in 3 d');
    expect(dueText('2031-01-12T00:00:00Z', now)).toBe('1 min late');
    expect(dueText(null, now)).toBe('');
  });
});
