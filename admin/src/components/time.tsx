import { formatDateTime, formatRelative } from '../lib/format';

/** A relative time ("5 min ago") with the exact time as its tooltip and machine-readable value. */
export function RelativeTime({ iso, now }: { iso: string | null | undefined; now: number }) {
  if (!iso) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso, now)}
    </time>
  );
}

export function DateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}
