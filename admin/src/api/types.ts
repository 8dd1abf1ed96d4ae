/**
 * The shapes the panel reads from the public API (see shared/webhooks/schema.ts and
 * shared/accounts/contract.ts, and the OpenAPI document). The panel is an API client like any
 * integrator's, so it keeps its own copy of the fields it uses rather than importing server code.
 */

export type Mode = 'test' | 'live';

export interface Account {
  id: string;
  name: string;
  plan: string;
  currency: string;
  tax_rate: number;
  mode: Mode;
  limits: { per_minute: number; per_hour: number | null };
  key: { id: string; prefix: string; kind: 'secret' | 'publishable'; scopes: string[] };
}

export interface Pagination {
  page: number;
  per_page: number;
  /** A lower bound when `total_capped` (a history counted up to 1,000 entries). */
  total: number;
  total_pages: number;
  total_capped?: boolean;
  has_more?: boolean;
  next_cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** A registration. `secret` is complete only in the answers to create and rotate-secret. */
export interface Webhook {
  id: number;
  url: string;
  /** Catalogue kinds, or `["*"]` for every kind. */
  events: string[];
  active: boolean;
  description: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface Delivery {
  /** `wh_…`: one event to one registration; the same across retries and resends. */
  id: string;
  webhook_id: number;
  event_id: string;
  event: string;
  test: boolean;
  status: DeliveryStatus;
  attempt_count: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 1024 characters of the receiver's answer. */
  response_body: string | null;
}

export interface DeliveryDetail extends Delivery {
  payload: Record<string, unknown> | null;
  attempts: DeliveryAttempt[];
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  event?: string;
  page: number;
}

export interface ErrorDetail {
  field: string;
  message: string;
}

// ---- The shop's day: orders, production, invoices, shipments (part two) -------------------------
// Shapes from shared/orders/stored.ts, shared/production/stored.ts, shared/invoices/stored.ts,
// shared/shipments/stored.ts and shared/files/stored.ts (the response schemas derive from them).

export type OrderStatus = 'pending' | 'confirmed' | 'in_production' | 'ready' | 'shipped' | 'completed' | 'cancelled';

export interface Address {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  region: string | null;
  country: string;
}

export interface OrderLine {
  id: number;
  product_id: number;
  description: string;
  quantity: number;
  unit_price: number;
  setup_fee: number;
  price_source: 'product' | 'manual';
  options: Record<string, string>;
  file_ids: number[];
  total: number;
}

export interface Order {
  id: number;
  order_number: string;
  status: OrderStatus;
  customer: { id: number; name: string; email: string };
  items: OrderLine[];
  subtotal: number;
  tax_rate: number;
  tax: number;
  shipping: number;
  total: number;
  currency: string;
  shipping_address: Address | null;
  billing_address: Address | null;
  notes: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  quote_id: number | null;
}

export interface OrderFilters {
  status?: OrderStatus;
  customer_id?: number;
  created_from?: string;
  created_to?: string;
  /** Cursor: the orders after this id (the previous page's `next_cursor`). */
  after?: number;
}

export type JobStatus =
  'queued' | 'scheduled' | 'printing' | 'finishing' | 'quality_check' | 'on_hold' | 'completed' | 'failed' | 'cancelled';
export type JobPriority = 'low' | 'normal' | 'high' | 'rush';

export interface Job {
  id: number;
  order_id: number;
  order_item_id: number;
  order_number: string;
  product_id: number;
  description: string;
  quantity: number;
  status: JobStatus;
  held_from: JobStatus | null;
  machine_id: number | null;
  priority: JobPriority;
  due_date: string | null;
  estimated_minutes: number | null;
  started_at: string | null;
  completed_at: string | null;
  reprints: number;
  notes: string | null;
  history: { status: JobStatus; at: string; note: string | null; by: string }[];
  created_at: string;
  updated_at: string;
}

export type MachineStatus = 'idle' | 'running' | 'maintenance' | 'offline';

export interface Machine {
  id: number;
  name: string;
  type: string;
  status: MachineStatus;
  current_job_id: number | null;
  capabilities: {
    max_sheet_width_mm: number | null;
    max_sheet_height_mm: number | null;
    colors: number | null;
    duplex: boolean | null;
    other: Record<string, string>;
  };
  speed_per_hour: number;
  setup_minutes: number;
  created_at: string;
  updated_at: string;
}

export interface MachineQueue {
  machine: Machine;
  as_of: string;
  entries: { position: number; job: Job; estimated_minutes: number; estimated_start: string; estimated_end: string }[];
  has_more: boolean;
}

export type InvoiceStatus = 'open' | 'sent' | 'paid' | 'void';
export type PaymentMethod = 'bank_transfer' | 'card' | 'cash' | 'direct_debit' | 'paypal' | 'cheque' | 'other';

export interface Invoice {
  id: number;
  invoice_number: string;
  order_id: number | null;
  order_number: string | null;
  status: InvoiceStatus;
  overdue: boolean;
  customer: { id: number; name: string; email: string; company: string | null; vat_id: string | null };
  items: { position: number; description: string; quantity: number; unit_price: number; tax_rate: number; amount: number }[];
  subtotal: number;
  shipping: number;
  tax_rate: number | null;
  tax_breakdown: { tax_rate: number; taxable_amount: number; tax: number }[];
  tax: number;
  total: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  notes: string | null;
  issued_at: string;
  due_date: string;
  service_date: string;
  sent_at: string | null;
  last_sent_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  payments?: { id: number; amount: number; method: PaymentMethod; reference: string | null; paid_at: string; recorded_at: string }[];
}

export interface InvoiceFilters {
  status?: InvoiceStatus;
  overdue?: boolean;
  page: number;
}

export interface PaymentInput {
  amount: number;
  method: PaymentMethod;
  reference?: string;
}

export type ShipmentStatus = 'label_created' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception' | 'returned' | 'cancelled';

export interface Parcel {
  weight_g: number;
  length_mm: number;
  width_mm: number;
  height_mm: number;
}

export interface TrackingEvent {
  status: ShipmentStatus;
  description: string;
  location: string | null;
  occurred_at: string;
}

export interface Shipment {
  id: number;
  order_id: number;
  order_number: string;
  carrier: 'sandbox' | 'sendcloud';
  service: string;
  status: ShipmentStatus;
  partial: boolean;
  tracking_number: string | null;
  tracking_url: string | null;
  parcels: Parcel[];
  items: { line_id: number; quantity: number }[];
  address: Address;
  label: { content_type: string; parcels: number; url: string } | null;
  events: (TrackingEvent & { carrier_status: string | null })[];
  cancel_requested_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShipmentInput {
  order_id: number;
  carrier: 'sandbox' | 'sendcloud';
  service: string;
  parcels: Parcel[];
  partial?: boolean;
}

export interface Tracking {
  shipment_id: number;
  status: ShipmentStatus;
  tracking_number: string | null;
  tracking_url: string | null;
  events: TrackingEvent[];
  refreshed_at: string | null;
}

export interface PrintFile {
  id: number;
  filename: string;
  content_type: string | null;
  size: number;
  purpose: string;
  order_id: number | null;
  status: 'pending_upload' | 'processing' | 'ready' | 'rejected';
  rejection: string | null;
  preflight: {
    status: 'pending' | 'passed' | 'warnings' | 'failed' | 'skipped';
    checks: { code: string; result: 'passed' | 'warning' | 'failed'; message: string }[];
    pages: number | null;
  } | null;
  created_at: string;
}

export interface ApiEvent {
  id: string;
  type: string;
  created_at: string;
  mode: Mode;
  data: Record<string, unknown>;
}
