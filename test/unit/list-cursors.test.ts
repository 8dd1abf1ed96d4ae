/**
 * The pure parts of bounded lists: the audit cursor, event id ranges of a time range, the
 * pending-deliveries keys and the staged-price-versions keys (the two cross-tenant sweep indexes),
 * and the id cursors of products, customers, legacy products, invoices, quotes, shipments,
 * production jobs and machines, and files.
 */
import { productRecord } from '#test/support/records';
import { describe, expect, it } from 'vitest';
import { cursorTime, decodeAuditCursor, encodeAuditCursor } from '#shared/audit/cursor';
import { AuditListQuerySchema } from '#shared/audit/schema';
import { CustomerListQuerySchema } from '#shared/customers/schema';
import { customerPut } from '#shared/customers/stored';
import { startPosition, type CollectionQuery } from '#shared/db/collections';
import {
  createdSortKey,
  cursorKeys,
  deliveryOfKey,
  dueSortKey,
  DUE_SHARDS,
  fileKeys,
  invoiceKeys,
  jobQueueSortKey,
  jobsDueBefore,
  legacyPriceSweepKeys,
  legacyPriceVersionOfKey,
  legacyProductKeys,
  machineSortKey,
  nameSortKey,
  productionKeys,
  quoteKeys,
  shipmentKeys,
  STAGING_SHARDS,
  sweepKeys,
  tenantKeys,
  webhookKeys,
} from '#shared/db/keys';
import type { TransactItem } from '#shared/db/table';
import { idRange } from '#shared/event-log/repository';
import { EventListQuerySchema } from '#shared/event-log/schema';
import { FileListQuerySchema } from '#shared/files/schema';
import { fileIdOfSortKey, fileItem, fileSortKey, type FileRecord } from '#shared/files/stored';
import { idTime, prefixedId } from '#shared/ids';
import { CustomerInvoicesQuerySchema, InvoiceListQuerySchema } from '#shared/invoices/schema';
import { invoiceCreation, type InvoiceRecord } from '#shared/invoices/stored';
import { LegacyListQuerySchema } from '#shared/legacy-products/schema';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { JobListQuerySchema, MachineListQuerySchema } from '#shared/production/schema';
import { PRIORITY_RANKS } from '#shared/production/status';
import { jobListEntryPut, jobPut, machinePut, queueKeyOf, type JobRecord, type MachineRecord } from '#shared/production/stored';
import { ProductListQuerySchema } from '#shared/products/schema';
import { listEntryPuts, productPut, type ProductRecord } from '#shared/products/stored';
import { CustomerQuotesQuerySchema, QuoteListQuerySchema } from '#shared/quotes/schema';
import { quoteCreation, type QuoteRecord } from '#shared/quotes/stored';
import { OrderShipmentsQuerySchema, ShipmentListQuerySchema } from '#shared/shipments/schema';
import { recordedShipmentParts, type ShipmentRecord } from '#shared/shipments/stored';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';

describe('the audit cursor', () => {
  const cursor = { after: '2026-11-21T10:15:00.123Z#req-1', from: '2026-11-14T10:15:00.000Z' };

  it('round-trips, opaque and safe in a query string', () => {
    const text = encodeAuditCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeAuditCursor(text)).toEqual(cursor);
    expect(cursorTime(cursor)).toBe('2026-11-21T10:15:00.123Z');
  });

  it('refuses anything it did not hand out', () => {
    for (const text of ['', 'a b', '%%%', 'e30', Buffer.from('{"a":"x","f":"y"}').toString('base64url'), 'x'.repeat(1001)]) {
      expect(decodeAuditCursor(text), text).toBeUndefined();
    }
    const parsed = AuditListQuerySchema.safeParse({ starting_after: 'e30' });
    expect(parsed.success).toBe(false);
    expect(AuditListQuerySchema.safeParse({ starting_after: encodeAuditCursor(cursor) }).data?.starting_after).toEqual(cursor);
  });

  it('goes with page 1 only', () => {
    expect(AuditListQuerySchema.safeParse({ page: '2' }).success).toBe(false);
    expect(AuditListQuerySchema.safeParse({ page: '1' }).success).toBe(true);
  });
});

