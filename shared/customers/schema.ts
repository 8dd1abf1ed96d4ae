import * as z from 'zod';
import { responseSchema } from '#shared/schemas/response';
import { countryCode, postalAddressFields } from '#shared/schemas/address';
import { lineText, optionalText, requiredText } from '#shared/schemas/common';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { TAX_TREATMENTS } from '#shared/tax/treatment';
import { ADDRESS_TYPES, storedAddress, storedCustomer } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses — GET /v1/customers/{id} builds the Customer schema, no input.
 */

/** A customer as responses show it: derived from the stored field list (stored.ts). */
export const CustomerSchema = /* @__PURE__ */ (() => responseSchema(storedCustomer, { id: 'Customer' }))();

/** An address as responses show it: derived from the stored field list (stored.ts). */
export const AddressSchema = /* @__PURE__ */ (() => responseSchema(storedAddress, { id: 'Address' }))();

const email = /* @__PURE__ */ z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .meta({ example: 'anna@example.com' });

const customerFields = /* @__PURE__ */ (() => ({
  name: requiredText(200).meta({ example: 'Anna Schmidt' }),
  email,
  phone: optionalText(40),
  company: optionalText(200),
  vat_id: optionalText(40).meta({
    description: 'EU VAT ID (prefix and number; spaces, dots and dashes are dropped): checked offline (422 when malformed), then with VIES',
    example: 'ATU10000005',
  }),
  tax_treatment_override: z
    .enum(TAX_TREATMENTS)
    .nullable()
    .optional()
    .meta({ description: 'Replaces the derived tax treatment for this customer (audited); null clears it' }),
  notes: optionalText(5000, { multiline: true }),
}))();

export const CustomerCreateSchema = /* @__PURE__ */ z.strictObject(customerFields).meta({ id: 'CustomerCreate' });

export const CustomerUpdateSchema = /* @__PURE__ */ z
  .strictObject({ ...customerFields, name: customerFields.name.optional(), email: email.optional() })
  .meta({ id: 'CustomerUpdate', description: 'Only the fields sent are changed; null clears an optional field.' });

export const CustomerListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      email: lineText(254)
        .optional()
        .meta({ description: 'Exact email, case-insensitive (one customer at most: not with starting_after)' }),
      q: lineText(200).min(1).optional().meta({ description: 'Name prefix, case-insensitive' }),
      starting_after: idCursor('customers'),
    })
    .superRefine((value, ctx) => {
      cursorOnFirstPage(value, ctx);
      // An email matches one customer at most: its list has no next page to go on to.
      if (value.email !== undefined && value.starting_after !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['starting_after'],
          message: 'email matches at most one customer: use either email or starting_after',
        });
      }
    }))();

const addressFields = /* @__PURE__ */ (() => ({
  type: z.enum(ADDRESS_TYPES),
  is_default: z.boolean().optional(),
  ...postalAddressFields,
}))();

export const AddressCreateSchema = /* @__PURE__ */ z.strictObject(addressFields).meta({
  id: 'AddressCreate',
  description: 'The first address of a type becomes its default unless is_default is false.',
});

export const AddressUpdateSchema = /* @__PURE__ */ z
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

export type CustomerCreate = z.output<typeof CustomerCreateSchema>;
export type CustomerUpdate = z.output<typeof CustomerUpdateSchema>;
export type AddressCreate = z.output<typeof AddressCreateSchema>;
export type AddressUpdate = z.output<typeof AddressUpdateSchema>;
export type Address = z.output<typeof AddressSchema>;
export type Customer = z.output<typeof CustomerSchema>;
export type CustomerListQuery = z.output<typeof CustomerListQuerySchema>;
