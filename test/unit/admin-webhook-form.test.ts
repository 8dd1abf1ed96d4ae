import { describe, expect, it } from 'vitest';
import { eventKinds } from '#shared/events/catalogue';
import { ALL_EVENTS, catalogue, checkState, groupEvents, isAllEvents, setKinds, summarizeEvents, validateEvents } from '#admin/lib/events';
import { describeError, fieldErrors, fieldSentence, otherErrors } from '#admin/lib/errors';
import { validateWebhookUrl } from '#admin/lib/webhook-url';

describe('admin webhook URL check', () => {
  it('accepts https URLs and a local http receiver', () => {
    expect(validateWebhookUrl('https://example.com/hooks')).toBeUndefined();
    expect(validateWebhookUrl('  https://hooks.example.com:8443/a?b=c  ')).toBeUndefined();
    expect(validateWebhookUrl('http://127.0.0.1:4000/hooks')).toBeUndefined();
    expect(validateWebhookUrl('http://localhost:4000/hooks')).toBeUndefined();
  });

  it('explains what is wrong, in a sentence', () => {
    expect(validateWebhookUrl('')).toBe('Enter the URL that should receive the events.');
    expect(validateWebhookUrl('example.com/hooks')).toMatch(/^Enter a complete URL/);
    expect(validateWebhookUrl('ftp://example.com/hooks')).toBe('The URL must start with https://.');
    expect(validateWebhookUrl('http://example.com/hooks')).toMatch(/^Use https:\/\//);
    expect(validateWebhookUrl('https://intranet/hooks')).toMatch(/fully qualified host name/);
    expect(validateWebhookUrl('https://user:pass@example.com/hooks')).toMatch(/credentials/);
    expect(validateWebhookUrl(`https://example.com/${'a'.repeat(2048)}`)).toMatch(/at most 2048/);
  });
});

describe('admin event checklist', () => {
  it('is built from the catalogue, grouped by resource, every kind once', () => {
    expect(catalogue).toEqual(eventKinds);
    const groups = groupEvents();
    expect(groups.map((group) => group.label)).toEqual([
      'Orders',
      'Customers',
      'Invoices',
      'Credit notes',
      'Quotes',
      'Production',
      'Shipments',
      'Stock',
      'Proofs',
    ]);
    expect(groups.flatMap((group) => group.kinds)).toEqual([...eventKinds]);
  });

  it('selects all, a group, or one kind, in catalogue order', () => {
    const all = setKinds([], catalogue, true);
    expect(all).toEqual([...eventKinds]);
    expect(setKinds(all, catalogue, false)).toEqual([]);
    const orders = groupEvents()[0]!.kinds;
    expect(setKinds(['invoice.paid'], orders, true)).toEqual([...orders, 'invoice.paid']);
    expect(setKinds(['order.created', 'invoice.paid'], ['order.created'], false)).toEqual(['invoice.paid']);
    // Choosing single kinds leaves "everything" behind.
    expect(setKinds([ALL_EVENTS], ['stock.low'], true)).toEqual(['stock.low']);
    // A kind this build does not know (a newer server) is kept.
    expect(setKinds(['order.refunded'], ['order.created'], true)).toEqual(['order.created', 'order.refunded']);
  });

  it('knows whether a group is fully, partly or not chosen', () => {
    expect(checkState(['order.created'], ['order.created', 'order.updated'])).toBe('some');
    expect(checkState(['order.created', 'order.updated'], ['order.created', 'order.updated'])).toBe('all');
    expect(checkState([], ['order.created'])).toBe('none');
  });

  it('summarises and validates a subscription', () => {
    expect(isAllEvents([ALL_EVENTS])).toBe(true);
    expect(summarizeEvents([ALL_EVENTS])).toBe('All events');
    expect(summarizeEvents(['order.created'])).toBe('order.created');
    expect(summarizeEvents(['order.created', 'order.updated', 'stock.low'])).toBe('order.created +2 more');
    expect(validateEvents([])).toMatch(/at least one event/);
    expect(validateEvents(['order.created'])).toBeUndefined();
  });
});

describe('admin API error display', () => {
  const details = [
    { field: 'url', message: 'must use https' },
    { field: 'events.2', message: 'unknown event kind "x"' },
    { field: 'url', message: 'must not point at a loopback address (127.0.0.2)' },
    { field: 'colour', message: 'Unknown field' },
  ];

  it('puts each server message next to its field, and keeps the rest for the banner', () => {
    expect(fieldErrors(details, ['url', 'events'])).toEqual({
      url: 'must use https; must not point at a loopback address (127.0.0.2)',
      events: 'unknown event kind "x"',
    });
    expect(otherErrors(details, ['url', 'events'])).toEqual(['colour: Unknown field']);
  });

  it('turns a server phrase into a sentence about the field', () => {
    expect(fieldSentence('The URL', 'must use https')).toBe('The URL must use https.');
    expect(fieldSentence('The event list', 'unknown event kind "x"')).toBe('Unknown event kind "x".');
    expect(fieldSentence('The URL', 'Required.')).toBe('Required.');
  });

  it('adds the request id support needs', () => {
    expect(describeError({ message: 'Internal server error', requestId: 'req-1' })).toBe('Internal server error (request req-1)');
    expect(describeError({ message: 'Offline' })).toBe('Offline');
  });
});
