import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '#shared/config';
import { checkVatId, type ValidVatId } from '#shared/tax/vat-id';
import { viesClient, viesEnv } from '#shared/tax/vies';
import { viesRestClient } from '#shared/tax/vies-rest';
import { SANDBOX_TRADER, SANDBOX_VAT_IDS, viesSandbox } from '#shared/tax/vies-sandbox';

/** A VAT ID through the offline check, as every caller of the clients has it. */
function vatId(input: string): ValidVatId {
  const checked = checkVatId(input);
  if (!checked.valid) throw new Error(`${input}: ${checked.message}`);
  return checked;
}

const NOW = new Date('2026-03-02T09:30:00.000Z');
const now = () => NOW;
const SELLER = vatId('DE136695976');

describe('the sandbox', () => {
  const sandbox = viesSandbox({ now });

  it('has documented numbers that pass the offline check, so that they take the whole way a real number takes', () => {
    for (const number of Object.values(SANDBOX_VAT_IDS)) expect(checkVatId(number), number).toMatchObject({ valid: true, number });
  });

  it('answers valid with the trader for its valid number, and a consultation number when the seller asks', async () => {
    expect(await sandbox.checkVatNumber(vatId(SANDBOX_VAT_IDS.valid))).toEqual({
      status: 'valid',
      country: 'AT',
      number: 'ATU10000005',
      name: 'Sandbox Druck GmbH',
      address: 'Teststraße 1\n1010 Wien',
      checked_at: '2026-03-02T09:30:00.000Z',
    });
    expect(await sandbox.checkVatNumber(vatId(SANDBOX_VAT_IDS.valid), { requester: SELLER })).toEqual({
      status: 'valid',
      country: 'AT',
      number: 'ATU10000005',
      ...SANDBOX_TRADER,
      checked_at: '2026-03-02T09:30:00.000Z',
      consultation_number: 'SANDBOX-ATU10000005',
    });
  });

  it('answers invalid and unavailable for those numbers', async () => {
    expect(await sandbox.checkVatNumber(vatId(SANDBOX_VAT_IDS.invalid))).toEqual({
      status: 'invalid',
      country: 'AT',
      number: 'ATU20000004',
      checked_at: '2026-03-02T09:30:00.000Z',
    });
    expect(await sandbox.checkVatNumber(vatId(SANDBOX_VAT_IDS.unavailable), { requester: SELLER })).toEqual({
      status: 'unavailable',
      country: 'AT',
      number: 'ATU30100002',
      checked_at: '2026-03-02T09:30:00.000Z',
      unavailable_reason: 'MS_UNAVAILABLE',
    });
  });

  it('answers valid without name or address for any other number, as VIES for the states that disclose none', async () => {
    expect(await sandbox.checkVatNumber(vatId('FR40303265045'))).toEqual({
      status: 'valid',
      country: 'FR',
      number: 'FR40303265045',
      checked_at: '2026-03-02T09:30:00.000Z',
    });
  });
});

describe('viesClient: which VIES answers', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
    vi.restoreAllMocks();
  });

  /** The URLs the client fetched while checking one number (fetch stubbed: nothing leaves the machine). */
  async function fetchedWhileChecking(): Promise<string[]> {
    resetConfig();
    const fetched = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ valid: true }));
    await viesClient().checkVatNumber(vatId(SANDBOX_VAT_IDS.invalid));
    const urls = fetched.mock.calls.map(([url]) => String(url));
    fetched.mockRestore();
    return urls;
  }

  it('is the sandbox off AWS, in local mode on a Lambda-like environment, and where VIES_SANDBOX=true', async () => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    expect(await fetchedWhileChecking()).toEqual([]);
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'print-shop-dev-customers-create';
    process.env.LOCAL_MODE = 'true';
    expect(await fetchedWhileChecking()).toEqual([]);
    process.env.LOCAL_MODE = 'false';
    process.env[viesEnv.viesSandbox] = 'true';
    expect(await fetchedWhileChecking()).toEqual([]);
  });

  it("is the Commission's VIES in a Lambda on AWS", async () => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'print-shop-prod-customers-create';
    delete process.env.LOCAL_MODE;
    delete process.env[viesEnv.viesSandbox];
    expect(await fetchedWhileChecking()).toEqual(['https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number']);
  });
});

/** The request body's fields the Commission's contract documents (CheckVatRequest). */
const REQUEST_FIELDS = new Set([
  'countryCode',
  'vatNumber',
  'requesterMemberStateCode',
  'requesterNumber',
  'traderName',
  'traderStreet',
  'traderPostalCode',
  'traderCity',
  'traderCompanyType',
]);

interface CheckVatRequest {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string;
  requesterNumber?: string;
}

