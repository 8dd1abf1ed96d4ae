import * as z from 'zod';
import { CustomerSchema, CustomerUpdateSchema } from '#shared/customers/schema';
import { lineText, requiredText } from '#shared/schemas/common';
import { OWN_CUSTOMER_FIELDS } from './own-view';
import { MAX_PASSWORD_LENGTH } from './passwords';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps only its operation's. Password
 * rules beyond the length bound (length in characters, the common-password list) are checked by
 * passwords.ts, which answers the same 422 shape.
 */

const email = /* @__PURE__ */ z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .meta({ example: 'zofia@example.com' });

/** Any string up to the bound: what a password must be is said by the rules, not by the schema. */
const password = /* @__PURE__ */ z
  .string()
  .max(MAX_PASSWORD_LENGTH * 4, 'is too long')
  .meta({ description: '10–200 characters, not a common password', example: 'Łódź ist schön 2026' });

const refreshToken = /* @__PURE__ */ z.string().min(1).max(200).meta({ example: 'rt_…' });

export const RegisterSchema = /* @__PURE__ */ z.strictObject({ email, password, name: requiredText(200) }).meta({ id: 'CustomerRegister' });
/** A registration code as the mail gives it: `reg_` and 43 characters (malformed ones are a 422, unknown ones a 401). */
export const RegisterConfirmSchema = /* @__PURE__ */ z
  .strictObject({ code: lineText(200).min(1, 'must not be empty').meta({ example: 'reg_…' }) })
  .meta({ id: 'CustomerRegisterConfirm' });
export const RegistrationPendingSchema = /* @__PURE__ */ z.object({ status: z.literal('pending_confirmation') }).meta({
  id: 'CustomerRegistrationPending',
  description:
    'The same answer whatever the email: a code was mailed to it (to confirm the registration, or — when the address has an account — to reset its password)',
});
export const LoginSchema = /* @__PURE__ */ z.strictObject({ email, password }).meta({ id: 'CustomerLogin' });
export const RefreshSchema = /* @__PURE__ */ z.strictObject({ refresh_token: refreshToken }).meta({ id: 'CustomerRefresh' });
export const PasswordResetSchema = /* @__PURE__ */ z.strictObject({ email }).meta({ id: 'CustomerPasswordReset' });
export const PasswordResetConfirmSchema = /* @__PURE__ */ z
  .strictObject({ token: lineText(200).min(1, 'must not be empty'), password })
  .meta({ id: 'CustomerPasswordResetConfirm' });

/** What a customer may change of their own record: not the email (their login) nor anything the shop keeps. */
export const PROFILE_FIELDS = ['name', 'phone', 'company'] as const;
export const ProfileUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      name: CustomerUpdateSchema.shape.name,
      phone: CustomerUpdateSchema.shape.phone,
      company: CustomerUpdateSchema.shape.company,
    })
    .refine((value) => PROFILE_FIELDS.some((field) => value[field] !== undefined), {
      message: `send at least one of: ${PROFILE_FIELDS.join(', ')}`,
    })
    .meta({ id: 'CustomerProfileUpdate', description: 'Only the fields sent change; null clears phone or company.' }))();
export const PasswordChangeSchema = /* @__PURE__ */ z
  .strictObject({ current_password: password, new_password: password })
  .meta({ id: 'CustomerPasswordChange' });

/** A customer's own record as they see it (own-view.ts): the shop's notes and bookkeeping left out. */
export const OwnCustomerSchema = /* @__PURE__ */ (() =>
  CustomerSchema.pick(
    Object.fromEntries(OWN_CUSTOMER_FIELDS.map((field) => [field, true] as const)) as Record<(typeof OWN_CUSTOMER_FIELDS)[number], true>,
  ).meta({
    id: 'CustomerAccount',
    description: "The signed-in customer's own record: their contact details, never the shop's notes about them",
  }))();

export const TokenPairSchema = /* @__PURE__ */ z
  .object({
    access_token: z.string().meta({ description: 'JWT (ES256), 15 minutes' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ example: 900 }),
    refresh_token: z.string().meta({ description: 'Opaque, 30 days, one use: each refresh answers a new one' }),
  })
  .meta({ id: 'CustomerTokens' });

export const DoneSchema = /* @__PURE__ */ z.object({ ok: z.literal(true) }).meta({ id: 'Done' });

export const JwksSchema = /* @__PURE__ */ z
  .object({
    keys: z.array(
      z.object({ kty: z.string(), crv: z.string(), x: z.string(), y: z.string(), kid: z.string(), alg: z.string(), use: z.string() }),
    ),
  })
  .meta({ id: 'Jwks', description: 'The public keys of customer access tokens: current and previous (RFC 7517)' });
