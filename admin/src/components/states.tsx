import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import { describeError } from '../lib/errors';
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
