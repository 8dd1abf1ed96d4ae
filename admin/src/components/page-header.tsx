import type { ComponentChildren } from 'preact';

/** The top of a list or board: its heading (the page's h1), what it shows, and the page's main action. */
export function PageHeader({ title, lead, actions }: { title: string; lead: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <div class="page-header">
      <div>
        <h1 class="page-title" tabIndex={-1}>
          {title}
        </h1>
        <p class="page-lead">{lead}</p>
      </div>
      {actions}
    </div>
  );
}
