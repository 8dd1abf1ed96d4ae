import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatRelative, plural, prettyJson, truncate } from '#admin/lib/format';

const now = Date.parse('2026-11-21T10:15:00.000Z');
const at = (secondsFromNow: number) => new Date(now + secondsFromNow * 1000).toISOString();

describe('admin formatting', () => {
  it('shows times in the viewer’s zone, to the second', () => {
    expect(formatDateTime('2026-11-21T10:15:03.000Z', { timeZone: 'UTC' })).toBe('21 Nov 2026, 10:15:03');
    expect(formatDateTime('2026-11-21T10:15:03.000Z', { timeZone: 'Europe/Berlin' })).toBe('21 Nov 2026, 11:15:03');
    expect(formatDateTime('not a time')).toBe('not a time');
  });

  it('says how long ago, or how soon', () => {
    expect(formatRelative(at(-2), now)).toBe('just now');
    expect(formatRelative(at(2), now)).toBe('in a moment');
    expect(formatRelative(at(-12), now)).toBe('12 s ago');
    expect(formatRelative(at(30), now)).toBe('in 30 s');
    expect(formatRelative(at(-300), now)).toBe('5 min ago');
    expect(formatRelative(at(300), now)).toBe('in 5 min');
    expect(formatRelative(at(-3 * 3600), now)).toBe('3 h ago');
    expect(formatRelative(at(-86_400), now)).toBe('1 day ago');
    expect(formatRelative(at(-3 * 86_400), now)).toBe('3 days ago');
  });

  it('formats durations, counts and long text', () => {
    expect(formatDuration(84)).toBe('84 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(10_000)).toBe('10 s');
    expect(plural(1, 'delivery', 'deliveries')).toBe('1 delivery');
    expect(plural(1200, 'delivery', 'deliveries')).toBe('1,200 deliveries');
    expect(plural(2, 'webhook')).toBe('2 webhooks');
    expect(truncate('https://example.com/hooks', 12)).toBe('https://exa…');
    expect(truncate('short', 12)).toBe('short');
  });

  it('pretty-prints payloads, and leaves non-JSON text alone', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('plain text')).toBe('plain text');
  });
});
