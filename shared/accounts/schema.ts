import * as z from 'zod';
import { KEY_KINDS, MODES } from '#shared/auth/keys';
import { postalAddressFields } from '#shared/schemas/address';
import { lineText, optionalText, requiredText } from '#shared/schemas/common';
import { codecSchema } from '#shared/schemas/response';
import { TAX_CATEGORIES } from '#shared/tax/categories';
import { taxRatesCodec } from '#shared/tax/fields';
import { taxRateInput } from '#shared/tax/schema';
import { compactCode, isValidBic, isValidIban, isValidVatId } from './company';
import { storedCompany } from './stored';

/** The account's company (seller) details, as shown. */
const CompanySchema = /* @__PURE__ */ (() => codecSchema(storedCompany).nullable())();

/** `GET /v1/account`: the account and the key making the call (a view composed by service.ts describeCaller). */
export const AccountViewSchema = /* @__PURE__ */ z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    currency: z.string(),
    tax_rate: z
      .number()
      .meta({ description: 'The standard rate (tax_rates.standard), kept for clients of before categories', example: 19 }),
    tax_rates: codecSchema(taxRatesCodec).meta({ description: 'Percent per tax category (docs/pricing.md)' }),
    shipping_tax_category: z.enum(TAX_CATEGORIES).meta({ description: 'The category shipping is charged as', example: 'standard' }),
    mode: z.enum(MODES),
    limits: z.object({ per_minute: z.number().int(), per_hour: z.number().int().nullable() }),
    key: z.object({ id: z.string(), prefix: z.string(), kind: z.enum(KEY_KINDS), scopes: z.array(z.string()) }),
    company: CompanySchema.meta({ description: 'The seller details invoices copy; null until set (PUT /v1/account)' }),
  })
  .meta({ id: 'Account', description: 'The account and the key making the call' });

export type AccountView = z.output<typeof AccountViewSchema>;

/** An identifier written with spaces or dashes by people (`DE89 3704 …`): stored compact and upper case. */
const code = (max: number, valid: (value: string) => boolean, message: string, example: string) =>
  lineText(max)
    .refine((value) => valid(value), message)
    .transform(compactCode)
    .nullable()
    .optional()
    .meta({ example });

const CompanyInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      legal_name: optionalText(200).meta({ example: 'Druckerei Müller GmbH' }),
      address: z.strictObject(postalAddressFields).nullable().optional(),
      vat_id: code(20, isValidVatId, 'must be a VAT identification number such as DE123456789', 'DE123456789'),
      tax_number: optionalText(30).meta({ description: 'National tax number (Steuernummer)', example: '143/123/45678' }),
      iban: code(42, isValidIban, 'must be a valid IBAN (check digits included)', 'DE89370400440532013000'),
      bic: code(14, isValidBic, 'must be a BIC of 8 or 11 characters', 'COBADEFFXXX'),
      email: z
        .string()
        .trim()
        .max(254, 'must be at most 254 characters')
        .pipe(z.email('must be a valid email address'))
        .nullable()
        .optional()
        .meta({ example: 'billing@druckerei-mueller.example' }),
      phone: optionalText(40),
      payment_terms_days: z.number().int('must be an integer').min(0).max(365).optional().meta({ example: 14 }),
      invoice_footer: optionalText(1000, { multiline: true }).meta({ example: 'Geschäftsführer: Anna Müller · HRB 12345 Berlin' }),
      quote_validity_days: z
        .number()
        .int('must be an integer')
        .min(1)
        .max(365)
        .optional()
        .meta({ description: 'Days a quote is valid when it names no valid_until (default 30)', example: 30 }),
    })
    .meta({ id: 'CompanyInput', description: 'Only the fields sent change; null clears one.' }))();

export const AccountUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      name: requiredText(200).optional(),
      company: CompanyInputSchema.optional(),
      tax_rate: taxRateInput.optional().meta({ description: 'The standard rate (the same as tax_rates.standard)', example: 19 }),
      tax_rates: z
        .strictObject({
          standard: taxRateInput.optional(),
          reduced: taxRateInput.optional(),
          zero: z.literal(0, 'is always 0').optional(),
          exempt: z.literal(0, 'is always 0').optional(),
        })
        .optional()
        .meta({
          id: 'TaxRatesInput',
          description: 'Only the rates sent change; zero and exempt are always 0',
          example: { standard: 19, reduced: 7 },
        }),
      shipping_tax_category: z
        .enum(TAX_CATEGORIES)
        .exclude(['exempt'])
        .optional()
        .meta({ description: 'The category shipping is charged as (default standard)', example: 'standard' }),
    })
    .refine(
      (value) => Object.values(value).some((field) => field !== undefined),
      'send name, company, tax_rate, tax_rates or shipping_tax_category',
    )
    .meta({
      id: 'AccountUpdate',
      example: {
        company: {
          legal_name: 'Druckerei Müller GmbH',
          address: { name: 'Druckerei Müller GmbH', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
          vat_id: 'DE123456789',
          iban: 'DE89 3704 0044 0532 0130 00',
          email: 'billing@druckerei-mueller.example',
        },
      },
    }))();

export type AccountUpdateInput = z.output<typeof AccountUpdateSchema>;
export type CompanyInput = NonNullable<AccountUpdateInput['company']>;
