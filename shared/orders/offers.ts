/**
 * What an order and a quote are both made of: a customer's priced lines with totals and address
 * copies — read, priced and checked once, here, so there is one pricing path. Three independent
 * reads at once (strongly consistent: a customer or product created a moment ago must be found):
 * the customer with addresses, the products, the account (currency, tax rate, company settings).
 * Every problem is collected and refused together (422) before anything is written or numbered.
 */
import { getAccount } from '#shared/accounts/repository';
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

/**
 * The priced offer, the products it was priced from (orders plan their stock with them) and the
 * account; `check` adds problems of the caller's own (a quote's validity), or refuses the offer in
 * its own terms from what was read (a cart's checkout: unavailable lines, changed prices). 422 `what is invalid`.
 */
export async function prepareOffer(
  tenant: Tenant,
  input: OfferInput,
  what: string,
  check: (
    account: Account | undefined,
    problems: ErrorDetail[],
    products: ReadonlyMap<number, ProductRecord>,
    legacy: ReadonlyMap<number, LegacyLinePrice>,
  ) => void = () => {},
  /** The lines' files must be this customer's (a customer token's order): shared/files/line-files.ts. */
  fileOwner?: number,
  /** The customer as it is, not read: one made with the offer (a guest checkout's). */
  knownOwner?: CustomerAddresses,
): Promise<{ offer: PricedOffer; products: Map<number, ProductRecord>; account: Account | undefined }> {
  const [owner, products, account, files, legacy] = await Promise.all([
    knownOwner ?? readOwner(tenant, input.customer_id),
    readProducts(tenant, inputProductIds(input.items)),
    getAccount(tenant.accountId),
    checkLineFiles(tenant, input.items, fileOwner === undefined ? {} : { owner: fileOwner }),
    priceLegacyLines(tenant, legacyCellsOf(input.items)),
  ]);
  const pricing = { currency: account?.currency ?? 'EUR', tax_rate: account?.tax_rate ?? 19 };
  const problems: ErrorDetail[] = [];
  if (!owner) problems.push({ field: 'customer_id', message: `No customer with id ${input.customer_id}` });
  const priced = priceLines(input.items, products, pricing, 'items', legacy);
  problems.push(...priced.problems, ...files.problems);
  const choices = addressChoices(input);
  const shippingAddress = owner ? resolveAddress('shipping', choices.shipping, owner, true, problems) : null;
  const billingAddress = owner ? resolveAddress('billing', choices.billing, owner, true, problems) : null;
  check(account, problems, products, legacy);
  if (problems.length) throw new ValidationError(`The ${what} is invalid`, problems);
  const { id, name, email } = owner!.customer;
  return {
    offer: {
      customer: { id, name, email },
      items: withFileCopies(priced.lines, files.copies),
      ...orderTotals(priced.lines, input.shipping, pricing.tax_rate),
      tax_rate: pricing.tax_rate,
      shipping: input.shipping,
      currency: pricing.currency,
      shipping_address: shippingAddress ?? null,
      billing_address: billingAddress ?? null,
      notes: input.notes ?? null,
    },
    products,
    account,
  };
}
