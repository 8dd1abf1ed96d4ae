import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import type { AsyncState } from '../hooks/use-async';
import { describeError } from '../lib/errors';
import { Link } from './link';
import { Notice } from './notice';

export function Loading({ label }: { label: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ComponentChildren; action?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-text">{children}</div>}
      {action && <div class="empty-action">{action}</div>}
    </div>
  );
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return describeError(error);
  return error instanceof Error ? error.message : String(error);
}

/** True when the API answered `status` (403: the key lacks the scope; 404: no such thing). */
export const answered = (error: unknown, status: number): boolean => error instanceof ApiError && error.status === status;

/** A failed load, with a way to try again. */
export function LoadError({ error, what, onRetry }: { error: unknown; what: string; onRetry?: () => void }) {
  return (
    <Notice tone="danger" title={`Could not load ${what}.`}>
      <p>{errorText(error)}</p>
      {onRetry && (
        <button type="button" class="btn btn-secondary btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </Notice>
  );
}

/** What a page's data is while it loads: read only, so a state of `T` serves where `T | undefined` is expected. */
export type Loadable<T> = Pick<AsyncState<T>, 'data' | 'error' | 'loading' | 'reload'>;

/** A detail page's 404: what was not found, why that may be, and the way back to its list. */
export function NotFound({
  title,
  back,
  children,
}: {
  title: string;
  back: { href: string; label: string };
  children?: ComponentChildren;
}) {
  return (
    <EmptyState
      title={title}
      action={
        <Link href={back.href} class="btn btn-secondary">
          {back.label}
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}

/**
 * What a page shows while its data is not there: loading, `notFound` when the API answered 404
 * (where the page has such a state), or the error with a way to try again. `what`: "the order".
 */
export function Unloaded({ state, what, notFound }: { state: Loadable<unknown>; what: string; notFound?: ComponentChildren }) {
  if (state.loading) return <Loading label={`Loading ${what}…`} />;
  if (notFound !== undefined && answered(state.error, 404)) return <>{notFound}</>;
  return <LoadError error={state.error} what={what} onRetry={() => void state.reload()} />;
}

/**
 * A list's body: loading, the error (`failure` where the page words it itself), `empty` when the
 * list has no items, or the items (`children`). `what`: the plural, "orders".
 */
export function ListState<P extends { items: readonly unknown[] }>({
  state,
  what,
  empty,
  failure,
  children,
}: {
  state: Loadable<P | undefined>;
  what: string;
  empty: ComponentChildren;
  failure?: ComponentChildren;
  children: (page: P) => ComponentChildren;
}) {
  if (!state.data) {
    if (state.loading) return <Loading label={`Loading ${what}…`} />;
    return <>{failure ?? <LoadError error={state.error} what={`the ${what}`} onRetry={() => void state.reload()} />}</>;
  }
  return <>{state.data.items.length === 0 ? empty : children(state.data)}</>;
}
