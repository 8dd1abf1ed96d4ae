/**
 * The customer and address operations. Handlers import this module as a namespace
 * (`import * as customerOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's.
 */
import * as z from 'zod';
import { DeletedSchema, idPath, pathId } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  addressesCreate,
  addressesDelete,
  addressesGet,
  addressesList,
  addressesUpdate,
  customersCreate,
  customersDelete,
  customersGet,
  customersList,
  customersUpdate,
  customersVatCheck,
} from '#shared/routes';
import {
  AddressCreateSchema,
  AddressSchema,
  AddressUpdateSchema,
  CustomerCreateSchema,
  CustomerListQuerySchema,
  CustomerSchema,
  CustomerUpdateSchema,
} from './schema';

const customerPath = /* @__PURE__ */ idPath('Customer id');
const addressPath = /* @__PURE__ */ z.object({ id: pathId, addressId: pathId });

export const list = { route: customersList, query: CustomerListQuerySchema, list: true } satisfies Operation;
export const create = {
  route: customersCreate,
  body: CustomerCreateSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: customersGet, params: customerPath, errors: [404] } satisfies Operation;
export const update = {
  route: customersUpdate,
  params: customerPath,
  body: CustomerUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const vatCheck = { route: customersVatCheck, params: customerPath, errors: [404, 409] } satisfies Operation;
const deleteOperation = {
  route: customersDelete,
  params: customerPath,
  errors: [404, 409],
} satisfies Operation;
export { deleteOperation as delete };
export const listAddresses = {
  route: addressesList,
  params: customerPath,
  list: true,
  errors: [404],
} satisfies Operation;
export const createAddress = {
  route: addressesCreate,
  params: customerPath,
  body: AddressCreateSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const getAddress = { route: addressesGet, params: addressPath, errors: [404] } satisfies Operation;
export const updateAddress = {
  route: addressesUpdate,
  params: addressPath,
  body: AddressUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const deleteAddress = { route: addressesDelete, params: addressPath, errors: [404] } satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  delete: DeletedSchema,
  list: CustomerSchema,
  create: CustomerSchema,
  get: CustomerSchema,
  update: CustomerSchema,
  vatCheck: CustomerSchema,
  listAddresses: AddressSchema,
  createAddress: AddressSchema,
  getAddress: AddressSchema,
  updateAddress: AddressSchema,
  deleteAddress: DeletedSchema,
} satisfies Record<string, z.ZodType>;
