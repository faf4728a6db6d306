import { describe, expect, it } from 'vitest';
import type { OrderListRow } from '../../shared/contracts/orders';
import { cellText } from './columns';

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
