import type { Mode } from '../api/types';
import { statusCodeView, type StatusView } from '../lib/delivery-status';

export function StatusBadge({ view, large = false }: { view: StatusView; large?: boolean }) {
  return (
    <span class={`badge tone-${view.tone}${large ? ' badge-large' : ''}`} title={view.description} data-status={view.key}>
      <span class="badge-symbol" aria-hidden="true">
        {view.symbol}
      </span>
      {view.label}
    </span>
  );
}

export function StatusCode({ code }: { code: number | null }) {
  const view = statusCodeView(code);
  return <span class={`code tone-${view.tone}`}>{view.text}</span>;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return active ? (
    <span class="badge tone-success">
      <span class="badge-symbol" aria-hidden="true">
        ●
      </span>
      Active
    </span>
  ) : (
    <span class="badge tone-neutral">
      <span class="badge-symbol" aria-hidden="true">
        ○
      </span>
      Disabled
    </span>
  );
}

/** Test keys see test data only; the badge makes that impossible to miss. */
export function ModeBadge({ mode }: { mode: Mode }) {
  return mode === 'test' ? (
    <span class="mode-badge mode-test" title="Test mode: test data and test webhooks only">
      TEST
    </span>
  ) : (
    <span class="mode-badge mode-live" title="Live mode: real data">
      LIVE
    </span>
  );
}

export function TestTag() {
  return (
    <span class="tag" title='Sent with “Send test event”; the payload carries "test": true'>
      test
    </span>
  );
}
