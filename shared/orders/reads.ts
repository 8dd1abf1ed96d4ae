/** The reads order creation and changes share: the customer with addresses, products, the account's pricing. */
import { getAccount } from '#shared/accounts/repository';
import type { Tenant } from '#shared/auth/principal';
import { readCustomerWithAddresses } from '#shared/customers/repository';
import { getMany } from '#shared/db/collections';
import { tenantKeys } from '#shared/db/keys';
import { NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import type { PricingContext } from '#shared/pricing/product-price';
import { productFromItem, type ProductRecord } from '#shared/products/items';
import type { CustomerAddresses } from './addresses';
import type { OrderLineInput } from './schema';

/*
 * Strongly consistent reads: integrations create a customer or a product and order it the next
 * moment; an eventually consistent read could miss it and refuse a valid order.
 */

/** The customer with its addresses, or undefined when the tenant has no such customer. */
export async function readOwner(tenant: Tenant, customerId: number): Promise<CustomerAddresses | undefined> {
  try {
    return await readCustomerWithAddresses(tenant, customerId, true);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

export async function readProducts(tenant: Tenant, lines: readonly OrderLineInput[]): Promise<Map<number, ProductRecord>> {
  const ids = [...new Set(lines.map((line) => line.product_id))];
  const items = await getMany(ids.map((id) => tenantKeys.product(tenant, id)), { consistent: true });
  return new Map(items.map((item) => [Number(item.id), productFromItem(item)]));
}

export async function accountPricing(tenant: Tenant): Promise<PricingContext> {
  const account = await getAccount(tenant.accountId);
  return { currency: account?.currency ?? 'EUR', tax_rate: account?.tax_rate ?? 19 };
}

export function assertValid(problems: ErrorDetail[]): void {
  if (problems.length) throw new ValidationError('The order is invalid', problems);
}
