import type { CountedPagination } from '../api/types';
import { plural } from '../lib/format';
import { Link } from './link';

/**
 * "Page 2 of 5 · 97 deliveries" with Previous / Next links (real URLs: back and reload work). A
 * capped total (the API counts a long history only up to 1,000) reads "1,000+ deliveries", and
 * Next stays while the API says more follow.
 */
export function Pager({
  pagination,
  noun,
  hrefFor,
}: {
  pagination: CountedPagination;
  noun: [string, string];
  hrefFor: (page: number) => string;
}) {
  const { page, total_pages: pages, total } = pagination;
  const capped = pagination.total_capped === true;
  const count = capped ? `${total.toLocaleString('en-GB')}+ ${noun[1]}` : plural(total, noun[0], noun[1]);
  const summary = `${count}${pages > 1 ? ` · page ${page} of ${capped ? `${pages}+` : pages}` : ''}`;
  const hasNext = page < pages || (capped && pagination.has_more === true);
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
          {hasNext ? (
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
