/**
 * The login of an email, with the same work whatever the email is: apart from the modules the
 * authorizer uses (it reads logins by customer id), so that it carries none of the customers repository.
 */
import type { Tenant } from '#shared/auth/principal';
import { findCustomerIdByEmail } from '#shared/customers/repository';
import type { Login } from './credentials';
import { readLogin } from './repository';

/** No customer has this id (ids start at 1): the login read for an email no customer has. */
const NOBODY = 0;

/**
 * The customer of this email and their login, if any. Always the same two reads — the email's
 * owner, then a login (for an unknown email, the login of a customer id no one has) — so an unknown
 * email, a customer without a login and a customer with one cost the same work.
 */
export async function findLoginByEmail(tenant: Tenant, email: string): Promise<{ customerId?: number; login?: Login }> {
  const customerId = await findCustomerIdByEmail(tenant, email);
  const login = await readLogin(tenant, customerId ?? NOBODY);
  if (customerId === undefined) return {};
  return login ? { customerId, login } : { customerId };
}
