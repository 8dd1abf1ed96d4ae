/** Invoice test helpers: an account able to invoice, and invoices from orders. */
import { AccountUpdateSchema } from '#shared/accounts/schema';
import { updateAccountSettings } from '#shared/accounts/service';
import { call } from './http';
import { newCustomer } from './orders';

/** Company details that satisfy invoicing (seller name with letters beyond Latin-1). */
export const sellerCompany = () => ({
  legal_name: 'Druckerei Łódź & Müller GmbH',
  address: { name: 'Druckerei Łódź & Müller GmbH', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
  vat_id: 'DE123456789',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  email: 'billing@druckerei.example',
  phone: '+49 30 1234567',
  payment_terms_days: 14,
  invoice_footer: 'Geschäftsführerin: Ørsted Müller · HRB 12345 B · Amtsgericht Charlottenburg',
});

/** Gives the account the company details invoices need (straight through the service, as the CLI does). */
export async function enableInvoicing(accountId: string): Promise<void> {
  await updateAccountSettings(accountId, AccountUpdateSchema.parse({ company: sellerCompany() }));
}

/** Issues an invoice for `orderId` and answers it (throws on anything but 201). */
export async function invoiceOrder(key: string, orderId: number, extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/invoices', { key, body: { order_id: orderId, ...extra } });
  if (response.status !== 201) throw new Error(`invoice of order ${orderId}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A buyer's billing address as XRechnung wants it: with city and post code (BR-DE-8, BR-DE-9). */
export const buyerAddress = (name = 'Rechnungsstelle') => ({
  name,
  line1: 'Friedrichstraße 100',
  postal_code: '10117',
  city: 'Berlin',
  country: 'DE',
});

/**
 * A customer who can be invoiced: with a default billing address (copied onto their orders, and
 * onto invoices without an order). Invoices are refused for a buyer without one.
 */
export async function billableCustomer(key: string, overrides: Record<string, unknown> = {}) {
  const customer = await newCustomer(key, overrides);
  const address = await call('POST', `/v1/customers/${customer.id}/addresses`, {
    key,
    body: { type: 'billing', ...buyerAddress(customer.name), is_default: true },
  });
  if (address.status !== 201)
    throw new Error(`billing address of customer ${customer.id}: ${address.status} ${JSON.stringify(address.body)}`);
  return customer;
}
