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

export const list = { route: customersList, query: CustomerListQuerySchema, response: CustomerSchema, list: true } satisfies Operation;
export const create = {
  route: customersCreate,
  body: CustomerCreateSchema,
  response: CustomerSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: customersGet, params: customerPath, response: CustomerSchema, errors: [404] } satisfies Operation;
export const update = {
  route: customersUpdate,
  params: customerPath,
  body: CustomerUpdateSchema,
  response: CustomerSchema,
  errors: [404, 409],
} satisfies Operation;
const deleteOperation = {
  route: customersDelete,
  params: customerPath,
  response: DeletedSchema,
  errors: [404, 409],
} satisfies Operation;
export { deleteOperation as delete };
export const listAddresses = {
  route: addressesList,
  params: customerPath,
  response: AddressSchema,
  list: true,
  errors: [404],
} satisfies Operation;
export const createAddress = {
  route: addressesCreate,
  params: customerPath,
  body: AddressCreateSchema,
  response: AddressSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const getAddress = { route: addressesGet, params: addressPath, response: AddressSchema, errors: [404] } satisfies Operation;
export const updateAddress = {
  route: addressesUpdate,
  params: addressPath,
  body: AddressUpdateSchema,
  response: AddressSchema,
  errors: [404, 409],
} satisfies Operation;
export const deleteAddress = { route: addressesDelete, params: addressPath, response: DeletedSchema, errors: [404] } satisfies Operation;
