/**
 * A small typed client of the public /v1 API: everything the panel does goes through here, with
 * the key the user signed in with. Errors become `ApiError` with the API's code, message, field
 * details and request id; a 401 also tells the session to end.
 */
import type {
  Account,
  ApiEvent,
  CountedPagination,
  Delivery,
  DeliveryDetail,
  DeliveryFilters,
  ErrorDetail,
  Invoice,
  InvoiceFilters,
  Job,
  JobChanges,
  JobStatus,
  Machine,
  MachineQueue,
  Order,
  OrderFilters,
  OrderStatus,
  Page,
  Pagination,
  PaymentInput,
  PrintFile,
  Proof,
  ProofCreated,
  ProofInput,
  Shipment,
  ShipmentInput,
  ShipmentStatus,
  Tracking,
  Webhook,
  WebhookInput,
} from './types';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the API could not be reached at all. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  /** The API's origin (and stage path on AWS), e.g. `https://abc.execute-api.eu-central-1.amazonaws.com/prod`. */
  baseUrl: string;
  key: string;
  /** Called on every 401: the key was revoked or never valid. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | undefined>;

interface ErrorBody {
  success?: false;
  error?: { code?: string; message?: string; details?: ErrorDetail[]; request_id?: string };
}

export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The raw JSON body of a successful call; throws `ApiError` otherwise. */
  async call<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const response = await this.send(method, path, { ...options, accept: 'application/json' });
    const text = await response.text();
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      return undefined as T;
    }
  }

  /**
   * A document (PDF, XML) as a Blob, fetched with the key like every call (so it can be shown from a
   * `blob:` URL: no key in any address). Errors are the API's JSON, as for `call`.
   */
  async download(path: string, accept: string, query?: Query): Promise<Blob> {
    const response = await this.send('GET', path, { query, accept });
    return response.blob();
  }

  private async send(method: string, path: string, options: { query?: Query; body?: unknown; accept: string }): Promise<Response> {
    const url = this.baseUrl + path + queryString(options.query);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.key}`, Accept: options.accept };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        // The key travels in the header only; no cookies, no referrer to third parties.
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(
        0,
        'network_error',
        `Could not reach the API at ${this.baseUrl || 'this address'}. Check your connection and try again.`,
      );
    }
    if (!response.ok) {
      const text = await response.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const error = toApiError(response, body as ErrorBody | undefined);
      if (response.status === 401) this.options.onUnauthorized?.(error);
      throw error;
    }
    return response;
  }

  private async data<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    return (await this.call<{ data: T }>(method, path, options)).data;
  }

  private async page<T, P extends Pagination = CountedPagination>(path: string, query: Query): Promise<Page<T, P>> {
    const body = await this.call<{ data: T[]; pagination: P }>('GET', path, { query });
    return { items: body.data, pagination: body.pagination };
  }

  account = (): Promise<Account> => this.data('GET', '/v1/account');

  listWebhooks = (page = 1, perPage = 100): Promise<Page<Webhook>> => this.page('/v1/webhooks', { page, per_page: perPage });
  getWebhook = (id: number): Promise<Webhook> => this.data('GET', `/v1/webhooks/${id}`);
  createWebhook = (input: WebhookInput): Promise<Webhook> => this.data('POST', '/v1/webhooks', { body: input });
  updateWebhook = (id: number, changes: Partial<WebhookInput>): Promise<Webhook> =>
    this.data('PUT', `/v1/webhooks/${id}`, { body: changes });
  deleteWebhook = (id: number): Promise<{ id: number; deleted: true }> => this.data('DELETE', `/v1/webhooks/${id}`);
  rotateSecret = (id: number): Promise<Webhook> => this.data('POST', `/v1/webhooks/${id}/rotate-secret`);

  /** Sends a sample event through the real pipeline; answers `{ success, message }` (no `data`). */
  sendTest = (id: number, event?: string): Promise<{ success: true; message: string }> =>
    this.call('POST', `/v1/webhooks/${id}/test`, { body: event ? { event } : {} });

  listDeliveries = (id: number, filters: DeliveryFilters, perPage = 20): Promise<Page<Delivery>> =>
    this.page(`/v1/webhooks/${id}/deliveries`, { page: filters.page, per_page: perPage, status: filters.status, event: filters.event });
  getDelivery = (id: number, deliveryId: string): Promise<DeliveryDetail> =>
    this.data('GET', `/v1/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}`);
  redeliver = (id: number, deliveryId: string): Promise<Delivery> =>
    this.data('POST', `/v1/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);

  // ---- Orders (docs/orders.md) ----
  listOrders = (filters: OrderFilters, perPage = 25): Promise<Page<Order>> =>
    this.page('/v1/orders', {
      per_page: perPage,
      status: filters.status,
      customer_id: filters.customer_id,
      created_from: filters.created_from,
      created_to: filters.created_to,
      starting_after: filters.after,
    });
  getOrder = (id: number): Promise<Order> => this.data('GET', `/v1/orders/${id}`);
  /** A status move; `If-Match` is not sent: the API judges the move against the order as it is now (409 when not allowed). */
  setOrderStatus = (id: number, status: OrderStatus): Promise<Order> => this.data('PUT', `/v1/orders/${id}`, { body: { status } });

  // ---- Proofs (docs/proofs.md) ----
  listProofs = (orderId: number): Promise<Page<Proof>> => this.page(`/v1/orders/${orderId}/proofs`, { per_page: 50 });
  /** A new proof of the order's lines; the answer carries the link's token, shown this once. */
  createProof = (orderId: number, input: ProofInput): Promise<ProofCreated> =>
    this.data('POST', `/v1/orders/${orderId}/proofs`, { body: input });
  revokeProofLink = (id: number): Promise<Proof> => this.data('DELETE', `/v1/proofs/${id}/link`);

  // ---- Production (docs/production.md) ----
  /** `awaiting_approval` lists the jobs waiting for a proof's approval; the API takes it alone or with `order_id`. */
  listJobs = (
    query: { status?: JobStatus; machine_id?: number; order_id?: number; awaiting_approval?: true; page?: number },
    perPage = 100,
  ): Promise<Page<Job>> =>
    this.page('/v1/production/jobs', {
      ...query,
      awaiting_approval: query.awaiting_approval ? 'true' : undefined,
      per_page: perPage,
    });
  moveJob = (id: number, status: JobStatus, machineId?: number): Promise<Job> =>
    this.data('PUT', `/v1/production/jobs/${id}/status`, {
      body: machineId === undefined ? { status } : { status, machine_id: machineId },
    });
  updateJob = (id: number, changes: JobChanges): Promise<Job> => this.data('PUT', `/v1/production/jobs/${id}`, { body: changes });
  listMachines = (): Promise<Page<Machine>> => this.page('/v1/production/machines', { per_page: 100 });
  machineQueue = (id: number): Promise<MachineQueue> => this.data('GET', `/v1/production/machines/${id}/queue`);

  // ---- Invoices (docs/invoices.md) ----
  listInvoices = (filters: InvoiceFilters & { order_id?: number }, perPage = 25): Promise<Page<Invoice>> =>
    this.page('/v1/invoices', {
      page: filters.page,
      per_page: perPage,
      status: filters.status,
      overdue: filters.overdue ? 'true' : undefined,
      order_id: filters.order_id,
    });
  getInvoice = (id: number): Promise<Invoice> => this.data('GET', `/v1/invoices/${id}`);
  createInvoice = (orderId: number): Promise<Invoice> => this.data('POST', '/v1/invoices', { body: { order_id: orderId } });
  payInvoice = (id: number, payment: PaymentInput): Promise<Invoice> => this.data('POST', `/v1/invoices/${id}/payments`, { body: payment });
  sendInvoice = (id: number, to?: string): Promise<Invoice> => this.data('POST', `/v1/invoices/${id}/send`, { body: to ? { to } : {} });
  voidInvoice = (id: number): Promise<Invoice> => this.data('POST', `/v1/invoices/${id}/void`);
  invoicePdf = (id: number): Promise<Blob> => this.download(`/v1/invoices/${id}/pdf`, 'application/pdf');
  invoiceXml = (id: number, syntax: 'cii' | 'ubl'): Promise<Blob> => this.download(`/v1/invoices/${id}/xml`, 'application/xml', { syntax });

  // ---- Shipments (docs/shipping.md) ----
  listShipments = (query: { status?: ShipmentStatus; page: number }, perPage = 25): Promise<Page<Shipment>> =>
    this.page('/v1/shipments', { ...query, per_page: perPage });
  orderShipments = (orderId: number): Promise<Page<Shipment>> => this.page(`/v1/orders/${orderId}/shipments`, { per_page: 50 });
  getShipment = (id: number): Promise<Shipment> => this.data('GET', `/v1/shipments/${id}`);
  createShipment = (input: ShipmentInput): Promise<Shipment> => this.data('POST', '/v1/shipments', { body: input });
  shipmentLabel = (id: number, parcel = 1): Promise<Blob> => this.download(`/v1/shipments/${id}/label`, 'application/pdf', { parcel });
  tracking = (id: number): Promise<Tracking> => this.data('GET', `/v1/shipments/${id}/tracking`);
  simulateShipment = (id: number, status: ShipmentStatus, location?: string): Promise<Shipment> =>
    this.data('POST', `/v1/shipments/${id}/simulate`, { body: location ? { status, location } : { status } });
  cancelShipment = (id: number): Promise<Shipment> => this.data('POST', `/v1/shipments/${id}/cancel`);

  // ---- Files and events ----
  getFile = (id: number): Promise<PrintFile> => this.data('GET', `/v1/files/${id}`);
  listEvents = (
    query: { type?: string; created_from?: string; starting_after?: string },
    perPage = 100,
  ): Promise<Page<ApiEvent, Pagination>> => this.page('/v1/events', { ...query, per_page: perPage });
}

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toApiError(response: Response, body: ErrorBody | undefined): ApiError {
  const error = body?.error;
  const requestId = error?.request_id ?? response.headers.get('X-Request-Id') ?? undefined;
  const message = error?.message ?? `The API answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, error?.code ?? `http_${response.status}`, message, error?.details ?? [], requestId);
}