/** What is wrong with a request, by the contract: method, path, JSON, documented fields, a number VIES can read. */
function requestProblem(request: IncomingMessage, text: string): string | undefined {
  if (request.method !== 'POST' || request.url !== '/rest-api/check-vat-number') return `${request.method} ${request.url}`;
  if (!request.headers['content-type']?.startsWith('application/json')) return `content-type ${request.headers['content-type']}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'not an object';
  const fields = body as Record<string, unknown>;
  const unknownFields = Object.keys(fields).filter((key) => !REQUEST_FIELDS.has(key));
  if (unknownFields.length) return `undocumented fields ${unknownFields.join(', ')}`;
  const { countryCode, vatNumber, requesterMemberStateCode, requesterNumber } = fields;
  if (typeof countryCode !== 'string' || typeof vatNumber !== 'string') return 'countryCode and vatNumber are strings';
  // The number without its prefix: together they are a VAT ID of that country.
  if (checkVatId(`${countryCode}${vatNumber}`).valid !== true || vatNumber.startsWith(countryCode)) return `${countryCode} ${vatNumber}`;
  if ((requesterMemberStateCode === undefined) !== (requesterNumber === undefined)) return 'requester: both fields or neither';
  if (
    requesterMemberStateCode !== undefined &&
    checkVatId(`${String(requesterMemberStateCode)}${String(requesterNumber)}`).valid !== true
  ) {
    return `requester ${String(requesterMemberStateCode)} ${String(requesterNumber)}`;
  }
  return undefined;
}

/** A CheckVatResponse as the contract lists its fields; `---` where the member state discloses nothing. */
function checkVatResponse(request: CheckVatRequest, valid: boolean, trader?: { name: string; address: string }) {
  return {
    countryCode: request.countryCode,
    vatNumber: request.vatNumber,
    requestDate: '2026-03-02T09:29:58.123Z',
    valid,
    requestIdentifier: request.requesterNumber ? 'WAPIAAAAZ1tL0qXj' : '',
    name: trader?.name ?? '---',
    address: trader?.address ?? '---',
    traderName: '---',
    traderStreet: '---',
    traderPostalCode: '---',
    traderCity: '---',
    traderCompanyType: '---',
    traderNameMatch: 'NOT_PROCESSED',
    traderStreetMatch: 'NOT_PROCESSED',
    traderPostalCodeMatch: 'NOT_PROCESSED',
    traderCityMatch: 'NOT_PROCESSED',
    traderCompanyTypeMatch: 'NOT_PROCESSED',
  };
}

const commonResponse = (error: string) => ({ actionSucceed: false, errorWrappers: [{ error, message: `${error} (fake)` }] });

/** The fake's answers by VAT ID: [status, body], or a delay past every timeout. */
const ANSWERS: Record<string, (request: CheckVatRequest) => [number, unknown] | 'slow' | 'html'> = {
  ATU13585627: (request) => [200, checkVatResponse(request, true, { name: 'Musterdruck GmbH', address: 'Ringstraße 1\n1010 Wien' })],
  DE136695976: (request) => [200, checkVatResponse(request, true)],
  IT00743110157: (request) => [200, checkVatResponse(request, false)],
  FR40303265045: () => [500, commonResponse('MS_UNAVAILABLE')],
  DK13585628: () => [200, commonResponse('MS_MAX_CONCURRENT_REQ')],
  EL094259216: () => [400, commonResponse('INVALID_INPUT')],
  PL8567346215: () => [500, { actionSucceed: false, errorWrappers: [] }],
  NL004495445B01: () => 'slow',
  PT501964843: () => 'html',
};

/** The seller VAT ID the fake refuses as requester (INVALID_REQUESTER_INFO). */
const REFUSED_REQUESTER = 'SE123456789701';

describe('the real client, against a fake VIES on 127.0.0.1', () => {
  let server: Server;
  let baseUrl: string;
  const received: CheckVatRequest[] = [];
  const problems: string[] = [];

  function answer(request: IncomingMessage, response: ServerResponse, text: string) {
    const problem = requestProblem(request, text);
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (problem) {
      problems.push(problem);
      return send(400, commonResponse('INVALID_INPUT'));
    }
    const body = JSON.parse(text) as CheckVatRequest;
    received.push(body);
    if (body.requesterMemberStateCode && `${body.requesterMemberStateCode}${body.requesterNumber}` === REFUSED_REQUESTER) {
      return send(400, commonResponse('INVALID_REQUESTER_INFO'));
    }
    const answerOf = ANSWERS[`${body.countryCode}${body.vatNumber}`];
    const reply = answerOf ? answerOf(body) : ([200, checkVatResponse(body, false)] as [number, unknown]);
    if (reply === 'slow') return void setTimeout(() => send(200, checkVatResponse(body, true)), 1_000).unref();
    if (reply === 'html') return response.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>Bad Gateway</html>');
    send(...reply);
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (text += chunk));
      request.on('end', () => answer(request, response, text));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest-api`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  afterEach(() => {
    received.length = 0;
    // Every request the client sent had the documented shape.
    expect(problems.splice(0)).toEqual([]);
  });

  const client = () => viesRestClient({ baseUrl, timeoutMs: 300, now });

  it('sends the number without its prefix, and the seller as requester; reads valid, name, address, date and consultation number', async () => {
    expect(await client().checkVatNumber(vatId('ATU13585627'), { requester: SELLER })).toEqual({
      status: 'valid',
      country: 'AT',
      number: 'ATU13585627',
      name: 'Musterdruck GmbH',
      address: 'Ringstraße 1\n1010 Wien',
      checked_at: '2026-03-02T09:29:58.123Z',
      consultation_number: 'WAPIAAAAZ1tL0qXj',
    });
    expect(received).toEqual([{ countryCode: 'AT', vatNumber: 'U13585627', requesterMemberStateCode: 'DE', requesterNumber: '136695976' }]);
  });

  it("leaves out VIES's --- for a state that discloses no name or address, and the empty identifier without a requester", async () => {
    expect(await client().checkVatNumber(vatId('DE136695976'))).toEqual({
      status: 'valid',
      country: 'DE',
      number: 'DE136695976',
      checked_at: '2026-03-02T09:29:58.123Z',
    });
    expect(received).toEqual([{ countryCode: 'DE', vatNumber: '136695976' }]);
  });

  it('reads valid: false as invalid', async () => {
    expect(await client().checkVatNumber(vatId('IT00743110157'))).toEqual({
      status: 'invalid',
      country: 'IT',
      number: 'IT00743110157',
      checked_at: '2026-03-02T09:29:58.123Z',
    });
    expect(received).toEqual([{ countryCode: 'IT', vatNumber: '00743110157' }]);
  });

  it("makes VIES's unavailability codes unavailable, whatever the HTTP status, and never throws", async () => {
    const unavailable = (number: string, reason: string) => ({
      status: 'unavailable',
      country: number.slice(0, 2),
      number,
      checked_at: '2026-03-02T09:30:00.000Z',
      unavailable_reason: reason,
    });
    expect(await client().checkVatNumber(vatId('FR40303265045'))).toEqual(unavailable('FR40303265045', 'MS_UNAVAILABLE'));
    expect(await client().checkVatNumber(vatId('DK13585628'))).toEqual(unavailable('DK13585628', 'MS_MAX_CONCURRENT_REQ'));
    expect(await client().checkVatNumber(vatId('PL8567346215'))).toEqual(unavailable('PL8567346215', 'SERVICE_UNAVAILABLE'));
    expect(await client().checkVatNumber(vatId('PT501964843'))).toEqual(unavailable('PT501964843', 'http_502'));
  });

  it('gives up on a slow answer after its timeout: unavailable', async () => {
    const started = Date.now();
    expect(await client().checkVatNumber(vatId('NL004495445B01'))).toEqual({
      status: 'unavailable',
      country: 'NL',
      number: 'NL004495445B01',
      checked_at: '2026-03-02T09:30:00.000Z',
      unavailable_reason: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('is unavailable when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = viesRestClient({ baseUrl: `http://127.0.0.1:${port}/rest-api`, timeoutMs: 300, now });
    expect(await unreachable.checkVatNumber(vatId('DE136695976'))).toMatchObject({ status: 'unavailable', unavailable_reason: 'network' });
  });

  it('makes INVALID_INPUT invalid: VIES refuses the number itself (a Greek one, sent as GR, goes out as EL)', async () => {
    expect(await client().checkVatNumber(vatId('GR094259216'))).toEqual({
      status: 'invalid',
      country: 'EL',
      number: 'EL094259216',
      checked_at: '2026-03-02T09:30:00.000Z',
    });
    expect(received).toEqual([{ countryCode: 'EL', vatNumber: '094259216' }]);
  });

  it("asks again without a requester when VIES refuses the seller's VAT ID: the buyer is checked, without consultation number", async () => {
    expect(await client().checkVatNumber(vatId('ATU13585627'), { requester: vatId(REFUSED_REQUESTER) })).toEqual({
      status: 'valid',
      country: 'AT',
      number: 'ATU13585627',
      name: 'Musterdruck GmbH',
      address: 'Ringstraße 1\n1010 Wien',
      checked_at: '2026-03-02T09:29:58.123Z',
    });
    expect(received).toEqual([
      { countryCode: 'AT', vatNumber: 'U13585627', requesterMemberStateCode: 'SE', requesterNumber: '123456789701' },
      { countryCode: 'AT', vatNumber: 'U13585627' },
    ]);
  });
});
