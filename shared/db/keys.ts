/**
 * Key patterns of the single table — the only module that builds keys. Every tenant key starts
 * with `T#<accountId>#<mode>` and every tenant key builder takes the tenant, so no code can
 * address another tenant's data by accident. The table of patterns is in docs/data-model.md.
 */
import type { Principal, Tenant } from '#shared/auth/principal';
import { padId } from '#shared/ids';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const tenantPrefix = (tenant: Tenant): string => `T#${tenant.accountId}#${tenant.mode}`;

/**
 * Platform (non-tenant) items: accounts and API keys. Route functions only read them (their roles
 * write `T#…` partitions alone); the accounts CLI writes them with the operator's credentials.
 */
export const platformKeys = {
  account: (accountId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  /** The key record listed under its account (holds the hash so revocation can find the lookup item). */
  accountApiKey: (accountId: string, keyId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: `KEY#${keyId}` }),
  accountApiKeyPrefix: 'KEY#',
  /** The lookup item the authorizer reads: by SHA-256 of the key. */
  apiKeyByHash: (hash: string): ItemKey => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  /** gsi1 partition listing all accounts, newest first. */
  accountsCollection: 'ACCOUNTS',
  /** The stage's keys for customer access tokens (current and previous; private halves sealed). */
  customerTokenKeys: { pk: 'SIGNING_KEYS', sk: 'CUSTOMER_TOKENS' } as ItemKey,
};

/**
 * The account's own settings — its name and company (seller) details, which `PUT /v1/account`
 * changes — in the account's tenant space, so that the route writing them stays within `T#…`. One
 * item for both modes (what a company is called does not depend on the key's mode), so its
 * partition is `T#<accountId>#ACCOUNT`, next to the two modes' `T#<accountId>#test|live`.
 */
export const accountSettingsKey = (accountId: string): ItemKey => ({ pk: `T#${accountId}#ACCOUNT`, sk: 'SETTINGS' });

/** Which products a product list index partition holds. */
/**
 * Whose Idempotency-Key records these are: the caller's kind, its customer for a customer token,
 * and for a publishable key the key and the client address it is used from.
 */
export type IdempotencyCaller = Pick<Principal, 'kind' | 'customerId'> & { keyId?: string; client?: string };

export type ProductListState = 'all' | 'active' | 'inactive';

/** Named per-tenant sequences (integer ids) and totals (list counts). */
export type SequenceName =
  | 'customer'
  | 'address'
  | 'order'
  | 'product'
  | 'legacy_product'
  | 'invoice'
  | 'credit_note'
  | 'quote'
  | 'job'
  | 'machine'
  | 'shipment'
  | 'file'
  | 'webhook'
  | 'proof';

/**
 * A gap-free number counter's companions (shared/db/gap-free.ts). The counter item itself (an
 * invoice's `SEQ#invoice_number#<year>`, a quote's, a credit note's) holds the last number and the
 * turn served; beside it, in the same partition, the ticket counter that writers take their turn
 * from with an atomic `ADD` (apart from the counter item, so that taking a ticket never collides
 * with the transaction that commits a turn).
 */
export const gapFreeKeys = {
  tickets: (counter: ItemKey): ItemKey => ({ pk: counter.pk, sk: `${counter.sk}#TICKETS` }),
};

