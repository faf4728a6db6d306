import { PAGE_SIZES } from '../../shared/constants';
import { paginationSlots, totalPages } from '../../shared/pagination';

export type PageSize = number | 'All';

interface Props {
  page: number;
  pageSize: PageSize;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
  /** Hide the "All" option (e.g. where a folder is too big to show at once). */
  allowAll?: boolean;
}

/** Page sizes 10/25/50/100/500/All and up to 7 page slots with ellipses (docs/product.md). */
export function PaginationBar({ page, pageSize, total, onPage, onPageSize, allowAll = true }: Props) {
  const size = pageSize === 'All' ? Math.max(total, 1) : pageSize;
  const pages = totalPages(total, size);
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 py-2">
      <div className="d-flex align-items-center gap-2">
        <label htmlFor="page-size" className="small text-muted mb-0">
          Show
        </label>
        <select
          id="page-size"
          className="form-select form-select-sm w-auto"
          value={String(pageSize)}
          onChange={(e) => onPageSize(e.target.value === 'All' ? 'All' : Number(e.target.value))}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          {allowAll ? <option value="All">All</option> : null}
        </select>
        <span className="small text-muted">
          {first}–{last} of {total}
        </span>
      </div>
      {pages > 1 ? (
        <nav aria-label="Pages">
          <ul className="pagination pagination-sm mb-0">
            <li className={`page-item ${page <= 1 ? 'disabled' : ''}`}>
              <button
                type="button"
                className="page-link"
                onClick={() => onPage(page - 1)}
                aria-label="Previous page"
              >
                ‹
              </button>
            </li>
            {paginationSlots(page, pages).map((slot) =>
              typeof slot === 'number' ? (
                <li key={slot} className={`page-item ${slot === page ? 'active' : ''}`}>
                  <button
                    type="button"
                    className="page-link"
                    onClick={() => onPage(slot)}
                    aria-current={slot === page ? 'page' : undefined}
                  >
                    {slot}
                  </button>
                </li>
              ) : (
                <li key={slot} className="page-item disabled">
                  <span className="page-link">…</span>
                </li>
              ),
            )}
            <li className={`page-item ${page >= pages ? 'disabled' : ''}`}>
              <button
                type="button"
                className="page-link"
                onClick={() => onPage(page + 1)}
                aria-label="Next page"
              >
                ›
              </button>
            </li>
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
