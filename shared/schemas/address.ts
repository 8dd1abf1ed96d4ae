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
