/**
 * The VIES sandbox: the same answers as VIES's, without the network, the same every time
 * (docs/tax.md#the-sandbox). Three documented Austrian numbers — a member state other than the
 * German seller's, so that each stands for a cross-border buyer — answer valid (with a name and an
 * address), invalid and unavailable; each passes the offline check, so a test with them runs the
 * whole way a real number takes. Any other number that passed the offline check answers valid
 * without a name or address, as VIES does for the member states that disclose none (Germany,
 * Spain): a made-up customer's number is then simply registered.
 *
 * Their digits echo the VIES test service's numbers (100 valid, 200 invalid, 301 MS_UNAVAILABLE),
 * completed to Austrian numbers with the right check digit.
 */
import type { ValidVatId } from './vat-id';
import type { ViesCheck, ViesCheckOptions, ViesClient } from './vies';

export const SANDBOX_VAT_IDS = {
  /** Registered, with the name and address below. */
  valid: 'ATU10000005',
  /** Well-formed, but not registered. */
  invalid: 'ATU20000004',
  /** VIES cannot ask the member state (MS_UNAVAILABLE). */
  unavailable: 'ATU30100002',
} as const;

export const SANDBOX_TRADER = { name: 'Sandbox Druck GmbH', address: 'Teststraße 1\n1010 Wien' } as const;

export interface ViesSandboxOptions {
  now?: () => Date;
}

export function viesSandbox(options: ViesSandboxOptions = {}): ViesClient {
  const now = options.now ?? (() => new Date());
  return {
    async checkVatNumber(vatId: ValidVatId, checkOptions: ViesCheckOptions = {}): Promise<ViesCheck> {
      const asked = { country: vatId.country, number: vatId.number, checked_at: now().toISOString() };
      if (vatId.number === SANDBOX_VAT_IDS.unavailable) return { ...asked, status: 'unavailable', unavailable_reason: 'MS_UNAVAILABLE' };
      // VIES numbers a consultation only when told who asks; the sandbox's is the same for the same number.
      const consultation = checkOptions.requester ? { consultation_number: `SANDBOX-${vatId.number}` } : {};
      if (vatId.number === SANDBOX_VAT_IDS.invalid) return { ...asked, status: 'invalid', ...consultation };
      const trader = vatId.number === SANDBOX_VAT_IDS.valid ? SANDBOX_TRADER : {};
      return { ...asked, status: 'valid', ...trader, ...consultation };
    },
  };
}
