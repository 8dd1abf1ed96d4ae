import * as z from 'zod';
import { optionalText, requiredText } from './common';
import { countryCodes } from './countries';
import { codecs, field, type RecordOf } from './fields';

/** ISO 3166-1 alpha-2, accepted in any case, stored upper-case. */
export const countryCode = /* @__PURE__ */ z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => countryCodes.has(value), 'must be an ISO 3166-1 alpha-2 country code such as DE')
  .meta({ example: 'DE' });

/** The postal fields of an address (customer addresses add type and default; orders copy these). */
export const postalAddressFields = /* @__PURE__ */ (() => ({
  name: requiredText(200).meta({ example: 'Anna Schmidt' }),
  company: optionalText(200),
  line1: requiredText(200).meta({ example: 'Hauptstraße 1' }),
  line2: optionalText(200),
  postal_code: requiredText(20).meta({ example: '10115' }),
  city: requiredText(100).meta({ example: 'Berlin' }),
  region: optionalText(100),
  country: countryCode,
}))();

/**
 * The postal fields as stored and shown: customer addresses list them among their own fields,
 * orders keep copies of them (shared/schemas/fields.ts derives reading, views and schemas).
 */
export const postalAddressShape = /* @__PURE__ */ (() => ({
  name: field(codecs.string),
  company: field(codecs.nullable(codecs.string)),
  line1: field(codecs.string),
  line2: field(codecs.nullable(codecs.string)),
  postal_code: field(codecs.string),
  city: field(codecs.string),
  region: field(codecs.nullable(codecs.string)),
  country: field(codecs.string),
}))();

export type PostalAddress = RecordOf<typeof postalAddressShape>;