export const tenantKeys = {
  sequence: (tenant: Tenant, name: SequenceName): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `SEQ#${name}` }),
  total: (tenant: Tenant, collection: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `COUNT#${collection}` }),
  /** Order numbers restart every year (`ORD-2026-000001`): one counter per year, apart from the id sequence. */
  orderNumberSequence: (tenant: Tenant, year: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `SEQ#order_number#${year}` }),

  customer: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CUSTOMER#${id}`, sk: 'CUSTOMER' }),
  /** Addresses live in their customer's partition: one Query reads a customer with all addresses. */
  address: (tenant: Tenant, customerId: number, addressId: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CUSTOMER#${customerId}`,
    sk: `ADDRESS#${padId(addressId)}`,
  }),
  addressPrefix: 'ADDRESS#',
  /** Uniqueness marker: one per (tenant, lower-cased email), written in the same transaction as the customer. */
  customerEmail: (tenant: Tenant, email: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CUSTOMER_EMAIL#${email.toLowerCase()}`,
    sk: 'UNIQUE',
  }),
  customersCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CUSTOMERS`,
  customersByName: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CUSTOMERS_BY_NAME`,

  product: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#PRODUCT#${id}`, sk: 'PRODUCT' }),
  /**
   * Stand-ins for a product in further list orderings (an item has only two index slots), kept in
   * the product's partition and written in the same transaction as the product.
   */
  productListEntry: (tenant: Tenant, id: number, ordering: 'BY_NAME' | 'BY_CATEGORY'): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#PRODUCT#${id}`,
    sk: `LIST#${ordering}`,
  }),
  /** The product item a list entry (or the product's own index entry) stands for. */
  productOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'PRODUCT' }),
  /** Index partitions of product lists; `state` is `all`, `active` or `inactive`. */
  productsCollection: (tenant: Tenant, state: ProductListState): string => `${tenantPrefix(tenant)}#PRODUCTS#${state}`,
  productsByName: (tenant: Tenant, state: ProductListState): string => `${tenantPrefix(tenant)}#PRODUCTS_BY_NAME#${state}`,
  productsByCategory: (tenant: Tenant, state: ProductListState, category: string): string =>
    `${tenantPrefix(tenant)}#PRODUCTS_BY_CATEGORY#${state}#${category.toLowerCase()}`,

  order: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#ORDER#${id}`, sk: 'ORDER' }),
  /** Stands in for the order in its customer's lists (the order item's two index slots are taken). */
  orderListEntry: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#ORDER#${id}`, sk: 'LIST#BY_CUSTOMER' }),
  /** The order item a list entry (or the order's own index entry) stands for. */
  orderOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'ORDER' }),
  /** Index partitions of order lists, newest first: all, one status, one customer, one customer and status. */
  ordersCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#ORDERS`,
  ordersByStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#ORDERS#${status}`,
  customerOrders: (tenant: Tenant, customerId: number): string => `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#ORDERS`,
  customerOrdersByStatus: (tenant: Tenant, customerId: number, status: string): string =>
    `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#ORDERS#${status}`,

  event: (tenant: Tenant, eventId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#EVENT#${eventId}`, sk: 'EVENT' }),
  /**
   * Rate-limit counter of one fixed window (`minute` or `hour` starting at Unix second `start`);
   * expires by TTL. The secret keys of a tenant share one counter; a publishable key counts per
   * client address (`client`: an IPv4 address or an IPv6 /64), each in a partition of its own so
   * a busy storefront spreads its writes; so does a signed-in customer (their access tokens).
   */
  rateWindow: (
    tenant: Tenant,
    kind: 'minute' | 'hour',
    start: number,
    holder?: { keyId: string; client: string } | { customerId: number },
  ): ItemKey => ({
    pk: !holder
      ? `${tenantPrefix(tenant)}#RATE`
      : 'customerId' in holder
        ? `${tenantPrefix(tenant)}#RATE#CUSTOMER#${holder.customerId}`
        : `${tenantPrefix(tenant)}#RATE#KEY#${holder.keyId}#${holder.client}`,
    sk: `${kind}#${start}`,
  }),
  /** Audit records of a tenant, one partition, sorted by time then request id; 90-day TTL. */
  audit: (tenant: Tenant, at: string, requestId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#AUDIT`, sk: `${at}#${requestId}` }),
  auditPartition: (tenant: Tenant): string => `${tenantPrefix(tenant)}#AUDIT`,
  /**
   * An Idempotency-Key's record, by the key's SHA-256; all of a tenant's share one partition. Scoped
   * per caller kind, so a publishable key (public, in browsers) cannot claim the key a merchant's
   * server will send; per customer for customer tokens, so no customer meets another's answer; and
   * per publishable key and client address (the rate limiter's client: an IPv4 address, an IPv6
   * /64) for storefront visitors, so one visitor never replays or blocks another's request. Secret
   * keys keep the unprefixed sort key their records have always had.
   */
  idempotency: (tenant: Tenant, caller: IdempotencyCaller, keyHash: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#IDEMPOTENCY`,
    sk:
      caller.kind === 'secret'
        ? `idempotency#${keyHash}`
        : caller.kind === 'customer'
          ? `idempotency#customer#${caller.customerId}#${keyHash}`
          : `idempotency#${caller.kind}#${caller.keyId ?? 'unknown'}#${caller.client ?? 'unknown'}#${keyHash}`,
  }),
  /** gsi1 partition of a tenant's events, in creation order (event ids are time-ordered). */
  eventsCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#EVENTS`,
  /** gsi2 partition of a tenant's events of one kind, in creation order (`GET /v1/events?type=`). */
  eventsOfKind: (tenant: Tenant, kind: string): string => `${tenantPrefix(tenant)}#EVENTS#${kind}`,
};

/**
 * Legacy products and their price tables. Apart from `tenantKeys` (as the groups below) so that
 * only the bundles of the resource carry them: every bundle carries `tenantKeys` whole.
 */
