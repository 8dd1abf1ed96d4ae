/**
 * The prefixes of VAT IDs that VIES answers for — the 27 member states and Northern Ireland — each
 * with jsvat's rules for its form and check digits, and the form in words for a 422's detail.
 *
 * jsvat (https://github.com/se-panfilov/jsvat) knows more countries than the EU (Switzerland,
 * Norway, the United Kingdom…): only these are taken, so a GB or CH number is refused as "not an
 * EU VAT ID" rather than passed. It knows Greece by GR but its rule expects the EL prefix VAT IDs
 * carry; and it has no Northern Ireland: XI numbers are the United Kingdom's numbers (the same
 * forms and check digits) under another prefix, added here the way its README extends the list.
 */
import {
  austria,
  belgium,
  bulgaria,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  unitedKingdom,
  type Country,
} from 'jsvat';

/** jsvat's United Kingdom rules, anchored on the XI prefix (its calcFn reads the digits after the prefix only). */
const northernIreland = /* @__PURE__ */ ((): Country => ({
  ...unitedKingdom,
  name: 'Northern Ireland',
  codes: ['XI'],
  rules: { ...unitedKingdom.rules, regex: [/^(XI)(\d{9})$/, /^(XI)(\d{12})$/, /^(XI)(GD\d{3})$/, /^(XI)(HA\d{3})$/] },
}))();

export interface VatCountry {
  /** The name a message uses. */
  name: string;
  /** The form of its VAT IDs, in words: what a 422 tells the caller to send. */
  form: string;
  rules: Country;
}

const country = (name: string, form: string, rules: Country): VatCountry => ({ name, form, rules });

/**
 * Prefix → country. The prefixes are VIES's: EL for Greece (not the ISO GR), XI for Northern Ireland.
 * Marked pure, so that a bundle which imports a module using it without checking a VAT ID (a guest
 * checkout's customer) leaves jsvat's rules out.
 */
export const VAT_COUNTRIES = /* @__PURE__ */ (() =>
  ({
    AT: country('Austria', 'ATU and 8 digits', austria),
    BE: country('Belgium', 'BE and 10 digits', belgium),
    BG: country('Bulgaria', 'BG and 9 or 10 digits', bulgaria),
    CY: country('Cyprus', 'CY, 8 digits and a letter', cyprus),
    CZ: country('Czechia', 'CZ and 8 to 10 digits', czechRepublic),
    DE: country('Germany', 'DE and 9 digits', germany),
    DK: country('Denmark', 'DK and 8 digits', denmark),
    EE: country('Estonia', 'EE and 9 digits', estonia),
    EL: country('Greece', 'EL and 9 digits', greece),
    ES: country('Spain', 'ES and 9 characters: a letter or digit, 7 digits, a letter or digit', spain),
    FI: country('Finland', 'FI and 8 digits', finland),
    FR: country('France', 'FR, 2 check characters and the 9-digit SIREN', france),
    HR: country('Croatia', 'HR and 11 digits', croatia),
    HU: country('Hungary', 'HU and 8 digits', hungary),
    IE: country('Ireland', 'IE, 7 digits and 1 or 2 letters', ireland),
    IT: country('Italy', 'IT and 11 digits', italy),
    LT: country('Lithuania', 'LT and 9 or 12 digits', lithuania),
    LU: country('Luxembourg', 'LU and 8 digits', luxembourg),
    LV: country('Latvia', 'LV and 11 digits', latvia),
    MT: country('Malta', 'MT and 8 digits', malta),
    NL: country('the Netherlands', 'NL, 9 digits, B and 2 digits', netherlands),
    PL: country('Poland', 'PL and 10 digits', poland),
    PT: country('Portugal', 'PT and 9 digits', portugal),
    RO: country('Romania', 'RO and 2 to 10 digits', romania),
    SE: country('Sweden', 'SE and 12 digits ending in 01', sweden),
    SI: country('Slovenia', 'SI and 8 digits', slovenia),
    SK: country('Slovakia', 'SK and 10 digits', slovakiaRepublic),
    XI: country('Northern Ireland', 'XI and 9 or 12 digits', northernIreland),
  }) as const satisfies Record<string, VatCountry>)();

export type VatCountryCode = keyof typeof VAT_COUNTRIES;

export const isVatCountryCode = (prefix: string): prefix is VatCountryCode => Object.hasOwn(VAT_COUNTRIES, prefix);
