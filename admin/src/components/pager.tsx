import type { Pagination } from '../api/types';
import { plural } from '../lib/format';
import { Link } from './link';

/** "Page 2 of 5 · 97 deliveries" with Previous / Next links (real URLs: back and reload work). */
export function Pager({
  pagination,
  noun,
  hrefFor,
}: {
  pagination: Pagination;
  noun: [string, string];
  hrefFor: (page: number) => string;
}) {
  const { page, total_pages: pages, total } = pagination;
  const summary = `${plural(total, noun[0], noun[1])}${pages > 1 ? ` · page ${page} of ${pages}` : ''}`;
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-summary">{summary}</span>
      {pages > 1 && (
        <span class="pager-links">
          {page > 1 ? (
            <Link class="btn btn-secondary btn-small" href={hrefFor(page - 1)} rel="prev">
              ← Previous
            </Link>
          ) : (
            <span class="btn btn-secondary btn-small" aria-disabled="true">
              ← Previous
            </span>
          )}
          {page < pages ? (
            <Link class="btn btn-secondary btn-small" href={hrefFor(page + 1)} rel="next">
              Next →
            </Link>
          ) : (
            <span class="btn btn-secondary btn-small" aria-disabled="true">
              Next →
            </span>
          )}
        </span>
      )}
    </nav>
  );
}
