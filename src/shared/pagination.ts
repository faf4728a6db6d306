export type PageSlot = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Pagination slots (docs/product.md): at most 7 slots, first and last page always shown, one sibling each side
 * of the current page, ellipses where pages are skipped.
 */
export function paginationSlots(current: number, totalPages: number): PageSlot[] {
  if (totalPages <= 0) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  if (totalPages <= 7) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const left = Math.max(page - 1, 2);
  const right = Math.min(page + 1, totalPages - 1);
  const showLeftDots = left > 3;
  const showRightDots = right < totalPages - 2;
  if (!showLeftDots && showRightDots) return [1, 2, 3, 4, 5, 'ellipsis-end', totalPages];
  if (showLeftDots && !showRightDots) {
    return [1, 'ellipsis-start', ...Array.from({ length: 5 }, (_, i) => totalPages - 4 + i)];
  }
  return [1, 'ellipsis-start', left, page, right, 'ellipsis-end', totalPages];
}

export function totalPages(total: number, pageSize: number): number {
  return pageSize > 0 ? Math.ceil(total / pageSize) : 0;
}
