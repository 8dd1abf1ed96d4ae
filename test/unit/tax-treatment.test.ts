import { describe, expect, it } from 'vitest';
import { applyTaxTreatment, DEFAULT_TAX_RATES, taxBreakdown, totalTax, vatCategoryCode } from '#shared/tax/categories';
import { deriveTaxTreatment, type TaxTreatmentInput } from '#shared/tax/treatment';

const sale = (over: Partial<TaxTreatmentInput>): TaxTreatmentInput => ({
  sellerCountry: 'DE',
  billingCountry: 'DE',
  vat: null,
  override: null,
  ...over,
});

describe('deriveTaxTreatment', () => {
  it('charges a buyer in the seller country domestic VAT, VAT ID or not', () => {
    expect(deriveTaxTreatment(sale({ vat: { status: 'valid', country: 'DE' } })).treatment).toBe('domestic');
  });
  it('reverse-charges an EU business whose VAT ID VIES confirms for its billing state', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'FR', vat: { status: 'valid', country: 'FR' } }))).toEqual({
      treatment: 'eu_reverse_charge',
      source: 'derived',
      warning: null,
    });
  });
  it('reads the Greek VAT prefix EL as Greece', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'GR', vat: { status: 'valid', country: 'EL' } })).treatment).toBe('eu_reverse_charge');
  });
  it('treats a buyer outside the EU as an export', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'CH' })).treatment).toBe('export');
    expect(deriveTaxTreatment(sale({ billingCountry: 'GB', vat: { status: 'valid', country: 'XI' } })).treatment).toBe('export');
  });
  it('charges an EU consumer the seller rates', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'FR' })).treatment).toBe('eu_consumer');
  });
  it('falls back to domestic with a warning when VIES is unavailable', () => {
    const decision = deriveTaxTreatment(sale({ billingCountry: 'FR', vat: { status: 'unavailable', country: 'FR' } }));
    expect(decision.treatment).toBe('domestic');
    expect(decision.warning).toMatch(/VIES did not answer/);
  });
  it('does not reverse-charge on a VAT ID VIES refuses or of another state', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'FR', vat: { status: 'invalid', country: 'FR' } })).treatment).toBe('eu_consumer');
    expect(deriveTaxTreatment(sale({ billingCountry: 'FR', vat: { status: 'valid', country: 'AT' } })).treatment).toBe('eu_consumer');
  });
  it('follows the shop override', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: 'FR', override: 'domestic' }))).toEqual({
      treatment: 'domestic',
      source: 'override',
      warning: null,
    });
  });
  it('treats no billing country as domestic', () => {
    expect(deriveTaxTreatment(sale({ billingCountry: null })).treatment).toBe('domestic');
  });
});

describe('applyTaxTreatment', () => {
  it('charges the account rate of the category at home', () => {
    expect(applyTaxTreatment('reduced', 'domestic', DEFAULT_TAX_RATES)).toEqual({ category: 'reduced', rate: 7 });
    expect(applyTaxTreatment('standard', 'eu_consumer', DEFAULT_TAX_RATES)).toEqual({ category: 'standard', rate: 19 });
  });
  it('charges 0 % under AE or G for reverse charge and export, but keeps exempt lines exempt', () => {
    expect(applyTaxTreatment('reduced', 'eu_reverse_charge', DEFAULT_TAX_RATES)).toEqual({ category: 'reverse_charge', rate: 0 });
    expect(applyTaxTreatment('standard', 'export', DEFAULT_TAX_RATES)).toEqual({ category: 'export', rate: 0 });
    expect(applyTaxTreatment('exempt', 'export', DEFAULT_TAX_RATES)).toEqual({ category: 'exempt', rate: 0 });
  });
  it('maps each applied category to its UNTDID 5305 code', () => {
    expect(['standard', 'reduced', 'zero', 'exempt', 'reverse_charge', 'export'].map((c) => vatCategoryCode(c as never, 7))).toEqual([
      'S',
      'S',
      'Z',
      'E',
      'AE',
      'G',
    ]);
    expect(vatCategoryCode('reduced', 0)).toBe('Z');
  });
});

describe('taxBreakdown', () => {
  it('groups by category and rate, rounds each group once, highest rate first', () => {
    const taxes = taxBreakdown([
      { category: 'reduced', rate: 7, amount: 1005 },
      { category: 'standard', rate: 19, amount: 333 },
      { category: 'reduced', rate: 7, amount: 1005 },
      { category: 'standard', rate: 19, amount: 333 },
    ]);
    expect(taxes).toEqual([
      { category: 'standard', rate: 19, taxable_amount: 666, tax_amount: 127 },
      { category: 'reduced', rate: 7, taxable_amount: 2010, tax_amount: 141 },
    ]);
    expect(totalTax(taxes)).toBe(268);
  });
});
