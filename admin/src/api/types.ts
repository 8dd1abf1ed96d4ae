/**
 * The shapes the panel reads from and sends to the public API: the API's own types, taken from
 * the zod schemas its responses and its OpenAPI document are built from (shared/<resource>/schema.ts,
 * `z.output` of a response schema, `z.input` of a request body schema). Every import here is
 * `import type`, erased by the build: the panel bundles neither zod nor server code (the lint
 * keeps it so), and a field the API renames or retypes breaks `npm run typecheck`, not the panel.
 *
 * What is the panel's own — a list page as it keeps it, the filters it keeps in the address — is
 * defined below the API's shapes.
 */
import type { input, output } from 'zod';
import type { AccountView } from '#shared/accounts/schema';
import type { ErrorDetail as ApiErrorDetail } from '#shared/errors';
import type { Event } from '#shared/event-log/schema';
import type { FileView } from '#shared/files/schema';
import type { InvoiceSchema, PaymentCreateSchema } from '#shared/invoices/schema';
import type { Order as OrderView, OrderAddress } from '#shared/orders/schema';
import type { Job as JobView, JobUpdateSchema, Machine as MachineView, MachineQueue as MachineQueueView } from '#shared/production/schema';
import type { Proof as ProofView, ProofCreatedSchema, ProofCreateSchema } from '#shared/proofs/schema';
import type { Pagination as ApiPagination } from '#shared/schemas/pagination';
import type { Shipment as ShipmentView, ShipmentCreateSchema, TrackingSchema } from '#shared/shipments/schema';
import type {
  DeliveryDetail as DeliveryDetailView,
  Delivery as DeliveryView,
  Webhook as WebhookView,
  WebhookCreateSchema,
} from '#shared/webhooks/schema';
import type { storedAttempt } from '#shared/webhooks/stored';

// ---- Account and errors --------------------------------------------------------------------------

/** `GET /v1/account`: the account and the key making the call. */
export type Account = AccountView;
export type Mode = Account['mode'];
export type ErrorDetail = ApiErrorDetail;

// ---- Webhooks ------------------------------------------------------------------------------------

/** A registration. `secret` is complete only in the answers to create and rotate-secret. */
export type Webhook = WebhookView;
/** What the form sends on create (every field), and on update (the changed ones). */
export type WebhookInput = Required<input<typeof WebhookCreateSchema>>;

/** `wh_…`: one event to one registration; the same across retries and resends. */
export type Delivery = DeliveryView;
export type DeliveryStatus = Delivery['status'];
export type DeliveryAttempt = ReturnType<(typeof storedAttempt)['view']>;
/**
 * One delivery with its payload and attempts. The schema's `attempts` is typed `unknown[]` (its
 * items are a codec schema, `z.ZodType`), so the attempt's view type is taken from its stored shape.
 */
export type DeliveryDetail = Omit<DeliveryDetailView, 'attempts'> & { attempts: DeliveryAttempt[] };

// ---- The shop's day: orders, production, invoices, shipments, files, events ----------------------

export type Order = OrderView;
export type OrderStatus = Order['status'];
export type OrderLine = Order['items'][number];
export type Address = OrderAddress;

export type Job = JobView;
export type JobStatus = Job['status'];
export type JobPriority = Job['priority'];
export type JobChanges = input<typeof JobUpdateSchema>;
export type Machine = MachineView;
export type MachineStatus = Machine['status'];
export type MachineQueue = MachineQueueView;

export type Proof = ProofView;
export type ProofState = Proof['state'];
export type ProofDecision = Proof['decisions'][number];
/** The answer to a proof's creation: the proof with its link's token (shown once) and whether it was mailed. */
export type ProofCreated = output<typeof ProofCreatedSchema>;
export type ProofInput = input<typeof ProofCreateSchema>;

export type Invoice = output<typeof InvoiceSchema>;
export type InvoiceStatus = Invoice['status'];
export type PaymentMethod = Invoice['payments'][number]['method'];
export type PaymentInput = input<typeof PaymentCreateSchema>;

export type Shipment = ShipmentView;
export type ShipmentStatus = Shipment['status'];
export type Parcel = Shipment['parcels'][number];
export type ShipmentInput = input<typeof ShipmentCreateSchema>;
export type Tracking = output<typeof TrackingSchema>;

export type PrintFile = FileView;
export type ApiEvent = Event;

// ---- The panel's own -----------------------------------------------------------------------------

/**
 * The `pagination` block of a list. Every list the panel pages through has a total (docs/platform.md,
 * Lists); only the cursor lists without one (events) leave `total` and `total_pages` out.
 */
export type Pagination = ApiPagination;
export type CountedPagination = Pagination & Required<Pick<Pagination, 'total' | 'total_pages'>>;

/** A list answer as the client hands it on: `data` as `items`. */
export interface Page<T, P extends Pagination = CountedPagination> {
  items: T[];
  pagination: P;
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  event?: string;
  page: number;
}

export interface OrderFilters {
  status?: OrderStatus;
  customer_id?: number;
  created_from?: string;
  created_to?: string;
  /** Cursor: the orders after this id (the previous page's `next_cursor`). */
  after?: number;
}

export interface InvoiceFilters {
  status?: InvoiceStatus;
  overdue?: boolean;
  page: number;
}
