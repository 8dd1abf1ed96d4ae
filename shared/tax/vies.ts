/**
 * Whether a VAT ID is registered, asked of VIES, the EU's VAT Information Exchange System: the
 * answer a reverse charge relies on, with the trader's name and address where the member state
 * discloses them and, when the seller's own VAT ID is sent along, a consultation number that proves
 * the check was made. Two clients answer the same question (docs/tax.md):
 *
 * - the real one over HTTPS (vies-rest.ts), on AWS;
 * - a deterministic sandbox without network (vies-sandbox.ts), locally, in tests, and on a deployed
 *   stage whose functions have `VIES_SANDBOX=true`.
 *
 * Neither throws for VIES being down, slow or refusing: that is `unavailable`, which never blocks
 * an order — the caller falls back to domestic VAT and warns.
 */
import { config } from '#shared/config';
import type { ValidVatId, VatCountryCode } from './vat-id';
import { viesRestClient } from './vies-rest';
import { viesSandbox } from './vies-sandbox';

export type ViesStatus = 'valid' | 'invalid' | 'unavailable';

export interface ViesCheck {
  /** `valid`: registered; `invalid`: VIES says it is not (or not a well-formed number); `unavailable`: no answer either way. */
  status: ViesStatus;
  country: VatCountryCode;
  /** The whole VAT ID asked for, prefix included (`ATU13585627`). */
  number: string;
  /** The trader's name and address as the member state has them — only when valid, and only where the state discloses them. */
  name?: string;
  address?: string;
  /** When the answer was given: VIES's request date when it answered, else when it was asked (ISO 8601). */
  checked_at: string;
  /** VIES's request identifier — only when a requester was sent: the proof of the check a tax audit asks for. */
  consultation_number?: string;
  /** Why `unavailable`: VIES's error code (`MS_UNAVAILABLE`…), `timeout`, `network` or `http_<status>`; for the log and the warning. */
  unavailable_reason?: string;
}

export interface ViesCheckOptions {
  /** The seller's own VAT ID: sent as the requester so that VIES answers with a consultation number. */
  requester?: ValidVatId;
}

export interface ViesClient {
  /** The number must have passed the offline check (checkVatId): a malformed one is the caller's 422, never a question to VIES. */
  checkVatNumber(vatId: ValidVatId, options?: ViesCheckOptions): Promise<ViesCheck>;
}

export const viesEnv = {
  /** `true`: the sandbox answers on AWS too (a dev stage whose customers are made up); off AWS it answers anyway. */
  viesSandbox: 'VIES_SANDBOX',
} as const;

/**
 * The client for where the code runs: the real VIES only in a Lambda on AWS
 * (`AWS_LAMBDA_FUNCTION_NAME`, which the runtime always sets) outside local mode and without
 * `VIES_SANDBOX=true`; anywhere else — `npm start`, tests, scripts — the sandbox, so that no local
 * run or test can reach VIES, and a test cannot depend on its mood.
 */
export function viesClient(): ViesClient {
  const onAws = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) && !config().localMode;
  if (!onAws || process.env[viesEnv.viesSandbox] === 'true') return viesSandbox();
  return viesRestClient();
}
