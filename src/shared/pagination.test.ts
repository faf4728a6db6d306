import { describe, expect, it } from 'vitest';
import { paginationSlots, totalPages } from './pagination.js';

describe('pagination slots (up to 7 slots, one sibling each side)', () => {
  it('lists every page when there are 7 or fewer', () => {
    expect(paginationSlots(1, 1)).toEqual([1]);
    expect(paginationSlots(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(paginationSlots(1, 0)).toEqual([]);
  });
  it('puts an ellipsis at the end near the start', () => {
    expect(paginationSlots(1, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 20]);
    expect(paginationSlots(4, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 20]);
  });
  it('puts ellipses on both sides in the middle', () => {
    expect(paginationSlots(10, 20)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
  });
  it('puts an ellipsis at the start near the end', () => {
    expect(paginationSlots(20, 20)).toEqual([1, 'ellipsis-start', 16, 17, 18, 19, 20]);
    expect(paginationSlots(17, 20)).toEqual([1, 'ellipsis-start', 16, 17, 18, 19, 20]);
  });
  it('never shows more than 7 slots and always includes the current page', () => {
    for (let total = 1; total <= 40; total++) {
      for (let page = 1; page <= total; page++) {
        const slots = paginationSlots(page, total);
        expect(slots.length).toBeLessThanOrEqual(7);
        expect(slots).toContain(page);
        expect(slots[0]).toBe(1);
        expect(slots.at(-1)).toBe(total);
      }
    }
  });
  it('counts pages', () => {
    expect(totalPages(0, 10)).toBe(0);
    expect(totalPages(101, 10)).toBe(11);
  });
});
