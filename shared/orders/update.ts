/**
 * `PUT /v1/orders/{id}`: notes, due date and addresses at any time; status along the machine
 * (status.ts); lines and shipping only while pending (totals and stock recomputed). Each write is
 * conditional on the status and version read. Without If-Match a write that lost a race re-reads
 * and applies the request again — so a second, concurrent "confirm" meets `confirmed` and gets
 * 409 invalid_transition; with If-Match a stale version is 412 and nothing changes.
 */
import { eventPut } from '#shared/events/outbox';
import type { Tenant } from '#shared/auth/principal';
import { DomainError, ConflictError, type ErrorDetail } from '#shared/errors';
import type { TransactItem } from '#shared/db/table';
import { addressChoices, needsCustomerAddresses, resolveAddress } from './addresses';
import { orderTotals, priceLines, productIdsOf, stockLinesOf } from './lines';
import { assertIfMatch, type IfMatch } from './preconditions';
import { presentOrder, type OrderLineRecord, type OrderRecord } from './record';
import * as repo from './repository';
import { OrderVersionConflict } from './repository';
import type { Order, OrderAddress, OrderUpdate } from './schema';
import { assertValid, readOwner, readProducts } from './reads';
import { assertTransition, eventsForChange } from './status';

const MAX_ATTEMPTS = 6;

/** What the request resolves to, read once: priced lines and address copies. */
interface Prepared {
  lines?: OrderLineRecord[];
  shipping_address?: OrderAddress | null;
  billing_address?: OrderAddress | null;
}

/** The rules that depend on the order's current state; checked again after every re-read. */
function assertAllowed(order: OrderRecord, changes: OrderUpdate, ifMatch: IfMatch): void {
  // The transition is judged first: of two concurrent transitions the loser learns why it lost.
  if (changes.status !== undefined) assertTransition(order.status, changes.status);
  const fixed = (['items', 'shipping'] as const).filter((field) => changes[field] !== undefined);
  if (fixed.length && order.status !== 'pending') {
    throw new DomainError(
      'conflict',
      `Lines and shipping can only change while the order is pending; it is ${order.status}`,
      fixed.map((field) => ({ field, message: `cannot change once the order is ${order.status}` })),
    );
  }
  assertIfMatch(ifMatch, order.version);
}

async function prepare(tenant: Tenant, order: OrderRecord, changes: OrderUpdate): Promise<Prepared> {
  const choices = addressChoices(changes);
  const [products, owner] = await Promise.all([
    changes.items ? readProducts(tenant, changes.items) : undefined,
    needsCustomerAddresses(choices) ? readOwner(tenant, order.customer.id) : undefined,
  ]);
  const problems: ErrorDetail[] = [];
  const prepared: Prepared = {};
  if (changes.items && products) {
    // Priced with the order's own currency and tax rate, fixed when it was created.
    const priced = priceLines(changes.items, products, { currency: order.currency, tax_rate: order.tax_rate });
    problems.push(...priced.problems);
    prepared.lines = priced.lines;
  }
  prepared.shipping_address = resolveAddress('shipping', choices.shipping, owner, false, problems);
  prepared.billing_address = resolveAddress('billing', choices.billing, owner, false, problems);
  assertValid(problems);
  return prepared;
}

function apply(order: OrderRecord, changes: OrderUpdate, prepared: Prepared): OrderRecord {
  const after: OrderRecord = { ...order, updated_at: new Date().toISOString(), version: order.version + 1 };
  if (changes.status !== undefined) after.status = changes.status;
  // A cancel gives back the stock it held (saveOrder) and keeps nothing.
  if (after.status === 'cancelled') after.reserved = [];
  if (changes.notes !== undefined) after.notes = changes.notes;
  if (changes.due_date !== undefined) after.due_date = changes.due_date;
  if (prepared.shipping_address !== undefined) after.shipping_address = prepared.shipping_address;
  if (prepared.billing_address !== undefined) after.billing_address = prepared.billing_address;
  if (prepared.lines) after.items = prepared.lines;
  if (changes.shipping !== undefined) after.shipping = changes.shipping;
  if (prepared.lines || changes.shipping !== undefined) Object.assign(after, orderTotals(after.items, after.shipping, after.tax_rate));
  return after;
}

const eventItems = (tenant: Tenant, before: OrderRecord, after: OrderRecord): TransactItem[] =>
  eventsForChange(before.status, after.status).map((kind) => eventPut(tenant, kind, presentOrder(after)).item);

/** +1 for products the new lines add, −1 for products they drop (one reference per order and product). */
function referenceMoves(before: readonly OrderLineRecord[], after: readonly OrderLineRecord[]): Map<number, number> {
  const old = new Set(productIdsOf(before));
  const now = new Set(productIdsOf(after));
  return new Map([...[...now].filter((id) => !old.has(id)).map((id): [number, number] => [id, 1]), ...[...old].filter((id) => !now.has(id)).map((id): [number, number] => [id, -1])]);
}

async function write(tenant: Tenant, before: OrderRecord, after: OrderRecord, linesChanged: boolean): Promise<OrderRecord> {
  if (!linesChanged) {
    await repo.saveOrder(tenant, before, after, eventItems(tenant, before, after));
    return after;
  }
  return repo.saveOrderLines(tenant, before, stockLinesOf(after.items), referenceMoves(before.items, after.items), (reserved) => {
    const stored = { ...after, reserved };
    return { order: stored, events: eventItems(tenant, before, stored) };
  });
}

export async function updateOrder(tenant: Tenant, id: number, changes: OrderUpdate, ifMatch: IfMatch): Promise<Order> {
  let order = await repo.requireOrder(tenant, id, true);
  assertAllowed(order, changes, ifMatch);
  const prepared = await prepare(tenant, order, changes);
  for (let attempt = 1; ; attempt++) {
    try {
      return presentOrder(await write(tenant, order, apply(order, changes, prepared), prepared.lines !== undefined));
    } catch (error) {
      if (!(error instanceof OrderVersionConflict)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The order was changed by other requests at the same time; try again');
      // Jittered pause so that colliding requests do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * attempt));
      order = await repo.requireOrder(tenant, id, true);
      assertAllowed(order, changes, ifMatch);
    }
  }
}
