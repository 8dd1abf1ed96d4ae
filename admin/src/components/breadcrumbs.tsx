import { Fragment, type ComponentChildren } from 'preact';
import { Link } from './link';

/**
 * The trail above a page: links up to where it belongs, then the page itself (`aria-current`)
 * when it is named; a form's trail ends with the link back to what it edits.
 */
export function Breadcrumbs({ trail, current }: { trail: { href: string; label: ComponentChildren }[]; current?: ComponentChildren }) {
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      {trail.map((crumb, index) => (
        <Fragment key={index}>
          {index > 0 && <span aria-hidden="true"> / </span>}
          <Link href={crumb.href}>{crumb.label}</Link>
        </Fragment>
      ))}
      {current !== undefined && (
        <>
          <span aria-hidden="true"> / </span>
          <span aria-current="page">{current}</span>
        </>
      )}
    </nav>
  );
}