describe('event id ranges', () => {
  it('turn a time range into the ids created within it, both ends included', () => {
    const at = Date.parse('2026-11-21T10:15:00.000Z');
    const [lower, upper] = idRange({ from: new Date(at).toISOString(), to: new Date(at + 1000).toISOString() });
    const inside = [`evt_${idTime(at)}00000000000000`, `evt_${idTime(at + 1000)}zzzzzzzzzzzzzz`];
    const outside = [`evt_${idTime(at - 1)}zzzzzzzzzzzzzz`, `evt_${idTime(at + 1001)}00000000000000`];
    for (const id of inside) expect(lower <= id && id <= upper, id).toBe(true);
    for (const id of outside) expect(lower <= id && id <= upper, id).toBe(false);
    const [all, none] = idRange({});
    expect(all <= prefixedId('evt') && prefixedId('evt') <= none).toBe(true);
  });

  it('sort like the times they encode', () => {
    expect(idTime(1) < idTime(2)).toBe(true);
    expect(idTime(Date.parse('2026-01-01')) < idTime(Date.parse('2027-01-01'))).toBe(true);
    // The id's time lies between the clock read before and after it was made (the clock may tick between).
    const before = idTime(Date.now()).slice(0, 8);
    const made = prefixedId('evt').slice(4, 12);
    const after = idTime(Date.now()).slice(0, 8);
    expect(before <= made && made <= after, `${before} ≤ ${made} ≤ ${after}`).toBe(true);
  });

  it('are asked for with a cursor of an event id, by page 1 only', () => {
    expect(EventListQuerySchema.safeParse({ starting_after: prefixedId('evt') }).success).toBe(true);
    expect(EventListQuerySchema.safeParse({ starting_after: 'evt_x' }).success).toBe(false);
    expect(EventListQuerySchema.safeParse({ page: '2' }).success).toBe(false);
    expect(EventListQuerySchema.parse({ created_from: '2026-11-01', created_to: '2026-11-02' })).toMatchObject({
      created_from: '2026-11-01T00:00:00.000Z',
      created_to: '2026-11-02T23:59:59.999Z',
    });
  });
});

describe('the pending-deliveries index keys', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'live' as const };

  it('spread deliveries over every shard, each always in the same one', () => {
    const shards = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const id = deliveryIdFor(prefixedId('evt'), tenant, i);
      const { gsi3pk } = sweepKeys.pendingDue(id, '2026-11-21T10:15:00.000Z');
      expect(sweepKeys.pendingDue(id, '2027-01-01T00:00:00.000Z').gsi3pk).toBe(gsi3pk);
      shards.add(gsi3pk);
    }
    expect([...shards].sort()).toEqual(Array.from({ length: DUE_SHARDS }, (_, shard) => sweepKeys.dueShard(shard)).sort());
  });

  it('sort by due time, and dueBefore bounds them', () => {
    const id = deliveryIdFor(prefixedId('evt'), tenant, 1);
    const early = sweepKeys.pendingDue(id, '2026-11-21T10:15:00.000Z').gsi3sk;
    expect(early < sweepKeys.dueBefore('2026-11-21T10:15:00.000Z')).toBe(true);
    expect(early < sweepKeys.dueBefore('2026-11-21T10:14:59.999Z')).toBe(false);
  });

  it('name their delivery by its key, and nothing else', () => {
    const id = deliveryIdFor(prefixedId('evt'), tenant, 3);
    expect(deliveryOfKey(webhookKeys.delivery(tenant, id))).toEqual({ tenant, deliveryId: id });
    expect(deliveryOfKey(webhookKeys.deliveryRequest(tenant, id, 'token'))).toBeUndefined();
    expect(deliveryOfKey(tenantKeys.event(tenant, 'evt_1'))).toBeUndefined();
  });
});

