/**
 * A VAT ID checked offline: normalised as VIES expects it, then its form and check digits tested
 * by the rules of its member state (jsvat's, shared/tax/vat-countries.ts). Passing says only that
 * the number could exist; whether it is registered is VIES's to say (shared/tax/vies.ts).
 */
import { checkVAT } from 'jsvat';
import { isVatCountryCode, VAT_COUNTRIES, type VatCountryCode } from './vat-countries';

export type { VatCountryCode } from './vat-countries';

export interface ValidVatId {
  valid: true;
  country: VatCountryCode;
  /** The whole VAT ID, normalised: prefix and number, upper case, no separators (`DE136695976`). */
  number: string;
}

export interface InvalidVatId {
  valid: false;
  /** `country`: no EU member state's prefix; `format`: not the member state's form; `checksum`: its check digits do not match. */
  reason: 'format' | 'checksum' | 'country';
  /** Said of the field, for a 422's detail: "must be a VAT ID of Germany: DE and 9 digits". */
  message: string;
}

export type VatIdCheck = ValidVatId | InvalidVatId;

/** Whitespace (no-break spaces too), dots and dashes: how VAT IDs are printed ("DE 136.695.976", "ATU-1358-5627"). */
const SEPARATORS = /[\s.-]+/g;

/** Upper case without separators; GR, Greece's ISO code written out of habit, becomes EL, the prefix its VAT IDs carry. */
export function normaliseVatId(input: string): string {
  const compact = input.replace(SEPARATORS, '').toUpperCase();
  return compact.startsWith('GR') ? `EL${compact.slice(2)}` : compact;
}

/**
 * The characters any member state's VAT IDs are made of (Ireland's may hold + and *). Checked
 * before jsvat, which would drop a slash or other stray character silently and pass the rest.
 */
const ANY_VAT_ID = /^[A-Z]{2}[0-9A-Z+*]{2,13}$/;

const PREFIXES = 'EL for Greece, XI for Northern Ireland';

export function checkVatId(input: string): VatIdCheck {
  const number = normaliseVatId(input);
  const prefix = number.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(prefix)) return invalid('country', `must start with the prefix of an EU member state (${PREFIXES})`);
  if (!isVatCountryCode(prefix)) {
    return invalid('country', `must start with the prefix of an EU member state (${PREFIXES}); ${prefix} is none`);
  }
  const { name, form, rules } = VAT_COUNTRIES[prefix];
  if (!ANY_VAT_ID.test(number)) return invalid('format', `must be a VAT ID of ${name}: ${form}`);
  const result = checkVAT(number, [rules]);
  if (!result.isValidFormat) return invalid('format', `must be a VAT ID of ${name}: ${form}`);
  if (!result.isValid) return invalid('checksum', `is not a VAT ID of ${name}: its check digits do not match (a digit mistyped?)`);
  return { valid: true, country: prefix, number };
}

const invalid = (reason: InvalidVatId['reason'], message: string): InvalidVatId => ({ valid: false, reason, message });
