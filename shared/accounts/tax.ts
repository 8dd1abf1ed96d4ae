/**
 * The account's tax settings: its rate per category and its shipping's category, and the seller's
 * country sales are taxed from. Accounts stored before categories existed hold only `tax_rate`:
 * it is their standard rate (ratesFromLegacyTaxRate), and writing `tax_rate` still sets it.
 */
import { ValidationError } from '#shared/errors';
import { ratesFromLegacyTaxRate, type TaxRates } from '#shared/tax/categories';
import type { SaleTaxSettings } from '#shared/tax/sale';
import type { AccountUpdateInput } from './schema';
import type { Account } from './stored';

type TaxedAccount = Pick<Account, 'tax_rate' | 'tax_rates' | 'shipping_tax_category'>;

/** The rates and shipping category of an account (none read: the defaults, 19 % standard). */
export function accountTaxSettings(account: Partial<TaxedAccount> | undefined): SaleTaxSettings {
  return {
    rates: account?.tax_rates ?? ratesFromLegacyTaxRate(account?.tax_rate ?? 19),
    shipping_tax_category: account?.shipping_tax_category ?? 'standard',
  };
}

/** The seller's country: the account company's address's (null while it has none). */
export const sellerCountryOf = (account: Pick<Account, 'company'> | undefined): string | null => account?.company?.address?.country ?? null;

/**
 * The rates after `PUT /v1/account`: `tax_rates` sets the rates sent, `tax_rate` (the single rate
 * of before) sets the standard one; both naming different standard rates is a 422. Undefined when
 * the request changes no rate.
 */
export function mergeTaxRates(account: TaxedAccount, input: AccountUpdateInput): TaxRates | undefined {
  if (input.tax_rate === undefined && input.tax_rates === undefined) return undefined;
  const sent = input.tax_rates ?? {};
  if (input.tax_rate !== undefined && sent.standard !== undefined && sent.standard !== input.tax_rate) {
    throw new ValidationError('The account update is invalid', [
      { field: 'tax_rate', message: `is the standard rate: it must equal tax_rates.standard (${sent.standard}) when both are sent` },
    ]);
  }
  const current = accountTaxSettings(account).rates;
  return {
    standard: input.tax_rate ?? sent.standard ?? current.standard,
    reduced: sent.reduced ?? current.reduced,
    zero: 0,
    exempt: 0,
  };
}