describe('cursor positions in a sort-key condition', () => {
  const ascending: CollectionQuery = { index: 'gsi2', partition: 'P', newestFirst: false };
  const descending: CollectionQuery = { index: 'gsi1', partition: 'P', newestFirst: true };
  const at = (index: 'gsi1' | 'gsi2', sortKey: string) => ({ pk: 'x', sk: 'y', [`${index}pk`]: 'P', [`${index}sk`]: sortKey });

  it('start a name-prefix list after a key with the prefix, at its beginning below it, nowhere above it', () => {
    const prefixed = { ...ascending, sortKeyPrefix: 'fly' };
    expect(startPosition(prefixed, at('gsi2', 'flyer a5#0000000000000007'))).toBe('within');
    expect(startPosition(prefixed, at('gsi2', 'fly#0000000000000001'))).toBe('within');
    expect(startPosition(prefixed, at('gsi2', 'alpha#0000000000000002'))).toBe('before');
    expect(startPosition(prefixed, at('gsi2', 'fl#0000000000000002'))).toBe('before');
    expect(startPosition(prefixed, at('gsi2', 'poster#0000000000000003'))).toBe('past');
    expect(startPosition(prefixed, at('gsi2', 'flz#0000000000000003'))).toBe('past');
  });

  it('compare as DynamoDB does, by UTF-8 bytes', () => {
    // U+FF5E sorts before U+1F600 in UTF-8, after it in UTF-16 code units.
    const prefixed = { ...ascending, sortKeyPrefix: '\u{1F600}' };
    expect(startPosition(prefixed, at('gsi2', '\uFF5E#0000000000000001'))).toBe('before');
  });

  it('turn round for newest-first lists and key ranges', () => {
    const range = { ...descending, sortKeyBetween: ['2026-01-01', '2026-02-01'] as [string, string] };
    expect(startPosition(range, at('gsi1', '2026-01-15T00:00:00.000Z#0000000000000001'))).toBe('within');
    expect(startPosition(range, at('gsi1', '2026-03-01T00:00:00.000Z#0000000000000001'))).toBe('before');
    expect(startPosition(range, at('gsi1', '2025-12-01T00:00:00.000Z#0000000000000001'))).toBe('past');
    expect(startPosition({ ...range, newestFirst: false }, at('gsi1', '2025-12-01T00:00:00.000Z#0000000000000001'))).toBe('before');
    expect(startPosition(descending, at('gsi1', 'anything'))).toBe('within');
  });
});

