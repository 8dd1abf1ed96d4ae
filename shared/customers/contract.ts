import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import {
  AddressCreateSchema,
  AddressSchema,
  AddressUpdateSchema,
  CustomerCreateSchema,
  CustomerListQuerySchema,
  CustomerSchema,
  CustomerUpdateSchema,
} from './schema';
import { customerPath } from './get-contract';

const addressPath = z.object({ id: pathId, addressId: pathId });
const deleted = z.object({ id: z.number().int(), deleted: z.literal(true) }).meta({ id: 'Deleted' });

// One export per operation: handlers import this module as a namespace (`import * as customerOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const list = { route: 'customers.list', query: CustomerListQuerySchema, response: CustomerSchema, list: true } satisfies Operation;
export const create = { route: 'customers.create', body: CustomerCreateSchema, response: CustomerSchema, status: 201, errors: [409] } satisfies Operation;
export const update = { route: 'customers.update', params: customerPath, body: CustomerUpdateSchema, response: CustomerSchema, errors: [404, 409] } satisfies Operation;
const deleteOperation = { route: 'customers.delete', params: customerPath, response: deleted, errors: [404, 409] } satisfies Operation;
export { deleteOperation as delete };
export const listAddresses = { route: 'addresses.list', params: customerPath, response: AddressSchema, list: true, errors: [404] } satisfies Operation;
export const createAddress = { route: 'addresses.create', params: customerPath, body: AddressCreateSchema, response: AddressSchema, status: 201, errors: [404, 409] } satisfies Operation;
export const getAddress = { route: 'addresses.get', params: addressPath, response: AddressSchema, errors: [404] } satisfies Operation;
export const updateAddress = { route: 'addresses.update', params: addressPath, body: AddressUpdateSchema, response: AddressSchema, errors: [404, 409] } satisfies Operation;
export const deleteAddress = { route: 'addresses.delete', params: addressPath, response: deleted, errors: [404] } satisfies Operation;
