/**
 * The customer and address operations. Handlers import this module as a namespace
 * (`import * as customerOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's.
 */
import * as z from 'zod';
import { DeletedSchema, idPath, pathId } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
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

export const list = { route: 'customers.list', query: CustomerListQuerySchema, response: CustomerSchema, list: true } satisfies Operation;
export const create = {
  route: 'customers.create',
  body: CustomerCreateSchema,
  response: CustomerSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: 'customers.get', params: customerPath, response: CustomerSchema, errors: [404] } satisfies Operation;
export const update = {
  route: 'customers.update',
  params: customerPath,
  body: CustomerUpdateSchema,
  response: CustomerSchema,
  errors: [404, 409],
} satisfies Operation;
const deleteOperation = {
  route: 'customers.delete',
  params: customerPath,
  response: DeletedSchema,
  errors: [404, 409],
} satisfies Operation;
export { deleteOperation as delete };
export const listAddresses = {
  route: 'addresses.list',
  params: customerPath,
  response: AddressSchema,
  list: true,
  errors: [404],
} satisfies Operation;
export const createAddress = {
  route: 'addresses.create',
  params: customerPath,
  body: AddressCreateSchema,
  response: AddressSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const getAddress = { route: 'addresses.get', params: addressPath, response: AddressSchema, errors: [404] } satisfies Operation;
export const updateAddress = {
  route: 'addresses.update',
  params: addressPath,
  body: AddressUpdateSchema,
  response: AddressSchema,
  errors: [404, 409],
} satisfies Operation;
export const deleteAddress = { route: 'addresses.delete', params: addressPath, response: DeletedSchema, errors: [404] } satisfies Operation;