describe('product, customer and legacy product cursors', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'test' as const };
  const product: ProductRecord = productRecord({
    id: 42,
    name: 'Flyer A5',
    category: 'Flyers',
    is_active: false,
    created_at: '2026-11-21T10:15:00.000Z',
    updated_at: '2026-11-21T10:15:00.000Z',
  });
  const keysOf = (item: Record<string, unknown>, index: 'gsi1' | 'gsi2') =>
    Object.fromEntries(['pk', 'sk', `${index}pk`, `${index}sk`].map((name) => [name, item[name]]));

  it('are the positions the stored items and list entries have in each list', () => {
    const item = productPut(tenant, product).Put!.Item!;
    const [byName, byCategory] = listEntryPuts(tenant, product).map((put) => put.Put!.Item!);
    const created = createdSortKey(product.created_at, product.id);
    const name = nameSortKey(product.name, product.id);
    expect(
      cursorKeys.product(tenant, 42, { index: 'gsi1', partition: tenantKeys.productsCollection(tenant, 'all'), sortKey: created }),
    ).toEqual(keysOf(item, 'gsi1'));
    expect(
      cursorKeys.product(tenant, 42, { index: 'gsi2', partition: tenantKeys.productsCollection(tenant, 'inactive'), sortKey: created }),
    ).toEqual(keysOf(item, 'gsi2'));
    expect(
      cursorKeys.product(tenant, 42, {
        index: 'gsi2',
        partition: tenantKeys.productsByName(tenant, 'inactive'),
        sortKey: name,
        ordering: 'BY_NAME',
      }),
    ).toEqual(keysOf(byName!, 'gsi2'));
    expect(
      cursorKeys.product(tenant, 42, {
        index: 'gsi1',
        partition: tenantKeys.productsByCategory(tenant, 'all', 'flyers'),
        sortKey: name,
        ordering: 'BY_CATEGORY',
      }),
    ).toEqual(keysOf(byCategory!, 'gsi1'));
    const customer = customerPut(tenant, {
      id: 7,
      name: 'Anna Schmidt',
      email: 'anna@example.com',
      phone: null,
      company: null,
      vat_id: null,
      vat_validation: null,
      tax_treatment_override: null,
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
      notes: null,
      guest: false,
      created_at: product.created_at,
      updated_at: product.created_at,
      version: 1,
      default_billing_address_id: null,
      default_shipping_address_id: null,
      address_count: 0,
      open_orders: 0,
    }).Put!.Item!;
    const customerAt = (index: 'gsi1' | 'gsi2', partition: string, sortKey: string) =>
      cursorKeys.customer(tenant, 7, { index, partition, sortKey });
    expect(customerAt('gsi1', tenantKeys.customersCollection(tenant), createdSortKey(product.created_at, 7))).toEqual(
      keysOf(customer, 'gsi1'),
    );
    expect(customerAt('gsi2', tenantKeys.customersByName(tenant), nameSortKey('Anna Schmidt', 7))).toEqual(keysOf(customer, 'gsi2'));
    expect(legacyProductKeys.listPosition(tenant, 3, product.created_at)).toMatchObject({
      ...legacyProductKeys.legacyProduct(tenant, 3),
      gsi1pk: legacyProductKeys.legacyProductsCollection(tenant),
    });
  });

  it('go with page 1 only; a customer cursor not with an email', () => {
    for (const schema of [ProductListQuerySchema, CustomerListQuerySchema, LegacyListQuerySchema]) {
      expect(schema.safeParse({ starting_after: '42' }).data).toMatchObject({ page: 1, starting_after: 42 });
      expect(schema.safeParse({ starting_after: '42', page: '1' }).success).toBe(true);
      const paged = schema.safeParse({ starting_after: '42', page: '2' });
      expect(paged.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['page', 'use either page or starting_after'],
      ]);
      for (const cursor of ['0', 'x', '1.5', '9007199254740993'])
        expect(schema.safeParse({ starting_after: cursor }).success, cursor).toBe(false);
    }
    const both = CustomerListQuerySchema.safeParse({ starting_after: '42', email: 'a@example.com' });
    expect(both.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['starting_after']);
  });

  it('are documented on the lists that take them', () => {
    const document = buildOpenApiDocument() as unknown as {
      paths: Record<string, { get: { parameters: { name: string; in: string }[] } }>;
      components: { schemas: { Pagination: { properties: Record<string, unknown> } } };
    };
    for (const path of [
      '/v1/products',
      '/v1/customers',
      '/v1/legacy-products',
      '/legacy-products',
      '/v1/orders',
      '/v1/customers/{id}/orders',
      '/v1/invoices',
      '/v1/customers/{id}/invoices',
      '/v1/quotes',
      '/v1/customers/{id}/quotes',
      '/v1/shipments',
      '/v1/orders/{id}/shipments',
      '/v1/production/jobs',
      '/v1/production/machines',
      '/v1/files',
    ]) {
      expect(document.paths[path]!.get.parameters, path).toContainEqual(expect.objectContaining({ name: 'starting_after', in: 'query' }));
    }
    expect(document.components.schemas.Pagination.properties.next_cursor).toMatchObject({ type: 'string', nullable: true });
  });
});