export const legacyProductKeys = {
  legacyProduct: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#LEGACY_PRODUCT#${id}`, sk: 'LEGACY_PRODUCT' }),
  legacyProductsCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#LEGACY_PRODUCTS`,
  /** A legacy product's position in the list (gsi1, newest first), where a cursor starts after: index and table keys. */
  listPosition: (tenant: Tenant, id: number, createdAt: string): Record<string, string> => ({
    ...legacyProductKeys.legacyProduct(tenant, id),
    gsi1pk: legacyProductKeys.legacyProductsCollection(tenant),
    gsi1sk: createdSortKey(createdAt, id),
  }),
  /** Bookkeeping of a price-table version that is being written or waits for removal. */
  legacyPriceVersion: (tenant: Tenant, id: number, version: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#LEGACY_PRODUCT#${id}`,
    sk: `PRICE_VERSION#${padId(version)}`,
  }),
  legacyPriceVersionPrefix: 'PRICE_VERSION#',
  /**
   * One partition per (product, version, format, color) spreads a large table's writes; the
   * values are URI-encoded so that a `#` inside them cannot make two keys collide.
   */
  legacyPricePartition: (tenant: Tenant, id: number, version: number, format: string, color: string): string =>
    `${tenantPrefix(tenant)}#LEGACY_PRICE#${id}#${version}#${encodeURIComponent(format)}#${encodeURIComponent(color)}`,
  /** One price: calculate is a single GetItem on this key. */
  legacyPrice: (
    tenant: Tenant,
    id: number,
    version: number,
    cell: { format: string; color: string; quantity: number; pages: number },
  ): ItemKey => ({
    pk: legacyProductKeys.legacyPricePartition(tenant, id, version, cell.format, cell.color),
    sk: `${padId(cell.quantity)}#${padId(cell.pages)}`,
  }),
};

/** Webhook registrations, deliveries and redelivery requests. */
export const webhookKeys = {
  /** All registrations of a tenant share one partition: the router reads them with one Query. */
  webhook: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#WEBHOOKS`, sk: `WEBHOOK#${padId(id)}` }),
  webhooksPartition: (tenant: Tenant): string => `${tenantPrefix(tenant)}#WEBHOOKS`,
  webhookPrefix: 'WEBHOOK#',
  /** A delivery (one event to one registration), its attempts inside it; its redelivery requests share the partition. */
  delivery: (tenant: Tenant, deliveryId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /** A redelivery request: its stream insert makes the router enqueue the delivery again. */
  deliveryRequest: (tenant: Tenant, deliveryId: string, token: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#DELIVERY#${deliveryId}`,
    sk: `REQUEST#${token}`,
  }),
  /** gsi1 partition: a registration's deliveries, newest first (delivery ids are time-ordered). */
  webhookDeliveries: (tenant: Tenant, webhookId: number): string => `${tenantPrefix(tenant)}#WEBHOOK#${webhookId}#DELIVERIES`,
  /** gsi2 partition: the same, per status (moved when the status changes). */
  webhookDeliveriesByStatus: (tenant: Tenant, webhookId: number, status: string): string =>
    `${tenantPrefix(tenant)}#WEBHOOK#${webhookId}#DELIVERIES#${status}`,
};

/**
 * Production jobs and machines. Apart from `tenantKeys` so that only the bundles that deal with
 * production (and orders' status changes, which create and cancel jobs) carry them.
 */
export const productionKeys = {
  job: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#JOB#${id}`, sk: 'JOB' }),
  /**
   * Stands in for the job in the lists of all jobs (gsi1) and of one machine's jobs (gsi2): the job
   * item's own two index slots hold the lists by status, the ones a status change moves.
   */
  jobListEntry: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#JOB#${id}`, sk: 'LIST#ALL' }),
  /** The job item a list entry (or the job's own index entry) stands for. */
  jobOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'JOB' }),
  /** Index partitions of job lists, in queue order (jobQueueSortKey): all, one status, one machine, one machine and status. */
  jobsCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#JOBS`,
  jobsByStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#JOBS#${status}`,
  machineJobs: (tenant: Tenant, machineId: number): string => `${tenantPrefix(tenant)}#MACHINE#${machineId}#JOBS`,
  machineJobsByStatus: (tenant: Tenant, machineId: number, status: string): string =>
    `${tenantPrefix(tenant)}#MACHINE#${machineId}#JOBS#${status}`,

  /**
   * A job waiting for the approval of a proof of its line (shared/proofs): a sparse entry in the
   * job's partition, present only while it waits, listing it (gsi1) among the jobs awaiting approval.
   */
  jobAwaitingEntry: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#JOB#${id}`, sk: 'LIST#AWAITING_APPROVAL' }),
  jobsAwaitingApproval: (tenant: Tenant): string => `${tenantPrefix(tenant)}#JOBS_AWAITING_APPROVAL`,

  machine: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#MACHINE#${id}`, sk: 'MACHINE' }),
  /** Index partitions of machine lists, by type then creation: all (gsi1), one status (gsi2); a type is a sort-key prefix. */
  machinesCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#MACHINES`,
  machinesByStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#MACHINES#${status}`,
};

/**
 * Invoices, their list entries and their documents. Apart from `tenantKeys` so that only the
 * bundles that deal with invoices carry them.
 */
