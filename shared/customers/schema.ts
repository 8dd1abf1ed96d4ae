import * as z from 'zod';
import { optionalText, requiredText, timestamp } from '#shared/schemas/common';
import { countryCode, postalAddressFields, postalAddressOutputFields } from '#shared/schemas/address';
import { paginationQuery } from '#shared/schemas/pagination';

export { CustomerSchema, type Customer } from './output';

const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .meta({ example: 'anna@example.com' });

const customerFields = {
  name: requiredText(200).meta({ example: 'Anna Schmidt' }),
  email,
  phone: optionalText(40),
  company: optionalText(200),
  vat_id: optionalText(40),
  notes: optionalText(5000),
};

export const CustomerCreateSchema = z.strictObject(customerFields).meta({ id: 'CustomerCreate' });

export const CustomerUpdateSchema = z
  .strictObject({ ...customerFields, name: customerFields.name.optional(), email: email.optional() })
  .meta({ id: 'CustomerUpdate', description: 'Only the fields sent are changed; null clears an optional field.' });

export const CustomerListQuerySchema = z.strictObject({
  ...paginationQuery,
  email: z.string().trim().max(254).optional().meta({ description: 'Exact email, case-insensitive' }),
  q: z.string().trim().min(1).max(200).optional().meta({ description: 'Name prefix, case-insensitive' }),
});

const addressFields = {
  type: z.enum(['billing', 'shipping']),
  is_default: z.boolean().optional(),
  ...postalAddressFields,
};

export const AddressCreateSchema = z.strictObject(addressFields).meta({
  id: 'AddressCreate',
  description: 'The first address of a type becomes its default unless is_default is false.',
});

export const AddressUpdateSchema = z
  .strictObject({
    type: addressFields.type.optional(),
    is_default: addressFields.is_default,
    name: addressFields.name.optional(),
    company: addressFields.company,
    line1: addressFields.line1.optional(),
    line2: addressFields.line2,
    postal_code: addressFields.postal_code.optional(),
    city: addressFields.city.optional(),
    region: addressFields.region,
    country: countryCode.optional(),
  })
  .meta({ id: 'AddressUpdate' });

export const AddressSchema = z
  .object({
    id: z.number().int(),
    customer_id: z.number().int(),
    type: z.enum(['billing', 'shipping']),
    is_default: z.boolean(),
    ...postalAddressOutputFields,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Address' });

export type CustomerCreate = z.output<typeof CustomerCreateSchema>;
export type CustomerUpdate = z.output<typeof CustomerUpdateSchema>;
export type AddressCreate = z.output<typeof AddressCreateSchema>;
export type AddressUpdate = z.output<typeof AddressUpdateSchema>;
export type Address = z.output<typeof AddressSchema>;
export type AddressType = Address['type'];
export type CustomerListQuery = z.output<typeof CustomerListQuerySchema>;
