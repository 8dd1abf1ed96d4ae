/**
 * The real VIES, through its REST API: `POST {base}/check-vat-number`, as the European
 * Commission's contract for it describes the call ("Vies on-the-Web Endpoint", published as
 * https://ec.europa.eu/assets/taxud/vow-information/swagger_publicVAT.yaml):
 *
 * - request (CheckVatRequest): `countryCode` (the VAT ID's prefix: EL for Greece, XI for Northern
 *   Ireland) and `vatNumber` (the rest); `requesterMemberStateCode` and `requesterNumber`, the
 *   asker's own VAT ID, "in order to retrieve the requestIdentifier" — the consultation number;
 *   the `trader…` fields ask for approximate matching, which is not used;
 * - 200 (CheckVatResponse): `valid`, `requestDate`, `requestIdentifier`, `name` and `address`
 *   (`---` where the member state discloses none, as Germany and Spain do);
 * - 400 and 500 (CommonResponse): `actionSucceed: false` and `errorWrappers: [{ error, message }]`,
 *   whose codes are those of the SOAP service's documentation (checkVatService.wsdl): INVALID_INPUT,
 *   INVALID_REQUESTER_INFO, SERVICE_UNAVAILABLE, MS_UNAVAILABLE, TIMEOUT, VAT_BLOCKED, IP_BLOCKED,
 *   GLOBAL_MAX_CONCURRENT_REQ(_TIME), MS_MAX_CONCURRENT_REQ(_TIME). Such a body is read whatever
 *   the HTTP status, which the contract does not tie to the codes.
 *
 * What is made of it: `valid` true or false is the answer; INVALID_INPUT is `invalid` (VIES refuses
 * the number itself); INVALID_REQUESTER_INFO — the seller's VAT ID refused — is asked once more
 * without a requester, so the buyer's number is still checked (without a consultation number);
 * every other code, an unknown one, a timeout, a network error or a body that is neither shape is
 * `unavailable`. Nothing here throws.
 */
import type { ValidVatId } from './vat-id';
import type { ViesCheck, ViesCheckOptions, ViesClient } from './vies';

export const VIES_BASE_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

/**
 * One request's timeout. VIES waits on the member state's own service, which can take seconds;
 * past this the caller is better served by `unavailable` (checked again later) than by a slow order.
 */
export const VIES_TIMEOUT_MS = 5_000;

export interface ViesRestOptions {
  /** Default: the Commission's service. Tests point it at a local fake. */
  baseUrl?: string;
  timeoutMs?: number;
  /** The clock of `checked_at` when VIES gives no date (tests fix it). */
  now?: () => Date;
}

/** VIES's placeholder for a name or address the member state does not disclose. */
const UNDISCLOSED = '---';

interface Answer {
  status: number;
  body: unknown;
}

export function viesRestClient(options: ViesRestOptions = {}): ViesClient {
  const endpoint = `${(options.baseUrl ?? VIES_BASE_URL).replace(/\/+$/, '')}/check-vat-number`;
  const timeoutMs = options.timeoutMs ?? VIES_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());

  /** One POST; a failure to get any answer is the reason it is unavailable. */
  async function ask(vatId: ValidVatId, requester: ValidVatId | undefined): Promise<Answer | { failed: string }> {
    const body = {
      countryCode: vatId.country,
      vatNumber: vatId.number.slice(2),
      ...(requester ? { requesterMemberStateCode: requester.country, requesterNumber: requester.number.slice(2) } : {}),
    };
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      return { status: response.status, body: parseJson(text) };
    } catch (error) {
      // AbortSignal.timeout aborts with a TimeoutError, also while the body is still arriving.
      return { failed: error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network' };
    }
  }

  return {
    async checkVatNumber(vatId: ValidVatId, checkOptions: ViesCheckOptions = {}): Promise<ViesCheck> {
      const asked = { country: vatId.country, number: vatId.number };
      let answer = await ask(vatId, checkOptions.requester);
      if (checkOptions.requester && 'status' in answer && errorCodes(answer.body).includes('INVALID_REQUESTER_INFO')) {
        answer = await ask(vatId, undefined);
      }
      if ('failed' in answer)
        return { ...asked, status: 'unavailable', checked_at: now().toISOString(), unavailable_reason: answer.failed };
      return readAnswer(answer, asked, now);
    },
  };
}

function readAnswer(answer: Answer, asked: Pick<ViesCheck, 'country' | 'number'>, now: () => Date): ViesCheck {
  const codes = errorCodes(answer.body);
  if (codes.includes('INVALID_INPUT')) return { ...asked, status: 'invalid', checked_at: now().toISOString() };
  if (codes.length > 0) return { ...asked, status: 'unavailable', checked_at: now().toISOString(), unavailable_reason: codes[0] };
  const body = answer.body;
  if (answer.status !== 200 || !isRecord(body) || typeof body.valid !== 'boolean') {
    return { ...asked, status: 'unavailable', checked_at: now().toISOString(), unavailable_reason: `http_${answer.status}` };
  }
  const checked_at = dateOf(body.requestDate) ?? now().toISOString();
  const consultation_number = disclosed(body.requestIdentifier);
  if (!body.valid) return { ...asked, status: 'invalid', checked_at, ...(consultation_number ? { consultation_number } : {}) };
  const name = disclosed(body.name);
  const address = disclosed(body.address);
  return {
    ...asked,
    status: 'valid',
    ...(name ? { name } : {}),
    ...(address ? { address } : {}),
    checked_at,
    ...(consultation_number ? { consultation_number } : {}),
  };
}

/** The codes of a CommonResponse (`errorWrappers[].error`); none for any other body. */
function errorCodes(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.errorWrappers)) return [];
  const codes = body.errorWrappers.map((wrapper: unknown) => (isRecord(wrapper) && typeof wrapper.error === 'string' ? wrapper.error : ''));
  // A CommonResponse without a readable code still says the action failed.
  return codes.some(Boolean) ? codes.filter(Boolean) : ['SERVICE_UNAVAILABLE'];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A text VIES filled in: not empty, not its `---`. */
function disclosed(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return text && text !== UNDISCLOSED ? text : undefined;
}

function dateOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