describe('invoice, quote, shipment, job, machine and file cursors', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'live' as const };
  const createdAt = '2026-11-21T10:15:00.000Z';
  const keysOf = (item: Record<string, unknown>, index: 'gsi1' | 'gsi2') =>
    Object.fromEntries(['pk', 'sk', `${index}pk`, `${index}sk`].map((name) => [name, item[name]]));
  const puts = (items: TransactItem[]) => items.flatMap((item) => (item.Put ? [item.Put.Item as Record<string, unknown>] : []));
  /** The key and the attributes an Update sets (`SET #f0 = :f0, …`), as one item. */
  const updated = (item: TransactItem): Record<string, unknown> => {
    const update = item.Update!;
    const names = update.ExpressionAttributeNames as Record<string, string>;
    const values = update.ExpressionAttributeValues as Record<string, unknown>;
    const sets = /^SET (.*?)(?: REMOVE |$)/.exec(update.UpdateExpression!)![1]!.split(', ');
    return {
      ...update.Key,
      ...Object.fromEntries(sets.map((set) => set.split(' = ')).map(([name, value]) => [names[name!] ?? name, values[value!]])),
    };
  };

  it('are the positions the stored items and list entries have in each list', () => {
    const invoice = {
      id: 17,
      status: 'sent',
      order_id: 9,
      customer: { id: 3 },
      due_date: '2026-12-08',
      created_at: createdAt,
    } as unknown as InvoiceRecord;
    const [item, customerEntry, due, unpaid, orderEntry] = puts(invoiceCreation(tenant, invoice));
    const created = createdSortKey(createdAt, 17);
    const dueKey = dueSortKey('2026-12-08', createdAt, 17);
    const invoiceAt = (index: 'gsi1' | 'gsi2', partition: string, sortKey: string, entry?: 'CUSTOMER' | 'ORDER' | 'DUE' | 'UNPAID') =>
      cursorKeys.invoice(tenant, 17, { index, partition, sortKey, entry });
    expect(invoiceAt('gsi1', invoiceKeys.collection(tenant), created)).toEqual(keysOf(item!, 'gsi1'));
    expect(invoiceAt('gsi2', invoiceKeys.byStatus(tenant, 'sent'), created)).toEqual(keysOf(item!, 'gsi2'));
    expect(invoiceAt('gsi1', invoiceKeys.ofCustomer(tenant, 3), created, 'CUSTOMER')).toEqual(keysOf(customerEntry!, 'gsi1'));
    expect(invoiceAt('gsi2', invoiceKeys.ofCustomerByStatus(tenant, 3, 'sent'), created, 'CUSTOMER')).toEqual(
      keysOf(customerEntry!, 'gsi2'),
    );
    expect(invoiceAt('gsi1', invoiceKeys.byDueDate(tenant), dueKey, 'DUE')).toEqual(keysOf(due!, 'gsi1'));
    expect(invoiceAt('gsi1', invoiceKeys.unpaidByDueDate(tenant), dueKey, 'UNPAID')).toEqual(keysOf(unpaid!, 'gsi1'));
    expect(invoiceAt('gsi1', invoiceKeys.ofOrder(tenant, 9), created, 'ORDER')).toEqual(keysOf(orderEntry!, 'gsi1'));

    // An open quote sorts by validity in its status lists, by creation in the lists of all.
    const quote = {
      id: 5,
      status: 'open',
      customer: { id: 3 },
      valid_until: '2026-12-24',
      created_at: createdAt,
    } as unknown as QuoteRecord;
    const [quoteItem, quoteEntry] = puts(quoteCreation(tenant, quote));
    const validity = dueSortKey('2026-12-24', createdAt, 5);
    const quoteAt = (index: 'gsi1' | 'gsi2', partition: string, sortKey: string, entry = false) =>
      cursorKeys.quote(tenant, 5, { index, partition, sortKey, entry });
    expect(quoteAt('gsi1', quoteKeys.collection(tenant), createdSortKey(createdAt, 5))).toEqual(keysOf(quoteItem!, 'gsi1'));
    expect(quoteAt('gsi2', quoteKeys.byStatus(tenant, 'open'), validity)).toEqual(keysOf(quoteItem!, 'gsi2'));
    expect(quoteAt('gsi1', quoteKeys.ofCustomer(tenant, 3), createdSortKey(createdAt, 5), true)).toEqual(keysOf(quoteEntry!, 'gsi1'));
    expect(quoteAt('gsi2', quoteKeys.ofCustomerByStatus(tenant, 3, 'open'), validity, true)).toEqual(keysOf(quoteEntry!, 'gsi2'));
    const accepted = puts(quoteCreation(tenant, { ...quote, status: 'accepted' }))[0]!;
    expect(quoteAt('gsi2', quoteKeys.byStatus(tenant, 'accepted'), createdSortKey(createdAt, 5))).toEqual(keysOf(accepted, 'gsi2'));

    const shipment = {
      id: 11,
      carrier: 'sandbox',
      status: 'label_created',
      carrier_parcel_ids: [],
      created_at: createdAt,
      version: 1,
    } as unknown as ShipmentRecord;
    const [recorded, carrierEntry] = recordedShipmentParts(tenant, shipment, shipment);
    const shipped = createdSortKey(createdAt, 11);
    const shipmentAt = (index: 'gsi1' | 'gsi2', partition: string, entry = false) =>
      cursorKeys.shipment(tenant, 11, { index, partition, sortKey: shipped, entry });
    expect(shipmentAt('gsi1', shipmentKeys.collection(tenant))).toEqual(keysOf(updated(recorded!), 'gsi1'));
    expect(shipmentAt('gsi2', shipmentKeys.byStatus(tenant, 'label_created'))).toEqual(keysOf(updated(recorded!), 'gsi2'));
    expect(shipmentAt('gsi1', shipmentKeys.byCarrier(tenant, 'sandbox'), true)).toEqual(keysOf(carrierEntry!.Put!.Item!, 'gsi1'));
    expect(shipmentAt('gsi2', shipmentKeys.byCarrierAndStatus(tenant, 'sandbox', 'label_created'), true)).toEqual(
      keysOf(carrierEntry!.Put!.Item!, 'gsi2'),
    );

    const job = {
      id: 8,
      status: 'scheduled',
      machine_id: 2,
      priority: 'high',
      due_date: '2026-12-01',
      created_at: createdAt,
    } as unknown as JobRecord;
    const queued = jobQueueSortKey(1, '2026-12-01', createdAt, 8);
    expect(queueKeyOf(job)).toBe(queued);
    const jobItem = jobPut(tenant, job).Put!.Item!;
    const jobEntry = jobListEntryPut(tenant, job).Put!.Item!;
    const jobAt = (index: 'gsi1' | 'gsi2', partition: string, entry = false) =>
      cursorKeys.job(tenant, 8, { index, partition, sortKey: queued, entry });
    expect(jobAt('gsi1', productionKeys.jobsByStatus(tenant, 'scheduled'))).toEqual(keysOf(jobItem, 'gsi1'));
    expect(jobAt('gsi2', productionKeys.machineJobsByStatus(tenant, 2, 'scheduled'))).toEqual(keysOf(jobItem, 'gsi2'));
    expect(jobAt('gsi1', productionKeys.jobsCollection(tenant), true)).toEqual(keysOf(jobEntry, 'gsi1'));
    expect(jobAt('gsi2', productionKeys.machineJobs(tenant, 2), true)).toEqual(keysOf(jobEntry, 'gsi2'));

    const machine = { id: 2, type: 'cutter', status: 'idle', created_at: createdAt } as unknown as MachineRecord;
    const machineItem = machinePut(tenant, machine).Put!.Item!;
    const placed = machineSortKey('cutter', createdAt, 2);
    expect(cursorKeys.machine(tenant, 2, { index: 'gsi1', partition: productionKeys.machinesCollection(tenant), sortKey: placed })).toEqual(
      keysOf(machineItem, 'gsi1'),
    );
    expect(
      cursorKeys.machine(tenant, 2, { index: 'gsi2', partition: productionKeys.machinesByStatus(tenant, 'idle'), sortKey: placed }),
    ).toEqual(keysOf(machineItem, 'gsi2'));

    const file = {
      id: 4,
      purpose: 'artwork',
      status: 'ready',
      customer_id: 3,
      order_id: 9,
      created_at: createdAt,
    } as unknown as FileRecord;
    const stored = fileItem(tenant, file);
    expect(cursorKeys.file(tenant, 4, { index: 'gsi1', partition: fileKeys.filesCollection(tenant), sortKey: fileSortKey(file) })).toEqual(
      keysOf(stored, 'gsi1'),
    );
    expect(cursorKeys.file(tenant, 4, { index: 'gsi2', partition: fileKeys.orderFiles(tenant, 9), sortKey: fileSortKey(file) })).toEqual(
      keysOf(stored, 'gsi2'),
    );
    expect(fileIdOfSortKey(String(stored.gsi1sk))).toBe(4);
  });

  it("start the ranges of the jobs due before a date at the cursor's priority: the ones before it are past, the ones after it from their beginning", () => {
    const query: CollectionQuery = { index: 'gsi1', partition: 'P', newestFirst: false };
    const ranges = PRIORITY_RANKS.map((rank) => jobsDueBefore(rank, '2026-12-10'));
    const at = (sortKey: string) => ({ pk: 'x', sk: 'y', gsi1pk: 'P', gsi1sk: sortKey });
    const positions = (sortKey: string) => ranges.map((range) => startPosition({ ...query, sortKeyBetween: range }, at(sortKey)));
    // A high-priority job (rank 1) due within the bound.
    expect(positions(jobQueueSortKey(1, '2026-12-01', createdAt, 8))).toEqual(['past', 'within', 'before', 'before']);
    // Due after the bound, or without a due date: past its own range too.
    expect(positions(jobQueueSortKey(1, '2026-12-10', createdAt, 8))).toEqual(['past', 'past', 'before', 'before']);
    expect(positions(jobQueueSortKey(3, null, createdAt, 8))).toEqual(['past', 'past', 'past', 'past']);
    expect(positions(jobQueueSortKey(0, '2026-01-01', createdAt, 8))).toEqual(['within', 'before', 'before', 'before']);
  });

  it('go with page 1 only, each as an integer id', () => {
    for (const schema of [
      InvoiceListQuerySchema,
      CustomerInvoicesQuerySchema,
      QuoteListQuerySchema,
      CustomerQuotesQuerySchema,
      ShipmentListQuerySchema,
      OrderShipmentsQuerySchema,
      JobListQuerySchema,
      MachineListQuerySchema,
      FileListQuerySchema,
    ]) {
      expect(schema.safeParse({ starting_after: '42' }).data).toMatchObject({ page: 1, starting_after: 42 });
      const paged = schema.safeParse({ starting_after: '42', page: '2' });
      expect(paged.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['page', 'use either page or starting_after'],
      ]);
      for (const cursor of ['0', 'x', 'file_1', '1.5', '9007199254740993'])
        expect(schema.safeParse({ starting_after: cursor }).success, cursor).toBe(false);
    }
  });
});

