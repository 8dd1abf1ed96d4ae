/**
 * The event checklist: the catalogue (shared/events/catalogue.ts, the single source, bundled at build
 * time) grouped by resource, and the selection rules. `["*"]` subscribes to every kind, including
 * kinds added later; ticking every box subscribes to today's kinds only.
 */
import { eventKinds } from '#shared/events/catalogue';

export const ALL_EVENTS = '*';
export const catalogue: readonly string[] = eventKinds;

export interface EventGroup {
  id: string;
  label: string;
  kinds: string[];
}

const groupLabels: Record<string, string> = {
  order: 'Orders',
  customer: 'Customers',
  invoice: 'Invoices',
  credit_note: 'Credit notes',
  quote: 'Quotes',
  production: 'Production',
  shipment: 'Shipments',
  stock: 'Stock',
  proof: 'Proofs',
};

/** Catalogue kinds grouped by their first segment, in catalogue order. */
export function groupEvents(kinds: readonly string[] = catalogue): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const kind of kinds) {
    const id = kind.split('.')[0]!;
    let group = groups.get(id);
    if (!group) {
      group = { id, label: groupLabels[id] ?? id[0]!.toUpperCase() + id.slice(1), kinds: [] };
      groups.set(id, group);
    }
    group.kinds.push(kind);
  }
  return [...groups.values()];
}

export const isAllEvents = (events: readonly string[]): boolean => events.includes(ALL_EVENTS);

/** Keeps the selection in catalogue order, without duplicates. */
export function setKinds(selected: readonly string[], kinds: readonly string[], on: boolean): string[] {
  const next = new Set(selected.filter((kind) => kind !== ALL_EVENTS));
  for (const kind of kinds) {
    if (on) next.add(kind);
    else next.delete(kind);
  }
  const ordered = catalogue.filter((kind) => next.has(kind));
  // Kinds the server knows but this build does not (a newer catalogue) are kept, at the end.
  return [...ordered, ...[...next].filter((kind) => !catalogue.includes(kind))];
}

export type CheckState = 'all' | 'some' | 'none';

export function checkState(selected: readonly string[], kinds: readonly string[]): CheckState {
  const count = kinds.filter((kind) => selected.includes(kind)).length;
  return count === 0 ? 'none' : count === kinds.length ? 'all' : 'some';
}

export function validateEvents(events: readonly string[]): string | undefined {
  return events.length === 0 ? 'Choose at least one event, or subscribe to all events.' : undefined;
}

/** Short text for a table cell: `All events`, `order.created`, `order.created +2 more`. */
export function summarizeEvents(events: readonly string[]): string {
  if (isAllEvents(events)) return 'All events';
  if (events.length === 0) return 'No events';
  if (events.length === 1) return events[0]!;
  return `${events[0]} +${events.length - 1} more`;
}
