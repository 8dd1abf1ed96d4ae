import type { ComponentChildren } from 'preact';

/** A section of a page: a card with its heading (`<id>-title`, which labels it), actions beside the heading, then its content. */
export function Card({
  id,
  title,
  actions,
  class: extra,
  children,
}: {
  id: string;
  title: ComponentChildren;
  actions?: ComponentChildren;
  class?: string;
  children?: ComponentChildren;
}) {
  return (
    <section class={extra ? `card ${extra}` : 'card'} aria-labelledby={`${id}-title`}>
      <div class="card-header">
        <h2 id={`${id}-title`} class="card-title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * The card at the top of a detail page: its heading (the page's h1, `<id>-title`) with its status
 * badge, the line under it, then the facts and actions (`children`). `lead` is the line under the
 * heading: null when this one has none today (a webhook without a description); an overview that
 * never has one leaves it out.
 */
export function Overview({
  id,
  title,
  titleClass,
  badge,
  lead,
  children,
}: {
  id: string;
  title: ComponentChildren;
  /** Besides `page-title`: `mono` for numbers, `url-title` for URLs. */
  titleClass?: string;
  badge: ComponentChildren;
  lead?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const heading = (
    <div class="overview-title">
      <h1 id={`${id}-title`} class={titleClass ? `page-title ${titleClass}` : 'page-title'} tabIndex={-1}>
        {title}
      </h1>
      {badge}
    </div>
  );
  return (
    <section class="card overview" aria-labelledby={`${id}-title`}>
      {lead === undefined ? (
        heading
      ) : (
        <div class="overview-head">
          {heading}
          {lead && <p class="page-lead">{lead}</p>}
        </div>
      )}
      {children}
    </section>
  );
}
