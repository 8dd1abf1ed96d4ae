import { describe, expect, it } from 'vitest';
import { VAT_COUNTRIES } from '#shared/tax/vat-countries';
import { checkVatId, normaliseVatId } from '#shared/tax/vat-id';

/**
 * The offline check of shared/tax/vat-id.ts. The valid numbers are the worked examples of
 * python-stdnum's documentation, one or two per member state, written as they were printed there
 * (spaces, dashes, lower case); the wrong check digits are its examples of invalid ones.
 */
const PUBLISHED_EXAMPLES: [input: string, number: string][] = [
  ['AT U13585627', 'ATU13585627'],
  ['BE0428759497', 'BE0428759497'],
  ['BG 175 074 752', 'BG175074752'],
  ['CY-10259033P', 'CY10259033P'],
  ['CZ 25123891', 'CZ25123891'],
  ['DE 136 695 976', 'DE136695976'],
  ['DK 13585628', 'DK13585628'],
  ['EE 100 931 558', 'EE100931558'],
  ['EL 094259216', 'EL094259216'],
  ['ES B-58378431', 'ESB58378431'],
  ['FI 20774740', 'FI20774740'],
  ['Fr 40 303 265 045', 'FR40303265045'],
  ['HR 33392005961', 'HR33392005961'],
  ['HU-12892312', 'HU12892312'],
  ['IE 6433435F', 'IE6433435F'],
  ['IE 6433435OA', 'IE6433435OA'],
  ['IT 00743110157', 'IT00743110157'],
  ['LT 100001919017', 'LT100001919017'],
  ['LU 150 274 42', 'LU15027442'],
  ['LV 4000 3521 600', 'LV40003521600'],
  ['MT 1167-9112', 'MT11679112'],
  ['NL004495445B01', 'NL004495445B01'],
  // A sole trader's number since 2020, checked by ISO 7064 mod 97 rather than the 11-test.
  ['NL002455799B11', 'NL002455799B11'],
  ['PL 8567346215', 'PL8567346215'],
  ['PT 501 964 843', 'PT501964843'],
  ['RO 185 472 90', 'RO18547290'],
  ['SE 123456789701', 'SE123456789701'],
  ['SI 5022 3054', 'SI50223054'],
  ['SK 202 274 96 19', 'SK2022749619'],
  // Northern Ireland: a United Kingdom number (python-stdnum's GB example) under the XI prefix.
  ['XI 980 7806 84', 'XI980780684'],
];

describe('normaliseVatId', () => {
  it('drops spaces, no-break spaces, dots and dashes and upper-cases the rest', () => {
    expect(normaliseVatId(' de 136.695-976 ')).toBe('DE136695976');
    expect(normaliseVatId('atu\u00a01358\t5627')).toBe('ATU13585627');
  });

  it("writes Greece's prefix as EL, the one its VAT IDs carry, also when sent as its ISO code GR", () => {
    expect(normaliseVatId('gr 094259216')).toBe('EL094259216');
    expect(normaliseVatId('EL094259216')).toBe('EL094259216');
  });

  it('keeps any other character, so that the check refuses it rather than passing what is left', () => {
    expect(normaliseVatId('DE136/695/976')).toBe('DE136/695/976');
  });
});

describe('checkVatId', () => {
  it('passes published valid VAT IDs of every member state and Northern Ireland, normalised', () => {
    for (const [input, number] of PUBLISHED_EXAMPLES) {
      expect(checkVatId(input), input).toEqual({ valid: true, country: number.slice(0, 2), number });
    }
    // Every prefix VIES answers for is covered.
    expect([...new Set(PUBLISHED_EXAMPLES.map(([, number]) => number.slice(0, 2)))].sort()).toEqual(Object.keys(VAT_COUNTRIES).sort());
  });

  it('passes a Greek VAT ID sent with GR, as EL', () => {
    expect(checkVatId('GR094259216')).toEqual({ valid: true, country: 'EL', number: 'EL094259216' });
  });

  it('refuses wrong check digits, naming the member state', () => {
    for (const input of ['ATU13585626', 'DE136695978', 'DK13585627', 'IT00743110158', 'PL8567346216', 'NL123456789B90', 'XI802311781']) {
      expect(checkVatId(input), input).toMatchObject({ valid: false, reason: 'checksum' });
    }
    expect(checkVatId('DE136695978')).toEqual({
      valid: false,
      reason: 'checksum',
      message: 'is not a VAT ID of Germany: its check digits do not match (a digit mistyped?)',
    });
  });

  it("refuses a number of the wrong length or form for its member state, saying the state's form", () => {
    expect(checkVatId('DE13669597')).toEqual({ valid: false, reason: 'format', message: 'must be a VAT ID of Germany: DE and 9 digits' });
    expect(checkVatId('DE1366959760')).toMatchObject({ valid: false, reason: 'format' });
    expect(checkVatId('AT13585627')).toEqual({ valid: false, reason: 'format', message: 'must be a VAT ID of Austria: ATU and 8 digits' });
    expect(checkVatId('NL004495445')).toMatchObject({ valid: false, reason: 'format' });
    expect(checkVatId('SE123456789702')).toMatchObject({ valid: false, reason: 'format' });
    // A stray character is refused, not dropped (jsvat alone would drop the slashes and pass it).
    expect(checkVatId('DE136/695/976')).toMatchObject({ valid: false, reason: 'format' });
    expect(checkVatId('DE')).toMatchObject({ valid: false, reason: 'format' });
  });

  it("refuses a prefix that is no EU member state's, the United Kingdom's since 2021 included", () => {
    expect(checkVatId('GB980780684')).toEqual({
      valid: false,
      reason: 'country',
      message: 'must start with the prefix of an EU member state (EL for Greece, XI for Northern Ireland); GB is none',
    });
    for (const input of ['CHE-116.281.710', 'NO974760673', 'US123456789', 'EU123456789']) {
      expect(checkVatId(input), input).toMatchObject({ valid: false, reason: 'country' });
    }
  });

  it('refuses a number without a prefix and an empty one', () => {
    expect(checkVatId('136695976')).toEqual({
      valid: false,
      reason: 'country',
      message: 'must start with the prefix of an EU member state (EL for Greece, XI for Northern Ireland)',
    });
    expect(checkVatId('  ')).toMatchObject({ valid: false, reason: 'country' });
  });
});
