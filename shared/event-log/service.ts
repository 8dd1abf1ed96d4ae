/**
 * The events API (`GET /v1/events`, `GET /v1/events/{id}`): the tenant's stored outbox events,
 * newest first, for integrators catching up after downtime (Stripe's events endpoint). The same
 * events the webhooks deliver, kept 30 days.
 */
import type { Tenant } from '#shared/auth/principal';
import { NotFoundError } from '#shared/errors';
import * as repo from './repository';
import type { Event, EventListQuery } from './schema';
import { presentEvent } from './stored';

export async function listEvents(tenant: Tenant, query: EventListQuery): Promise<{ items: Event[]; next?: string }> {
  const filter = { kind: query.type, from: query.created_from, to: query.created_to };
  const page = await repo.listEvents(tenant, filter, { perPage: query.per_page, after: query.starting_after });
  return { items: page.records.map(presentEvent), ...(page.next === undefined ? {} : { next: page.next }) };
}

export async function getEvent(tenant: Tenant, id: string): Promise<Event> {
  const record = await repo.readEvent(tenant, id);
  if (!record) throw new NotFoundError('event', id);
  return presentEvent(record);
}