describe('the staged-price-versions index keys', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'test' as const };
  const at = '2026-11-21T10:15:00.000Z';

  it('spread consecutive products and versions over every shard', () => {
    const shards = new Set<string>();
    for (let id = 1; id <= STAGING_SHARDS; id++) shards.add(legacyPriceSweepKeys.staged(id, 1, at).gsi3pk);
    expect([...shards].sort()).toEqual(
      Array.from({ length: STAGING_SHARDS }, (_, shard) => legacyPriceSweepKeys.stagingShard(shard)).sort(),
    );
    expect(legacyPriceSweepKeys.staged(7, 2, at).gsi3pk).not.toBe(legacyPriceSweepKeys.staged(7, 3, at).gsi3pk);
  });

  it('sort by time: an ISO cutoff bounds the entries started strictly before it', () => {
    const entry = legacyPriceSweepKeys.staged(12, 3, at).gsi3sk;
    expect(entry < '2026-11-21T10:15:00.001Z').toBe(true);
    expect(entry < at).toBe(false);
    expect(legacyPriceSweepKeys.staged(999, 99, '2026-11-21T10:14:59.999Z').gsi3sk < entry).toBe(true);
  });

  it('name their tenant, product and version by the record key, and nothing else', () => {
    expect(legacyPriceVersionOfKey(legacyProductKeys.legacyPriceVersion(tenant, 42, 7))).toEqual({ tenant, id: 42, version: 7 });
    expect(legacyPriceVersionOfKey(legacyProductKeys.legacyProduct(tenant, 42))).toBeUndefined();
    expect(
      legacyPriceVersionOfKey(legacyProductKeys.legacyPrice(tenant, 42, 7, { format: 'A4', color: '4/4', quantity: 1, pages: 2 })),
    ).toBeUndefined();
    expect(legacyPriceVersionOfKey({ ...webhookKeys.delivery(tenant, 'wh_1'), sk: 'PRICE_VERSION#000000000001' })).toBeUndefined();
  });
});
