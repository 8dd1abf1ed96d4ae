/**
 * The customs fields a product and an order line carry (docs/shipping.md#customs): what a
 * shipment leaving the EU customs area declares per line. One definition for both, so their
 * rules cannot drift; each use names its own default in the description.
 */
import * as z from 'zod';
import { optionalText } from './common';

/**
 * At most 100 characters: a customs description is a plain name of the goods ("Printed
 * brochures"), and 25 order lines carry it twice in the order.created event item (the order and
 * its copy), which must stay under DynamoDB's item size (test/unit/item-budgets.test.ts).
 * Sendcloud takes up to 255.
 */
export const MAX_CUSTOMS_DESCRIPTION_LENGTH = 100;

export const customsFieldsWith = (defaults: { hsCode: string; origin: string; description: string }, examples = false) => ({
  hs_code: z
    .string()
    .regex(/^\d{6,10}$/, 'must be 6 to 10 digits')
    .nullable()
    .optional()
    .meta({
      description: `Customs: the Harmonized System code (6–10 digits)${defaults.hsCode}`,
      ...(examples ? { example: '491199' } : {}),
    }),
  origin_country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code (two capital letters)')
    .nullable()
    .optional()
    .meta({
      description: `Customs: the country the goods were made in (ISO 3166-1 alpha-2)${defaults.origin}`,
      ...(examples ? { example: 'DE' } : {}),
    }),
  customs_description: optionalText(MAX_CUSTOMS_DESCRIPTION_LENGTH).meta({
    description: `Customs: what the goods are${defaults.description}`,
  }),
});
