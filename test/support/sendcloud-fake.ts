/**
 * A local HTTP server that answers as Sendcloud's API v3 documentation says (request and response
 * shapes of its OpenAPI files, not our adapter's expectations), and holds every request it receives
 * to the contract (test/support/sendcloud-contract.ts: JSON Schemas of announce, cancel, the parcel
 * documents, the lookup by reference, tracking and returns, with the EU customs rule). A request the real API would refuse is answered as
 * it would (400 with JSON:API errors, each with its `source.pointer`) **and recorded in
 * `violations`**: the tests assert there are none (`expectNoContractViolations`), so an adapter
 * sending what Sendcloud refuses fails the suite even where the 400 is handled gracefully.
 *
 * Otherwise: HTTP Basic with a public and a secret key (401 `authentication_failed`), `POST
 * /shipments/announce` (201; 201 with a parcel `ANNOUNCEMENT_FAILED` for the shipping option
 * `fake:announcement_failed`; **409 with the existing shipment** for an `external_reference_id`
 * used before — "it must be unique across shipments of the user. Using the same reference more than
 * once will result in a 409 HTTP status code and the associated object being returned", the
 * shipments OpenAPI description's `external_reference_id`; the description documents no 409 body,
 * so the fake answers the shipment as `data`, as the 201 does), `GET
 * /shipments?external_reference_id=` (the shipments of that reference, cancelled and failed ones
 * with their parcels' status), the label PDF by `Accept`, `POST /shipments/{id}/cancel` (200, 202
 * for `fake:queued_cancel`, 404, 409; the parcels then say `CANCELLED`), the tracking endpoint (404
 * is `{"detail"}` there), returns (`POST /returns/announce-synchronously` answered as its 201
 * example, `GET /returns/{id}` with the return's tracking number), and 429 above 15 unsafe requests
 * a second.
 * Tests script further answers (a 503, a 429, a slow answer) ahead of the normal ones — also a
 * request carried out at once and answered late or with a 5xx (`afterHandling`: the carrier acted,
 * the caller never learns it) — and send signed callbacks as Sendcloud does.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendcloudSignature } from '#shared/shipments/carriers/sendcloud-signature';
import { expect } from 'vitest';
import type { BodyOf } from './api-types';
import { contractErrors, type ContractOperation, type SendcloudError } from './sendcloud-contract';

export interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (a timeout); with `afterHandling`, after carrying the request out. */
  delayMs?: number;
  /** Carry out the request as usual first, then answer this (a 5xx after the label was made; with `delayMs`, a timeout after it). */
  afterHandling?: boolean;
}

/** A request the real API would refuse: what was sent, and Sendcloud's errors for it. */
export interface ContractViolation {
  operation: ContractOperation;
  method: string;
  path: string;
  errors: SendcloudError[];
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What the fake reads of an announcement (`POST /shipments/announce`); anything may be missing. */
interface AnnounceBody {
  label_details?: Record<string, unknown>;
  to_address?: Record<string, unknown>;
  from_address?: Record<string, unknown>;
  ship_with?: { properties?: { shipping_option_code?: string } };
  parcels?: Record<string, unknown>[];
  external_reference_id?: string | null;
  order_number?: string | null;
  total_order_price?: unknown;
  customs_information?: unknown;
}

interface FakeParcel {
  id: number;
  tracking_number: string;
  shipmentId: string;
}

interface FakeShipment {
  id: string;
  external_reference_id: string | null;
  order_number: string | null;
  parcels: FakeParcel[];
  cancelled: boolean;
  queuedCancel: boolean;
  /** Its announcement failed: the parcels say ANNOUNCEMENT_FAILED, there is no label. */
  failed: boolean;
  /** The announce request, echoed in the answers as Sendcloud's examples do (addresses, ship_with, measures). */
  announced?: AnnounceBody;
}

export const FAKE_LABEL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 298 420]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

const jsonApiError = (status: number, code: string, detail: string, pointer?: string) => ({
  errors: [{ status: String(status), code, detail, ...(pointer ? { source: { pointer } } : {}) }],
});

