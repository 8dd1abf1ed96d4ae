import * as z from 'zod';
import { defineOperations } from '../http/operation';
import { pathId } from '../schemas/common';
import {
  AddressCreateSchema,
  AddressSchema,
  AddressUpdateSchema,
  CustomerCreateSchema,
  CustomerListQuerySchema,
  CustomerSchema,
  CustomerUpdateSchema,
} from './schema';

const customerPath = z.object({ id: pathId.meta({ description: 'Customer id', param: { name: 'id', in: 'path' } }) });
const addressPath = z.object({ id: pathId, addressId: pathId });
const deleted = z.object({ id: z.number().int(), deleted: z.literal(true) }).meta({ id: 'Deleted' });

export const customerOperations = defineOperations({
  list: { route: 'customers.list', query: CustomerListQuerySchema, response: CustomerSchema, list: true },
  create: { route: 'customers.create', body: CustomerCreateSchema, response: CustomerSchema, status: 201, errors: [409] },
  get: { route: 'customers.get', params: customerPath, response: CustomerSchema, errors: [404] },
  update: { route: 'customers.update', params: customerPath, body: CustomerUpdateSchema, response: CustomerSchema, errors: [404, 409] },
  delete: { route: 'customers.delete', params: customerPath, response: deleted, errors: [404, 409] },
  listAddresses: { route: 'addresses.list', params: customerPath, response: AddressSchema, list: true, errors: [404] },
  createAddress: { route: 'addresses.create', params: customerPath, body: AddressCreateSchema, response: AddressSchema, status: 201, errors: [404, 409] },
  getAddress: { route: 'addresses.get', params: addressPath, response: AddressSchema, errors: [404] },
  updateAddress: { route: 'addresses.update', params: addressPath, body: AddressUpdateSchema, response: AddressSchema, errors: [404, 409] },
  deleteAddress: { route: 'addresses.delete', params: addressPath, response: deleted, errors: [404] },
});