export const invoiceKeys = {
  invoice: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#INVOICE#${id}`, sk: 'INVOICE' }),
  /**
   * Stand-ins for the invoice in further lists (the invoice item's two index slots hold "all" and
   * "one status"), in the invoice's partition, written in the invoice's own transactions:
   * `CUSTOMER` (a customer's, and a customer's of one status), `ORDER` (an order's; only with an
   * order), `DUE` (all by due date), `UNPAID` (open and sent ones by due date; deleted when paid or voided).
   */
  listEntry: (tenant: Tenant, id: number, list: 'CUSTOMER' | 'ORDER' | 'DUE' | 'UNPAID'): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#INVOICE#${id}`,
    sk: `LIST#${list}`,
  }),
  /** The invoice item a list entry (or the invoice's own index entry) stands for. */
  invoiceOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'INVOICE' }),
  /** Marks the order's one invoice that is not void: put with the invoice (attribute_not_exists), deleted by its void. */
  orderInvoice: (tenant: Tenant, orderId: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#ORDER#${orderId}`, sk: 'INVOICE' }),
  /** Invoice numbers: one counter per year, moved only inside the creating transaction, in turn (shared/db/gap-free.ts). */
  numberSequence: (tenant: Tenant, year: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `SEQ#invoice_number#${year}` }),
  /** Index partitions: all and one status (newest first), a customer's (and of one status), an order's; by due date: all, unpaid. */
  collection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#INVOICES`,
  byStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#INVOICES#${status}`,
  ofCustomer: (tenant: Tenant, customerId: number): string => `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#INVOICES`,
  ofCustomerByStatus: (tenant: Tenant, customerId: number, status: string): string =>
    `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#INVOICES#${status}`,
  ofOrder: (tenant: Tenant, orderId: number): string => `${tenantPrefix(tenant)}#ORDER#${orderId}#INVOICES`,
  byDueDate: (tenant: Tenant): string => `${tenantPrefix(tenant)}#INVOICES#BY_DUE`,
  unpaidByDueDate: (tenant: Tenant): string => `${tenantPrefix(tenant)}#INVOICES#UNPAID_BY_DUE`,
  /**
   * S3 object key of a rendered document of one invoice version: tenant first (a bucket policy or
   * a lifecycle rule can address one tenant), then the invoice and the version, so a new version
   * never overwrites what was served for an older one.
   */
  document: (tenant: Tenant, id: number, version: number, file: 'invoice.pdf' | 'invoice-cii.xml' | 'invoice-ubl.xml'): string =>
    `${tenant.accountId}/${tenant.mode}/invoices/${id}/v${version}/${file}`,
  /**
   * The documents of an invoice with payments (BT-113, the amount paid, and the amount due after it):
   * beside the documents as issued, one folder per amount paid (minor units), so the document as
   * issued is never replaced and each state of payment has its own.
   */
  paidDocument: (
    tenant: Tenant,
    id: number,
    version: number,
    amountPaid: number,
    file: 'invoice.pdf' | 'invoice-cii.xml' | 'invoice-ubl.xml',
  ): string => `${tenant.accountId}/${tenant.mode}/invoices/${id}/v${version}/paid-${amountPaid}/${file}`,
};

/**
 * Credit notes (corrections of an invoice, UNTDID 1001 type 381). The invoice item carries what
 * was credited (shared/invoices/credits.ts); a credit note is one item, listed newest first.
 */
export const creditNoteKeys = {
  creditNote: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CREDIT_NOTE#${id}`, sk: 'CREDIT_NOTE' }),
  /** Credit note numbers `CN-<year>-<n>`: one gap-free counter per year, moved only inside the creating transaction. */
  numberSequence: (tenant: Tenant, year: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#META`,
    sk: `SEQ#credit_note_number#${year}`,
  }),
  /** Index partition of all credit notes (gsi1, newest first). */
  collection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CREDIT_NOTES`,
  /** S3 object key of a credit note's rendered document (the invoice's layout: tenant, resource, version). */
  document: (
    tenant: Tenant,
    id: number,
    version: number,
    file: 'credit-note.pdf' | 'credit-note-cii.xml' | 'credit-note-ubl.xml',
  ): string => `${tenant.accountId}/${tenant.mode}/credit-notes/${id}/v${version}/${file}`,
};

/**
 * Quotes and their customer list entries. Apart from `tenantKeys` so that only the bundles that
 * deal with quotes carry them.
 */
export const quoteKeys = {
  quote: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#QUOTE#${id}`, sk: 'QUOTE' }),
  /** Stands in for the quote in its customer's lists (the quote item's two slots hold "all" and "one status"). */
  customerEntry: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#QUOTE#${id}`, sk: 'LIST#BY_CUSTOMER' }),
  /** The quote item a list entry (or the quote's own index entry) stands for. */
  quoteOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'QUOTE' }),
  /** Quote numbers: one gap-free counter per year, taken in turn (shared/db/gap-free.ts). */
  numberSequence: (tenant: Tenant, year: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `SEQ#quote_number#${year}` }),
  /**
   * Index partitions: all (gsi1, by creation) and one stored status (gsi2) — the open ones sorted by
   * validity (so "open" and "expired" are two ranges of one partition), the others by creation; a
   * customer's the same through its entry.
   */
  collection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#QUOTES`,
  byStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#QUOTES#${status}`,
  ofCustomer: (tenant: Tenant, customerId: number): string => `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#QUOTES`,
  ofCustomerByStatus: (tenant: Tenant, customerId: number, status: string): string =>
    `${tenantPrefix(tenant)}#CUSTOMER#${customerId}#QUOTES#${status}`,
  /** S3 key of a quote version's PDF (a quote changes while open: each version has its own). */
  document: (tenant: Tenant, id: number, version: number): string =>
    `${tenant.accountId}/${tenant.mode}/quotes/${id}/v${version}/quote.pdf`,
};

