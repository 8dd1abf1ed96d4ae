import * as z from 'zod';
import { optionalText, requiredText } from './common';
import { countryCodes } from './countries';

/** ISO 3166-1 alpha-2, accepted in any case, stored upper-case. */
export const countryCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => countryCodes.has(value), 'must be an ISO 3166-1 alpha-2 country code such as DE')
  .meta({ example: 'DE' });

/** The postal fields of an address (customer addresses add type and default; orders copy these). */
export const postalAddressFields = {
  name: requiredText(200).meta({ example: 'Anna Schmidt' }),
  company: optionalText(200),
  line1: requiredText(200).meta({ example: 'Hauptstraße 1' }),
  line2: optionalText(200),
  postal_code: requiredText(20).meta({ example: '10115' }),
  city: requiredText(100).meta({ example: 'Berlin' }),
  region: optionalText(100),
  country: countryCode,
};

/** The postal fields as responses show them (customer addresses add their own; orders show copies). */
export const postalAddressOutputFields = {
  name: z.string(),
  company: z.string().nullable(),
  line1: z.string(),
  line2: z.string().nullable(),
  postal_code: z.string(),
  city: z.string(),
  region: z.string().nullable(),
  country: z.string(),
};

export type PostalAddress = z.output<z.ZodObject<typeof postalAddressOutputFields>>;

const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

/** The postal fields of a stored item or record (an address, or an order's copy of one), without anything else it carries. */
export function postalAddressFromItem(record: object): PostalAddress {
  const item = record as Record<string, unknown>;
  return {
    name: String(item.name),
    company: text(item.company),
    line1: String(item.line1),
    line2: text(item.line2),
    postal_code: String(item.postal_code),
    city: String(item.city),
    region: text(item.region),
    country: String(item.country),
  };
}
