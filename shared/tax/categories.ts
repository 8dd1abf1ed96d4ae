/**
 * Tax categories: what a product, a legacy product, a manual line or shipping declares it is
 * (`standard`, `reduced`, `zero`, `exempt`), and what a priced line ends up charged as once the
 * customer's tax treatment is applied (the same four, or `reverse_charge` and `export` at 0 %).
 *
 * The applied category is what documents print and what an e-invoice writes as its VAT category
 * code (UNTDID 5305, EN 16931 BT-151/BT-118): S for a rate above zero, Z zero-rated, E exempt
 * (with its reason, BR-E-10), AE reverse charge (BR-AE-*), G export outside the EU (BR-G-*).
 */
import { taxOn } from '#shared/pricing/tax';
import type { TaxTreatment } from './treatment';

export const TAX_CATEGORIES = ['standard', 'reduced', 'zero', 'exempt'] as const;
/** What a product, legacy product, manual line or shipping is declared as. */
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const APPLIED_TAX_CATEGORIES = [...TAX_CATEGORIES, 'reverse_charge', 'export'] as const;
/** What a priced line is charged as: its declared category, or the treatment's when that overrides it. */
export type AppliedTaxCategory = (typeof APPLIED_TAX_CATEGORIES)[number];

/** The account's rate per category, in percent. `zero` and `exempt` are 0 by their nature. */
export interface TaxRates {
  standard: number;
  reduced: number;
  zero: 0;
  exempt: 0;
}

/** Germany's rates (UStG §12: 19 % standard, 7 % reduced — printed books, brochures, newspapers). */
export const DEFAULT_TAX_RATES: TaxRates = { standard: 19, reduced: 7, zero: 0, exempt: 0 };

/** The rates of an account that holds only the single pre-category `tax_rate`: it is the standard rate. */
export const ratesFromLegacyTaxRate = (taxRate: number, reduced = DEFAULT_TAX_RATES.reduced): TaxRates => ({
  standard: taxRate,
  reduced,
  zero: 0,
  exempt: 0,
});

/** UNTDID 5305 VAT category code of an applied category (EN 16931 BT-151, BT-118). */
export type VatCategoryCode = 'S' | 'Z' | 'E' | 'AE' | 'G';

export function vatCategoryCode(category: AppliedTaxCategory, rate: number): VatCategoryCode {
  switch (category) {
    case 'standard':
    case 'reduced':
      // A shop may set a reduced rate of 0 % (a zero-rated book in some member states): that is Z, not S at 0.
      return rate > 0 ? 'S' : 'Z';
    case 'zero':
      return 'Z';
    case 'exempt':
      return 'E';
    case 'reverse_charge':
      return 'AE';
    case 'export':
      return 'G';
  }
}

/**
 * The VATEX exemption reason code (CEF list, EN 16931 BT-121) and the legal note documents print
 * for the categories that charge no VAT by law. `exempt` has no fixed code: its reason is the
 * shop's own text (the product's or line's `tax_exemption_reason`).
 */
export const TAX_NOTES = {
  reverse_charge: {
    code: 'VATEX-EU-AE',
    text: 'Reverse charge: VAT is due from the recipient (Article 196 of Council Directive 2006/112/EC).',
  },
  export: {
    code: 'VATEX-EU-G',
    text: 'Export outside the EU, exempt from VAT (Article 146 of Council Directive 2006/112/EC).',
  },
} as const satisfies Partial<Record<AppliedTaxCategory, { code: string; text: string }>>;

export interface AppliedTax {
  category: AppliedTaxCategory;
  rate: number;
}

/**
 * How a line of `category` is charged under `treatment`: a reverse-charge or export sale charges
 * every line at 0 % under AE or G, except an exempt line, which stays exempt (its supply is exempt
 * whoever buys it); a domestic or EU consumer sale charges the seller's rate of the category.
 */
export function applyTaxTreatment(category: TaxCategory, treatment: TaxTreatment, rates: TaxRates): AppliedTax {
  if (category !== 'exempt' && treatment === 'eu_reverse_charge') return { category: 'reverse_charge', rate: 0 };
  if (category !== 'exempt' && treatment === 'export') return { category: 'export', rate: 0 };
  return { category, rate: rates[category] };
}

export interface TaxLine {
  category: AppliedTaxCategory;
  rate: number;
  /** Net amount in minor units. */
  amount: number;
}

export interface TaxBreakdownEntry {
  category: AppliedTaxCategory;
  rate: number;
  taxable_amount: number;
  tax_amount: number;
}

const CATEGORY_ORDER: Record<AppliedTaxCategory, number> = { standard: 0, reduced: 1, zero: 2, exempt: 3, reverse_charge: 4, export: 5 };

/**
 * The tax breakdown of priced lines (shipping included as a line of its own category): one entry
 * per category and rate, its tax rounded half-up once on its taxable amount (EN 16931 BR-CO-17:
 * a category's VAT is its taxable amount × rate, never a sum of rounded line taxes). Highest rate
 * first, then in category order. The total tax is the sum of the entries' `tax_amount`.
 */
export function taxBreakdown(lines: readonly TaxLine[]): TaxBreakdownEntry[] {
  const groups = new Map<string, TaxBreakdownEntry>();
  for (const line of lines) {
    const key = `${line.category}:${line.rate}`;
    const entry = groups.get(key) ?? { category: line.category, rate: line.rate, taxable_amount: 0, tax_amount: 0 };
    entry.taxable_amount += line.amount;
    groups.set(key, entry);
  }
  return [...groups.values()]
    .map((entry) => ({ ...entry, tax_amount: taxOn(entry.taxable_amount, entry.rate) }))
    .sort((a, b) => b.rate - a.rate || CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category]);
}

/** The sum of a breakdown's tax: the one total tax every priced answer shows. */
export const totalTax = (taxes: readonly TaxBreakdownEntry[]): number => taxes.reduce((sum, entry) => sum + entry.tax_amount, 0);