/**
 * Customer logins: refresh tokens (by the SHA-256 of the token) and their families (one per
 * login, rotated tokens stay in it). Apart from `tenantKeys` so that only the auth bundles carry them.
 */
export const customerAuthKeys = {
  refreshToken: (tenant: Tenant, tokenHash: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#REFRESH#${tokenHash}`, sk: 'REFRESH' }),
  family: (tenant: Tenant, familyId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#REFRESH_FAMILY#${familyId}`, sk: 'FAMILY' }),
  /** A customer's login (its password hash), in the customer's partition: deleted with the customer. */
  login: (tenant: Tenant, customerId: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CUSTOMER#${customerId}`, sk: 'LOGIN' }),
  /** A password-reset token, by its SHA-256: single use, 30 minutes. */
  passwordReset: (tenant: Tenant, tokenHash: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#PASSWORD_RESET#${tokenHash}`,
    sk: 'RESET',
  }),
  /** A registration waiting for its mailed code, by the code's SHA-256: single use, 30 minutes. */
  registration: (tenant: Tenant, codeHash: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#REGISTRATION#${codeHash}`,
    sk: 'REGISTRATION',
  }),
  /** Failed logins of one email (by the SHA-256 of the lower-cased address): the lockout counter. */
  loginFailures: (tenant: Tenant, emailHash: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#LOGIN_FAILURES#${emailHash}`,
    sk: 'FAILURES',
  }),
};

/**
 * Files: the record by id; the tenant's files (gsi1) and one order's (gsi2), newest first; and the
 * objects in the files bucket — never named after anything a client sent. A presigned upload lands
 * under `tmp/` (expired by the bucket's lifecycle when never completed) and moves to `files/` once
 * checked.
 */
export const fileKeys = {
  file: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#FILE#${id}`, sk: 'FILE' }),
  filesCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#FILES`,
  orderFiles: (tenant: Tenant, orderId: number): string => `${tenantPrefix(tenant)}#ORDER#${orderId}#FILES`,
  /**
   * The tenant's uploads of one UTC day (`2026-03-01`): a count and bytes, against its plan's quota;
   * with `customerId`, that customer's uploads of the day (a customer token's, counted apart).
   */
  uploadQuota: (tenant: Tenant, day: string, customerId?: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#FILE_QUOTA`,
    sk: customerId === undefined ? `day#${day}` : `customer#${customerId}#day#${day}`,
  }),
  pendingObject: (tenant: Tenant, id: number): string => `tmp/uploads/${tenant.accountId}/${tenant.mode}/${padId(id)}`,
  object: (tenant: Tenant, id: number): string => `files/${tenant.accountId}/${tenant.mode}/${padId(id)}`,
};

/**
 * Proofs and approvals (docs/proofs.md): the proof item, its one decision record beside it (put
 * once, never updated or deleted), an order line's approval marker in the order's partition (the
 * proof that covers the line, and the SHA-256 of the artwork approved), and a capability link by
 * the SHA-256 of its token. Apart from `tenantKeys` so that only the bundles that deal with proofs
 * (and the job moves gated on them) carry them.
 */
