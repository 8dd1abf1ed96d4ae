/** Formatting for the panel's tables; pure, with `now`, locale and time zone passed in for tests. */

export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

/** `21 Nov 2026, 10:15:03` in the viewer's time zone (or the one given). */
export function formatDateTime(iso: string, options: FormatOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(options.locale ?? 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZone: options.timeZone,
  }).format(date);
}

/** `just now`, `12 s ago`, `5 min ago`, `3 h ago`, `2 days ago`; `in 30 s` for the future. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return iso;
  const seconds = Math.round((time - now) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 5) return seconds > 0 ? 'in a moment' : 'just now';
  let text: string;
  if (magnitude < 60) text = `${magnitude} s`;
  else if (magnitude < 3600) text = `${Math.round(magnitude / 60)} min`;
  else if (magnitude < 86_400) text = `${Math.round(magnitude / 3600)} h`;
  else {
    const days = Math.round(magnitude / 86_400);
    text = `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  return seconds > 0 ? `in ${text}` : `${text} ago`;
}

/** `84 ms`, `1.2 s`, `10 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;
}

/** `1 delivery`, `3 deliveries`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;
}

/** Shortens long text for a table cell, keeping the start (where URLs differ most is the host). */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Pretty JSON for the payload view; the text itself when it is not JSON. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}
