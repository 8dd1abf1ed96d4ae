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
  const { page, total_pages: pages } = pagination;
  const capped = pagination.total_capped === true;
  const summary = `${count(pagination, noun)}${pages > 1 ? ` · page ${page} of ${capped ? `${pages}+` : pages}` : ''}`;
  const hasNext = page < pages || (capped && pagination.has_more === true);
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-summary">{summary}</span>
      {pages > 1 && (
        <span class="pager-links">
          <PageLink href={page > 1 ? hrefFor(page - 1) : undefined} rel="prev">
            ← Previous
          </PageLink>
          <PageLink href={hasNext ? hrefFor(page + 1) : undefined} rel="next">
            Next →
          </PageLink>
        </span>
      )}
    </nav>
  );
}

/**
 * Cursor paging (the API's `starting_after`): back to the first page (`firstHref`, when not on
 * it), and the next one while `has_more` — its address made from the page's `next_cursor`.
 */
export function CursorPager({
  pagination,
  noun,
  firstHref,
  nextHref,
}: {
  pagination: CountedPagination;
  noun: [string, string];
  firstHref?: string;
  nextHref: (cursor: string) => string;
}) {
  const nextCursor = pagination.has_more ? (pagination.next_cursor ?? undefined) : undefined;
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-summary">{count(pagination, noun)}</span>
      {(firstHref || nextCursor !== undefined) && (
        <span class="pager-links">
          <PageLink href={firstHref}>← Newest</PageLink>
          <PageLink href={nextCursor === undefined ? undefined : nextHref(nextCursor)} rel="next">
            Older →
          </PageLink>
        </span>
      )}
    </nav>
  );
}

/** "97 deliveries", or "1,000+ deliveries" when the API counted up to its cap. */
const count = ({ total, total_capped: capped }: CountedPagination, noun: [string, string]): string =>
  capped === true ? `${total.toLocaleString('en-GB')}+ ${noun[1]}` : plural(total, noun[0], noun[1]);

/** A link to another page of the list, or the same words marked disabled where there is none. */
function PageLink({ href, rel, children }: { href: string | undefined; rel?: string; children: string }) {
  return href ? (
    <Link class="btn btn-secondary btn-small" href={href} rel={rel}>
      {children}
    </Link>
  ) : (
    <span class="btn btn-secondary btn-small" aria-disabled="true">
      {children}
    </span>
  );
}
