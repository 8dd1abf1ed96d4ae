/**
 * An order's shipping and billing addresses are copies: taken from one of the customer's
 * addresses (by id) or given inline, and never changed by later edits of the customer's
 * addresses. Pure; the service reads the customer's addresses once.
 */
import type { AddressRecord, CustomerRecord } from '#shared/customers/stored';
import type { ErrorDetail } from '#shared/errors';
import type { OrderAddressInput } from './schema';
import { orderAddress, type OrderAddressRecord } from './stored';

export type AddressKind = 'shipping' | 'billing';

type Source = Pick<OrderAddressInput, 'name' | 'line1' | 'postal_code' | 'city' | 'country'> &
  Partial<Pick<OrderAddressInput, 'company' | 'line2' | 'region'>>;

/** The copy: the postal fields of an address (a customer's or an inline one), nothing else. */
export const snapshotAddress = (source: Source): OrderAddressRecord => orderAddress.decode(source);

/** What a request says about one address: an id to copy, an inline address, null (clear) or nothing. */
export interface AddressChoice {
  id?: number;
  inline?: OrderAddressInput | null;
}

export interface CustomerAddresses {
  customer: CustomerRecord;
  addresses: AddressRecord[];
}

/**
 * The address to store: undefined means "leave as it is". With `useDefault` (creation), an
 * address not chosen is copied from the customer's default of that kind, or null.
 */
export function resolveAddress(
  kind: AddressKind,
  choice: AddressChoice,
  owner: CustomerAddresses | undefined,
  useDefault: boolean,
  problems: ErrorDetail[],
): OrderAddressRecord | null | undefined {
  if (choice.id !== undefined) {
    const address = owner?.addresses.find((candidate) => candidate.id === choice.id);
    if (!address) {
      const whose = owner ? `customer ${owner.customer.id}` : 'the customer';
      problems.push({ field: `${kind}_address_id`, message: `${whose} has no address with id ${choice.id}` });
      return undefined;
    }
    return snapshotAddress(address);
  }
  if (choice.inline !== undefined) return choice.inline === null ? null : snapshotAddress(choice.inline);
  if (!useDefault) return undefined;
  const defaultId = owner?.customer[`default_${kind}_address_id`];
  const fallback =
    defaultId === undefined || defaultId === null ? undefined : owner?.addresses.find((candidate) => candidate.id === defaultId);
  return fallback ? snapshotAddress(fallback) : null;
}

export const addressChoices = (input: {
  shipping_address_id?: number;
  shipping_address?: OrderAddressInput | null;
  billing_address_id?: number;
  billing_address?: OrderAddressInput | null;
}): Record<AddressKind, AddressChoice> => ({
  shipping: { id: input.shipping_address_id, inline: input.shipping_address },
  billing: { id: input.billing_address_id, inline: input.billing_address },
});

export const needsCustomerAddresses = (choices: Record<AddressKind, AddressChoice>): boolean =>
  choices.shipping.id !== undefined || choices.billing.id !== undefined;
