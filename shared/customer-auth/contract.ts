/**
 * The customer-account operations. Handlers import this module as a namespace
 * (`import * as authOperations`); the schemas are marked pure, so each bundle keeps only its own.
 */
import type * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import {
  authJwks,
  authLogin,
  authLogout,
  authMe,
  authMeUpdate,
  authPassword,
  authPasswordReset,
  authPasswordResetConfirm,
  authRefresh,
  authRegister,
  authRegisterConfirm,
} from '#shared/routes';
import {
  DoneSchema,
  JwksSchema,
  LoginSchema,
  OwnCustomerSchema,
  PasswordChangeSchema,
  PasswordResetConfirmSchema,
  ProfileUpdateSchema,
  PasswordResetSchema,
  RefreshSchema,
  RegisterConfirmSchema,
  RegisterSchema,
  RegistrationPendingSchema,
  TokenPairSchema,
} from './schema';

export const register = { route: authRegister, body: RegisterSchema, status: 202 } satisfies Operation;
export const registerConfirm = { route: authRegisterConfirm, body: RegisterConfirmSchema, status: 201, errors: [409] } satisfies Operation;
export const login = { route: authLogin, body: LoginSchema } satisfies Operation;
export const refresh = { route: authRefresh, body: RefreshSchema } satisfies Operation;
export const logout = { route: authLogout, body: RefreshSchema } satisfies Operation;
export const passwordReset = { route: authPasswordReset, body: PasswordResetSchema, status: 202 } satisfies Operation;
export const passwordResetConfirm = { route: authPasswordResetConfirm, body: PasswordResetConfirmSchema } satisfies Operation;
export const me = { route: authMe } satisfies Operation;
export const updateMe = { route: authMeUpdate, body: ProfileUpdateSchema } satisfies Operation;
export const changePassword = { route: authPassword, body: PasswordChangeSchema } satisfies Operation;
export const jwks = { route: authJwks, envelope: false, errors: [503] } satisfies Operation;

const session = /* @__PURE__ */ (() =>
  TokenPairSchema.extend({ customer: OwnCustomerSchema }).meta({ id: 'CustomerSession', description: 'Tokens and the customer' }))();

/**
 * What each operation answers (its `data`), for the OpenAPI document: kept apart from the
 * operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  register: RegistrationPendingSchema,
  registerConfirm: OwnCustomerSchema,
  login: session,
  refresh: TokenPairSchema,
  logout: DoneSchema,
  passwordReset: DoneSchema,
  passwordResetConfirm: DoneSchema,
  me: OwnCustomerSchema,
  updateMe: OwnCustomerSchema,
  changePassword: DoneSchema,
  jwks: JwksSchema,
} satisfies Record<string, z.ZodType>;
