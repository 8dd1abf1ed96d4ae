/**
 * What an order and a quote are both made of: a customer's priced lines with totals and address
 * copies — read, priced and checked once, here, so there is one pricing path. Independent reads at
 * once (strongly consistent: a customer or product created a moment ago must be found): the
 * customer with addresses, the products, the account (currency, tax rate, company settings), the
 * lines' files and legacy prices. Every problem is collected and refused together (422) before
 * anything is written or numbered.
 */
import { getAccount } from '#shared/accounts/repository';
import { accountTaxSettings, sellerCountryOf } from '#shared/accounts/tax';
import { customerTaxProfile } from '#shared/customers/tax-profile';
import { lineTax, saleTreatment } from '#shared/tax/sale';
import type { Account } from '#shared/accounts/stored';
import type { Tenant } from '#shared/auth/principal';
import { readCustomerWithAddresses } from '#shared/customers/repository';
import { NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import { readProducts } from '#shared/products/repository';
import type { ProductRecord } from '#shared/products/stored';
import { addressChoices, resolveAddress, type CustomerAddresses } from './addresses';
import { inputProductIds, legacyCellsOf, orderTotals, priceLines } from './lines';
import type { OrderCreate } from './schema';
import { checkLineFiles, withFileCopies } from '#shared/files/line-files';
import { priceLegacyLines, type LegacyLinePrice } from '#shared/legacy-products/line-prices';
import type { OrderRecord } from './stored';

/** The fields an order and a quote share, as the offer prices them. */
export type PricedOffer = Pick<
  OrderRecord,
  | 'customer'
  | 'items'
  | 'subtotal'
  | 'tax'
  | 'total'
  | 'tax_rate'
  | 'tax_rates'
  | 'tax_treatment'
  | 'tax_treatment_warning'
  | 'shipping_tax_category'
  | 'shipping_tax_rate'
  | 'taxes'
  | 'shipping'
  | 'currency'
  | 'shipping_address'
  | 'billing_address'
  | 'notes'
>;

type OfferInput = Pick<
  OrderCreate,
  'customer_id' | 'items' | 'shipping' | 'notes' | 'shipping_address_id' | 'shipping_address' | 'billing_address_id' | 'billing_address'
>;

/** The customer with its addresses, or undefined when the tenant has no such customer. */
export async function readOwner(tenant: Tenant, customerId: number): Promise<CustomerAddresses | undefined> {
  try {
    return await readCustomerWithAddresses(tenant, customerId, true);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** What an offer was read and priced from, with its problems: the caller judges it (`offerOrThrow`). */
export interface OfferRead {
  /** The offer; undefined when there are problems. */
  offer: PricedOffer | undefined;
  /** Every problem found, each naming its field (422 when the offer is refused for them). */
  problems: ErrorDetail[];
  /** The products, the account and the legacy prices it was priced from (a cart's checkout judges its version by them). */
  products: Map<number, ProductRecord>;
  account: Account | undefined;
  legacy: ReadonlyMap<number, LegacyLinePrice>;
}

/**
 * Reads and prices an offer: the customer with addresses (unless `owner` gives it: one made with
 * the offer, a guest checkout's), the products, the account, the lines' files (`fileOwner`: they
 * must be this customer's, a customer token's order) and the legacy prices, all at once. Nothing is
 * thrown for the offer's problems: they are data, for the caller to add its own to (a quote's
 * validity) or to judge first in its own terms (a cart's checkout: unavailable lines, changed
 * prices), then `offerOrThrow`.
 */
export async function readOffer(
  tenant: Tenant,
  input: OfferInput,
  options: { fileOwner?: number | undefined; owner?: CustomerAddresses | undefined } = {},
): Promise<OfferRead> {
  const [owner, products, account, files, legacy] = await Promise.all([
    options.owner ?? readOwner(tenant, input.customer_id),
    readProducts(tenant, inputProductIds(input.items)),
    getAccount(tenant.accountId),
    checkLineFiles(tenant, input.items, options.fileOwner === undefined ? {} : { owner: options.fileOwner }),
    priceLegacyLines(tenant, legacyCellsOf(input.items)),
  ]);
  const problems: ErrorDetail[] = [];
  if (!owner) problems.push({ field: 'customer_id', message: `No customer with id ${input.customer_id}` });
  const addressProblems: ErrorDetail[] = [];
  const choices = addressChoices(input);
  const shippingAddress = owner ? resolveAddress('shipping', choices.shipping, owner, true, addressProblems) : null;
  const billingAddress = owner ? resolveAddress('billing', choices.billing, owner, true, addressProblems) : null;
  // The sale's tax treatment: the seller's country, the billing address's, the customer's VAT ID.
  const settings = accountTaxSettings(account);
  const decision = saleTreatment({
    sellerCountry: sellerCountryOf(account),
    billingCountry: billingAddress?.country ?? null,
    profile: customerTaxProfile(owner?.customer),
  });
  const pricing = { currency: account?.currency ?? 'EUR', treatment: decision.treatment, rates: settings.rates };
  const priced = priceLines(input.items, products, pricing, 'items', legacy);
  problems.push(...priced.problems, ...files.problems, ...addressProblems);
  const read = { problems, products, account, legacy };
  if (problems.length) return { ...read, offer: undefined };
  const { id, name, email } = owner!.customer;
  const applied = lineTax(settings.shipping_tax_category, decision.treatment, settings.rates);
  const shippingTax = { tax_category: applied.category, tax_rate: applied.rate };
  return {
    ...read,
    offer: {
      customer: { id, name, email },
      items: withFileCopies(priced.lines, files.copies),
      ...orderTotals(priced.lines, { amount: input.shipping, ...shippingTax }),
      tax_rate: settings.rates.standard,
      tax_rates: settings.rates,
      tax_treatment: decision.treatment,
      tax_treatment_warning: decision.warning,
      shipping_tax_category: shippingTax.tax_category,
      shipping_tax_rate: shippingTax.tax_rate,
      shipping: input.shipping,
      currency: pricing.currency,
      shipping_address: shippingAddress ?? null,
      billing_address: billingAddress ?? null,
      notes: input.notes ?? null,
    },
  };
}

/** The offer, or 422 `The <what> is invalid` with every problem (the read's and the caller's own). */
export function offerOrThrow(read: OfferRead, what: string): PricedOffer {
  if (read.problems.length || !read.offer) throw new ValidationError(`The ${what} is invalid`, read.problems);
  return read.offer;
}