export const proofKeys = {
  proof: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#PROOF#${id}`, sk: 'PROOF' }),
  /** The decision on a proof: one per proof (`attribute_not_exists`), immutable. */
  decision: (tenant: Tenant, proofId: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#PROOF#${proofId}`, sk: 'DECISION' }),
  /** gsi1 partition: an order's proofs, newest first. */
  ofOrder: (tenant: Tenant, orderId: number): string => `${tenantPrefix(tenant)}#ORDER#${orderId}#PROOFS`,
  /** An order line's approval marker, in the order's partition (not the order item: orders keep their one writer). */
  lineApproval: (tenant: Tenant, orderId: number, lineId: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#ORDER#${orderId}`,
    sk: `PROOF_LINE#${padId(lineId)}`,
  }),
  /** A proof link, by the SHA-256 of its token (the token itself is never stored). */
  link: (tenant: Tenant, tokenHash: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#PROOF_LINK#${tokenHash}`, sk: 'LINK' }),
};

/** Sort key of the due-date lists: the due date (a range bound), then creation. */
export const dueSortKey = (dueDate: string, createdAt: string, id: number): string => `${dueDate}#${createdSortKey(createdAt, id)}`;

/**
 * List cursors: where a Query starts after (its `ExclusiveStartKey`). Apart from `tenantKeys` so
 * that only the bundles of the lists carry them.
 */
export const cursorKeys = {
  /** A position in the audit partition: the key of the record with sort key `sortKey`. */
  audit: (tenant: Tenant, sortKey: string): ItemKey => ({ pk: tenantKeys.auditPartition(tenant), sk: sortKey }),
  /** An event's position in its tenant's collection (gsi1) or, with `kind`, its kind's (gsi2): index and table keys. */
  event: (tenant: Tenant, eventId: string, kind?: string): Record<string, string> => ({
    ...tenantKeys.event(tenant, eventId),
    ...(kind === undefined
      ? { gsi1pk: tenantKeys.eventsCollection(tenant), gsi1sk: eventId }
      : { gsi2pk: tenantKeys.eventsOfKind(tenant, kind), gsi2sk: eventId }),
  }),
  /**
   * A product's position in one of its lists (`at`: the list's index partition and the product's
   * sort key there): the product item in the newest-first lists, its list entry `ordering` in the
   * name-ordered ones (by name, by category). Index and table keys.
   */
  product: (tenant: Tenant, id: number, at: ListPosition & { ordering?: 'BY_NAME' | 'BY_CATEGORY' }): Record<string, string> => ({
    ...(at.ordering === undefined ? tenantKeys.product(tenant, id) : tenantKeys.productListEntry(tenant, id, at.ordering)),
    ...indexPosition(at),
  }),
  /** A customer's position in a customer list (newest first on gsi1, by name on gsi2): index and table keys. */
  customer: (tenant: Tenant, id: number, at: ListPosition): Record<string, string> => ({
    ...tenantKeys.customer(tenant, id),
    ...indexPosition(at),
  }),
  /**
   * An invoice's position in an invoice list: the invoice item in the lists of all and of one
   * status, its list entry `entry` in the others (a customer's, an order's, by due date, unpaid).
   */
  invoice: (
    tenant: Tenant,
    id: number,
    at: ListPosition & { entry?: 'CUSTOMER' | 'ORDER' | 'DUE' | 'UNPAID' },
  ): Record<string, string> => ({
    ...(at.entry === undefined ? invoiceKeys.invoice(tenant, id) : invoiceKeys.listEntry(tenant, id, at.entry)),
    ...indexPosition(at),
  }),
  /** A credit note's position in the credit note list (gsi1, by creation): index and table keys. */
  creditNote: (tenant: Tenant, id: number, at: ListPosition): Record<string, string> => ({
    ...creditNoteKeys.creditNote(tenant, id),
    ...indexPosition(at),
  }),
  /** A quote's position in a quote list: the quote item, or (`entry`) its customer entry in a customer's lists. */
  quote: (tenant: Tenant, id: number, at: ListPosition & { entry?: boolean }): Record<string, string> => ({
    ...(at.entry ? quoteKeys.customerEntry(tenant, id) : quoteKeys.quote(tenant, id)),
    ...indexPosition(at),
  }),
  /** A shipment's position in a shipment list: the shipment item, or (`entry`) its carrier entry in a carrier's lists. */
  shipment: (tenant: Tenant, id: number, at: ListPosition & { entry?: boolean }): Record<string, string> => ({
    ...(at.entry ? shipmentKeys.carrierEntry(tenant, id) : shipmentKeys.shipment(tenant, id)),
    ...indexPosition(at),
  }),
  /** A job's position in a job list: the job item in the lists by status, (`entry`) its list entry in all jobs and a machine's. */
  job: (tenant: Tenant, id: number, at: ListPosition & { entry?: boolean }): Record<string, string> => ({
    ...(at.entry ? productionKeys.jobListEntry(tenant, id) : productionKeys.job(tenant, id)),
    ...indexPosition(at),
  }),
  /** A machine's position in a machine list (all on gsi1, one status on gsi2): index and table keys. */
  machine: (tenant: Tenant, id: number, at: ListPosition): Record<string, string> => ({
    ...productionKeys.machine(tenant, id),
    ...indexPosition(at),
  }),
  /** A file's position in a file list (the tenant's on gsi1, an order's on gsi2): index and table keys. */
  file: (tenant: Tenant, id: number, at: ListPosition): Record<string, string> => ({
    ...fileKeys.file(tenant, id),
    ...indexPosition(at),
  }),
};

/** Where an entry sits in a list: the index, its partition there and its sort key. */
export interface ListPosition {
  index: 'gsi1' | 'gsi2';
  partition: string;
  sortKey: string;
}

const indexPosition = (at: ListPosition): Record<string, string> => ({ [`${at.index}pk`]: at.partition, [`${at.index}sk`]: at.sortKey });

/**
 * The pending-deliveries index (gsi3, sparse and keys-only): every delivery while it is `pending`,
 * across tenants, sorted by when its queue message should next act on it — its creation, its next
 * attempt, a redelivery or a re-arm. Only the delivery sweeper reads it (a worker, never a request
 * path): entries due longer ago than its grace are deliveries whose message was lost. Spread over
 * DUE_SHARDS partitions by delivery id so that no single index partition takes every delivery write.
 */
export const DUE_SHARDS = 8;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const sweepKeys = {
  /** The gsi3 partition of shard `shard` (0 … DUE_SHARDS − 1). */
  dueShard: (shard: number): string => `DUE#${shard}`,
  /** The gsi3 attributes of a pending delivery whose message should act at `due` (ISO time). */
  pendingDue: (deliveryId: string, due: string): { gsi3pk: string; gsi3sk: string } => ({
    // The id ends in hash characters (shared/webhooks/delivery-id.ts): evenly spread.
    gsi3pk: sweepKeys.dueShard(Math.max(0, base62.indexOf(deliveryId.at(-1) ?? '0')) % DUE_SHARDS),
    gsi3sk: `${due}#${deliveryId}`,
  }),
  /** Sorts after every entry due at or before `time` (ISO). */
  dueBefore: (time: string): string => `${time}#~`,
};

/** The tenant and delivery id of a delivery item's key (a gsi3 entry names its delivery only by key). */
export function deliveryOfKey(key: ItemKey): { tenant: Tenant; deliveryId: string } | undefined {
  const match = /^T#([^#]+)#(test|live)#DELIVERY#([^#]+)$/.exec(key.pk);
  if (!match || key.sk !== 'DELIVERY') return undefined;
  return { tenant: { accountId: match[1]!, mode: match[2] as Tenant['mode'] }, deliveryId: match[3]! };
}

/**
 * Index sort key of a delivery: its time-ordered id, then its event kind, so an `event` filter
 * can be applied to the keys-only index entries without fetching items.
 */
export const deliverySortKey = (deliveryId: string, kind: string): string => `${deliveryId}#${kind}`;

/** The delivery id at the start of a delivery's index sort key. */
export const deliveryIdOfSortKey = (sortKey: string): string => sortKey.split('#')[0]!;

/**
 * The staged-price-versions index (gsi3, sparse and keys-only, like the pending deliveries below
 * it): every legacy price-version record — a table being written (`writing`) or replaced
 * (`retired`) — across tenants, sorted by when it was started or retired. The live version never
 * has a record (the transaction that makes it live deletes it), so nothing live is listed. Only the
 * legacy price sweeper reads it (a worker): a record listed for over an hour is what a create or
 * import that died left, or what an import's own cleanup had no time for. Spread over
 * STAGING_SHARDS partitions by product id and version so that no single index partition takes every
 * write of a bulk import. Kept out of `legacyProductKeys` so that only the legacy-product bundles
 * that write or sweep records carry it.
 */
export const STAGING_SHARDS = 4;

export const legacyPriceSweepKeys = {
  /** The gsi3 partition of shard `shard` (0 … STAGING_SHARDS − 1). */
  stagingShard: (shard: number): string => `LEGACY_PRICE_STAGING#${shard}`,
  /** The gsi3 attributes of the record of version `version` of product `id`, started (or retired) at `at` (ISO). */
  staged: (id: number, version: number, at: string): { gsi3pk: string; gsi3sk: string } => ({
    // A bulk create takes consecutive ids and an import the next version: consecutive records change shard.
    gsi3pk: legacyPriceSweepKeys.stagingShard((id + version) % STAGING_SHARDS),
    gsi3sk: `${at}#${padId(id)}#${padId(version)}`,
  }),
};

/** The tenant, product and version of a legacy price-version record's key (a gsi3 entry names its record only by key). */
export function legacyPriceVersionOfKey(key: ItemKey): { tenant: Tenant; id: number; version: number } | undefined {
  const product = /^T#([^#]+)#(test|live)#LEGACY_PRODUCT#(\d+)$/.exec(key.pk);
  const version = /^PRICE_VERSION#(\d+)$/.exec(key.sk);
  if (!product || !version) return undefined;
  return {
    tenant: { accountId: product[1]!, mode: product[2] as Tenant['mode'] },
    id: Number(product[3]),
    version: Number(version[1]),
  };
}

/** Sort key of creation-ordered collections: ISO time then padded id (newest first when reversed). */
export const createdSortKey = (createdAt: string, id: number): string => `${createdAt}#${padId(id)}`;

/** Sort key of name-ordered collections (customers and products by name): the lower-cased name, then the padded id. */
export const nameSortKey = (name: string, id: number): string => `${name.toLowerCase()}#${padId(id)}`;

/** Sorts after every real due date: jobs without one come last within their priority. */
const NO_DUE_DATE = '9999-12-31';

/**
 * Sort key of the job lists: the queue order a shop works in — priority (`rank`, 0 = rush first),
 * then due date (none: last), then creation. Ends in the padded id, so it is unique.
 */
export const jobQueueSortKey = (rank: number, dueDate: string | null, createdAt: string, id: number): string =>
  `${rank}#${dueDate ?? NO_DUE_DATE}#${createdSortKey(createdAt, id)}`;

/** The jobs of priority `rank` due before `date` (exclusive; jobs without a due date never are): a sort-key range. */
export const jobsDueBefore = (rank: number, date: string): [string, string] => [`${rank}#`, `${rank}#${date}`];

/** Sort key of the machine lists: type (a prefix the type filter uses), then creation. */
export const machineSortKey = (type: string, createdAt: string, id: number): string => `${type}#${createdSortKey(createdAt, id)}`;

/**
 * Shipments, their orders' shipping summaries, carrier parcel references and carrier settings.
 * Apart from `tenantKeys` so that only the bundles that deal with shipments carry them.
 */
export const shipmentKeys = {
  shipment: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#SHIPMENT#${id}`, sk: 'SHIPMENT' }),
  /** Stands in for the shipment in the carrier lists (the shipment item's two slots hold "all" and "one status"). */
  carrierEntry: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#SHIPMENT#${id}`, sk: 'LIST#BY_CARRIER' }),
  /** The shipment item a list entry (or the shipment's own index entry) stands for. */
  shipmentOfListEntry: (entry: ItemKey): ItemKey => ({ pk: entry.pk, sk: 'SHIPMENT' }),
  /** Index partitions, newest first: all (gsi1) and one status (gsi2); one carrier (gsi1) and one carrier and status (gsi2). */
  collection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#SHIPMENTS`,
  byStatus: (tenant: Tenant, status: string): string => `${tenantPrefix(tenant)}#SHIPMENTS#${status}`,
  byCarrier: (tenant: Tenant, carrier: string): string => `${tenantPrefix(tenant)}#SHIPMENTS_BY_CARRIER#${carrier}`,
  byCarrierAndStatus: (tenant: Tenant, carrier: string, status: string): string =>
    `${tenantPrefix(tenant)}#SHIPMENTS_BY_CARRIER#${carrier}#${status}`,
  /**
   * An order's shipping summary, in the order's partition: its shipments (id, status, the line
   * quantities each carries) and its version. Every shipment change of the order moves it,
   * conditionally, in the change's own transaction.
   */
  orderShipping: (tenant: Tenant, orderId: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#ORDER#${orderId}`, sk: 'SHIPPING' }),
  /** Which shipment a carrier's parcel id belongs to (callbacks name parcels): put when the label is recorded. */
  parcel: (tenant: Tenant, carrier: string, parcelId: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CARRIER_PARCEL#${carrier}#${encodeURIComponent(parcelId)}`,
    sk: 'PARCEL',
  }),
  /** A tenant's carrier settings (credentials sealed), all in one partition: listing them is one Query. */
  carrierSettings: (tenant: Tenant, carrier: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CARRIERS`, sk: `CARRIER#${carrier}` }),
  carriersPartition: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CARRIERS`,
  /** S3 key of one parcel's label (1-based); a label never changes once made. */
  label: (tenant: Tenant, id: number, parcel: number): string => `${tenant.accountId}/${tenant.mode}/shipments/${id}/label-${parcel}.pdf`,
  /** S3 key of a shipment's return label (one return per shipment, one parcel); it never changes once made. */
  returnLabel: (tenant: Tenant, id: number): string => `${tenant.accountId}/${tenant.mode}/shipments/${id}/return-label.pdf`,
  /** S3 key of a shipment's delivery note: rendered once (what a shipment carries and where never changes). */
  deliveryNote: (tenant: Tenant, id: number): string => `${tenant.accountId}/${tenant.mode}/shipments/${id}/delivery-note.pdf`,
};

/**
 * Carts (docs/carts.md): a session cart is addressed by its random id — the id is the capability —
 * and a customer's one cart by the customer. Each is one item holding its lines, so a cart is read
 * with one GetItem and written with one conditional write.
 */
export const cartKeys = {
  sessionCart: (tenant: Tenant, cartId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CART#${cartId}`, sk: 'CART' }),
  customerCart: (tenant: Tenant, customerId: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CUSTOMER_CART#${customerId}`,
    sk: 'CART',
  }),
};