export interface FakeSendcloud {
  url: string;
  publicKey: string;
  secretKey: string;
  requests: Received[];
  /** Requests that broke the v3 contract (answered 400 as Sendcloud would); a test sending one on purpose takes it (`takeViolations`). */
  violations: ContractViolation[];
  /** The violations recorded so far, forgotten (for a test that sends an invalid request on purpose). */
  takeViolations(): ContractViolation[];
  shipments: Map<string, FakeShipment>;
  /** Answers for the next requests matching `METHOD /path-prefix`, in order, before the normal handling. */
  script(route: string, answers: Scripted[]): void;
  /** Forgets the scripted answers not used yet. */
  clearScripts(): void;
  /** Tracking events (the documented `events` items) of a tracking number. */
  setTracking(trackingNumber: string, events: Record<string, unknown>[]): void;
  /** POSTs `payload` to `url` as Sendcloud's webhook does, signed with `secret` (default: the fake's secret key). */
  /** Our callback route's answer (it goes to the API under test, not to the fake). */
  sendCallback(
    url: string,
    payload: unknown,
    secret?: string | null,
  ): Promise<{ status: number; body: BodyOf<'POST', '/v1/carriers/sendcloud/webhook/{token}'> }>;
  close(): Promise<void>;
}

export async function startFakeSendcloud(keys = { publicKey: 'pub_fake', secretKey: 'sec_fake_0123456789' }): Promise<FakeSendcloud> {
  const scripts = new Map<string, Scripted[]>();
  const tracking = new Map<string, Record<string, unknown>[]>();
  const shipments = new Map<string, FakeShipment>();
  const parcels = new Map<number, FakeParcel>();
  const requests: Received[] = [];
  const violations: ContractViolation[] = [];
  let nextParcel = 383707309;
  let nextReturn = 12345;
  const returns = new Map<number, { id: number; parcel: FakeParcel; body: unknown }>();
  let unsafeWindow = { second: 0, count: 0 };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  // Shaped like the shipments description's 201 examples (`CreatedSingleParcelDomesticShipment`…): the request echoed, plus ids and status.
  const shipmentView = (shipment: FakeShipment, failed = shipment.failed) => ({
    id: shipment.id,
    label_details: shipment.announced?.label_details ?? { mime_type: 'application/pdf', dpi: 72 },
    external_reference_id: shipment.external_reference_id,
    order_number: shipment.order_number,
    total_order_price: shipment.announced?.total_order_price ?? null,
    to_address: shipment.announced?.to_address ?? null,
    from_address: shipment.announced?.from_address ?? null,
    ship_with: shipment.announced?.ship_with ?? null,
    customs_information: shipment.announced?.customs_information ?? null,
    carrier: { code: 'postnl', name: 'PostNL' },
    parcels: shipment.parcels.map((parcel, index) => ({
      id: parcel.id,
      dimensions: shipment.announced?.parcels?.[index]?.dimensions ?? null,
      weight: shipment.announced?.parcels?.[index]?.weight ?? null,
      parcel_items: shipment.announced?.parcels?.[index]?.parcel_items ?? [],
      additional_carrier_data: { awb_tracking_number: null, box_number: null },
      status: failed
        ? { code: 'ANNOUNCEMENT_FAILED', message: 'Announcement failed' }
        : shipment.cancelled
          ? { code: 'CANCELLED', message: 'Cancelled' }
          : { code: 'READY_TO_SEND', message: 'Ready to send' },
      documents: failed
        ? []
        : [{ type: 'label', size: 'a6', link: `https://panel.sendcloud.sc/api/v3/parcels/${parcel.id}/documents/label` }],
      tracking_number: failed ? null : parcel.tracking_number,
      tracking_url: failed ? null : `https://tracking.example/${parcel.tracking_number}`,
      announced_at: failed ? null : new Date().toISOString(),
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })),
    errors: failed ? [{ status: '500', code: 'parcel_announcement_error', detail: 'Service error: the carrier is unreachable' }] : [],
  });

  function announce(received: unknown, res: ServerResponse): void {
    // Held to the contract before it gets here (contractCheck): the fields it reads are present.
    const body = received as AnnounceBody;
    const option = body.ship_with?.properties?.shipping_option_code;
    const requested = Array.isArray(body.parcels) ? body.parcels : [];
    const reference = body.external_reference_id ?? null;
    const existing =
      reference === null ? undefined : [...shipments.values()].find((candidate) => candidate.external_reference_id === reference);
    if (existing) return send(res, 409, { data: shipmentView(existing) });
    const failed = option === 'fake:announcement_failed';
    const shipment: FakeShipment = {
      id: randomUUID(),
      external_reference_id: reference,
      order_number: body.order_number ?? null,
      parcels: [],
      cancelled: false,
      queuedCancel: option === 'fake:queued_cancel',
      failed,
      announced: body,
    };
    shipment.parcels = requested.map(() => {
      const parcel = { id: nextParcel++, tracking_number: `3SYZXG${nextParcel}`, shipmentId: shipment.id };
      parcels.set(parcel.id, parcel);
      return parcel;
    });
    shipments.set(shipment.id, shipment);
    send(res, 201, { data: shipmentView(shipment) });
  }

  function handle(method: string, path: string, url: URL, req: IncomingMessage, body: unknown, res: ServerResponse): void {
    if (method === 'POST' && path === '/shipments/announce') return announce(body, res);
    if (method === 'POST' && path === '/returns/announce-synchronously') {
      // Answered as the returns description's 201 example: the return's id and its incoming parcel's.
      const returnId = nextReturn++;
      const parcel = { id: nextParcel++, tracking_number: `3SRETN${nextParcel}`, shipmentId: `return-${returnId}` };
      parcels.set(parcel.id, parcel);
      returns.set(returnId, { id: returnId, parcel, body });
      return send(res, 201, { return_id: returnId, parcel_id: parcel.id, multi_collo_ids: [] });
    }
    const returnMatch = /^\/returns\/(\d+)$/.exec(path);
    if (method === 'GET' && returnMatch) {
      const found = returns.get(Number(returnMatch[1]));
      if (!found) return send(res, 404, jsonApiError(404, 'not_found', 'Not found'));
      // Schema `Return` (no envelope), the fields the adapter reads and a few around them.
      return send(res, 200, {
        id: found.id,
        parcel_id: found.parcel.id,
        from_address: (found.body as Record<string, unknown>).from_address,
        to_address: (found.body as Record<string, unknown>).to_address,
        tracking_number: found.parcel.tracking_number,
        tracking_url: `https://tracking.example/${found.parcel.tracking_number}`,
        is_cancellable: true,
        created_at: new Date().toISOString(),
        delivered_at_iso: null,
      });
    }
    if (method === 'GET' && path === '/shipments') {
      const reference = url.searchParams.get('external_reference_id');
      const found = [...shipments.values()].filter((shipment) => reference === null || shipment.external_reference_id === reference);
      return send(res, 200, { data: found.map((shipment) => shipmentView(shipment)) });
    }
    let match = /^\/parcels\/(\d+)\/documents\/(label|customs-declaration|air-waybill)$/.exec(path);
    if (method === 'GET' && match) {
      const parcel = parcels.get(Number(match[1]));
      if (!parcel) return send(res, 404, jsonApiError(404, 'not_found', 'No Parcel matches the given query.'));
      const accept = req.headers.accept ?? '*/*';
      if (accept === '*/*' || accept.includes('application/pdf')) {
        res.writeHead(200, { 'Content-Type': 'application/pdf' });
        return void res.end(FAKE_LABEL_PDF);
      }
      return send(res, 406, jsonApiError(406, 'invalid', 'Choose a format with the Accept header.'));
    }
    match = /^\/shipments\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && match) {
      const shipment = shipments.get(decodeURIComponent(match[1]!));
      if (!shipment) return send(res, 404, { errors: [{ status: '404', code: 'not_found', detail: 'Not found' }] });
      if (shipment.cancelled)
        return send(res, 409, { errors: [{ status: '409', code: 'invalid', detail: 'This shipment is already being cancelled.' }] });
      shipment.cancelled = true;
      return shipment.queuedCancel
        ? send(res, 202, { data: { status: 'queued', message: 'Shipment cancellation has been queued' } })
        : send(res, 200, { data: { status: 'cancelled', message: 'Shipment has been cancelled' } });
    }
    match = /^\/parcels\/tracking\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const number = decodeURIComponent(match[1]!);
      const parcel = [...parcels.values()].find((candidate) => candidate.tracking_number === number);
      if (!parcel) return send(res, 404, { detail: 'Parcel does not exist' });
      return send(res, 200, {
        announced_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        source_id: null,
        details: { is_return: false, is_to_service_point: false, is_mail_box: false },
        tracking_numbers: [{ carrier_code: 'postnl', tracking_number: number, tracking_url: `https://tracking.example/${number}` }],
        events: tracking.get(number) ?? [],
      });
    }
    send(res, 404, jsonApiError(404, 'not_found', 'Not found'));
  }

  /** The contract a request falls under, with its breaches (none: an empty list); undefined for a request no schema covers yet. */
  function contractCheck(
    method: string,
    path: string,
    url: URL,
    req: IncomingMessage,
    body: unknown,
  ): { operation: ContractOperation; errors: SendcloudError[] } | undefined {
    if (method === 'POST' && path === '/shipments/announce') return { operation: 'announce', errors: contractErrors('announce', body) };
    let match = /^\/shipments\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && match) {
      return { operation: 'cancel', errors: contractErrors('cancel', { id: decodeURIComponent(match[1]!), body: body ?? null }) };
    }
    if (method === 'POST' && path === '/returns/announce-synchronously')
      return { operation: 'return', errors: contractErrors('return', body) };
    if (method === 'GET' && path === '/shipments') {
      const query = Object.fromEntries(
        [...url.searchParams].map(([key, value]) => [key, key === 'page_size' && /^\d+$/.test(value) ? Number(value) : value]),
      );
      return { operation: 'lookup', errors: contractErrors('lookup', { query, body: body ?? null }) };
    }
    match = /^\/parcels\/tracking\/([^/]*)$/.exec(path);
    if (method === 'GET' && match) {
      const request = { tracking_number: decodeURIComponent(match[1]!), query: Object.fromEntries(url.searchParams), body: body ?? null };
      return { operation: 'tracking', errors: contractErrors('tracking', request) };
    }
    match = /^\/parcels\/([^/]+)\/documents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const accept = req.headers.accept;
      const numberOr = (value: string | null) => (value === null ? undefined : Number.isNaN(Number(value)) ? value : Number(value));
      const request = {
        id: numberOr(decodeURIComponent(match[1]!)),
        type: decodeURIComponent(match[2]!),
        // No Accept (or any type): the documented default, PDF.
        ...(accept && accept !== '*/*' ? { accept } : {}),
        ...(url.searchParams.has('dpi') ? { dpi: numberOr(url.searchParams.get('dpi')) } : {}),
        ...(url.searchParams.has('paper_size') ? { paper_size: url.searchParams.get('paper_size') } : {}),
        body: body ?? null,
      };
      return { operation: 'document', errors: contractErrors('document', request) };
    }
    return undefined;
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/api\/v3/, '');
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return send(res, 400, jsonApiError(400, 'invalid', 'JSON parse error'));
    }
    requests.push({ method, path: `${path}${url.search}`, headers: req.headers, body });

    const expected = `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return send(res, 401, jsonApiError(401, 'authentication_failed', 'Invalid username/password.'));
    }
    if (method !== 'GET') {
      const second = Math.floor(Date.now() / 1000);
      unsafeWindow = unsafeWindow.second === second ? { second, count: unsafeWindow.count + 1 } : { second, count: 1 };
      if (unsafeWindow.count > 15) return send(res, 429, jsonApiError(429, 'throttled', 'Request was throttled.'), { 'Retry-After': '1' });
    }
    const checked = contractCheck(method, path, url, req, body);
    if (checked && checked.errors.length) {
      violations.push({ ...checked, method, path: `${path}${url.search}` });
      return send(res, 400, { errors: checked.errors });
    }
    const queue = [...scripts.entries()].find(([route]) => `${method} ${path}`.startsWith(route))?.[1];
    const scripted = queue?.shift();
    const wait = () => new Promise((resolve) => setTimeout(resolve, scripted?.delayMs ?? 0));
    const answerScripted = (answer: Scripted) => {
      if (res.destroyed) return; // the caller gave up waiting
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? jsonApiError(answer.status, 'error', `Scripted ${answer.status}`)));
    };
    if (scripted && !scripted.afterHandling) {
      await wait();
      return answerScripted(scripted);
    }
    if (scripted?.afterHandling) {
      // Carry it out at once, then (after the delay: a timeout) answer the scripted failure instead.
      const swallow = { writeHead: () => swallow, end: () => undefined } as unknown as ServerResponse;
      handle(method, path, url, req, body, swallow);
      await wait();
      return answerScripted(scripted);
    }
    handle(method, path, url, req, body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v3`,
    ...keys,
    requests,
    violations,
    takeViolations: () => violations.splice(0),
    shipments,
    script: (route, answers) => scripts.set(route, [...(scripts.get(route) ?? []), ...answers]),
    clearScripts: () => scripts.clear(),
    setTracking: (number, events) => tracking.set(number, events),
    async sendCallback(url, payload, secret = keys.secretKey) {
      const raw = JSON.stringify(payload);
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(secret === null ? {} : { 'Sendcloud-Signature': sendcloudSignature(secret, raw) }),
        },
        body: raw,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Fails the test when the fake received a request Sendcloud's v3 contract refuses (each listed with its errors). */
export function expectNoContractViolations(fake: FakeSendcloud): void {
  const violations = fake.takeViolations();
  expect(violations, `requests Sendcloud v3 would refuse:\n${JSON.stringify(violations, null, 2)}`).toEqual([]);
}
