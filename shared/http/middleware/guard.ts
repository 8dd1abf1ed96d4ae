/**
 * Who may do what, checked on every request in the handler — never from the authorizer's cached
 * policy: the principal from the authorizer context, the IP allowlists of account and key, the
 * caller's kind (publishable keys only on storefront routes, customer tokens only on the routes
 * open to customers, refused elsewhere before anything is counted), the rate limit (counted in
 * DynamoDB, shared by all instances: the secret keys' quota of the account and mode, on
 * storefront routes a publishable key's quota per client address, a customer token's the
 * customer's — shared/limits/quota.ts), then the route's scopes — or, for a customer token, that
 * a customer id in the path is the caller's own.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ipAllowed } from '#shared/auth/ip-allowlist';
import { principalFromContext } from '#shared/auth/principal';
import { missingScope } from '#shared/auth/scopes';
import { accountQuota, type QuotaOf } from '#shared/limits/quota';
import { consumeRequest, peekRequest } from '#shared/limits/rate-limit';
import { rateLimitHeaders } from '#shared/limits/windows';
import { logger } from '#shared/logger';
import type { RouteDefinition } from '#shared/routes';
import { DomainError, NotFoundError, RateLimitedError } from '#shared/errors';
import { invocationOf } from '#shared/http/invocation';

/** Methods that change nothing: their work runs while the rate-limit counter is being updated. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export const guard = (
  route: RouteDefinition,
  quotaOf: QuotaOf = accountQuota,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const invocation = invocationOf(request.event);
    const principal = principalFromContext(request.event.requestContext?.authorizer);
    if (!principal) throw new DomainError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>');
    invocation.principal = principal;
    logger.appendKeys({
      account_id: principal.accountId,
      mode: principal.mode,
      ...(principal.customerId ? { customer_id: principal.customerId } : { key_prefix: principal.keyPrefix }),
    });

    // A customer token calls what the route table opens to customers, and nothing else; the
    // customer's own routes take nothing but a customer token. Refused before anything is counted.
    if (principal.kind === 'customer' && !route.customer) {
      throw new DomainError('forbidden', 'a customer access token cannot call this route');
    }
    if (route.customer === 'self' && principal.kind !== 'customer') {
      throw new DomainError('forbidden', "this route is the signed-in customer's: send the customer's access token");
    }

    // Publishable keys live in browsers: only routes marked for storefronts take them, whatever
    // their scopes would allow (a new route is closed to them until it is marked) — refused before
    // anything is counted, so they never touch the secret keys' quota.
    if (principal.kind === 'publishable' && !route.storefront) {
      throw new DomainError('forbidden', 'publishable keys can only call storefront routes; use a secret key');
    }

    // A key used from outside its allowlist is refused before it can spend the tenant's quota
    // (the headers still tell the current state).
    const sourceIp = request.event.requestContext?.identity?.sourceIp;
    const quota = quotaOf(principal, sourceIp);
    if (!ipAllowed(sourceIp, principal.accountAllowedIps) || !ipAllowed(sourceIp, principal.keyAllowedIps)) {
      invocation.rateLimitHeaders = rateLimitHeaders(await peekRequest(quota));
      throw new DomainError('ip_not_allowed', `Requests from ${sourceIp ?? 'this address'} are not allowed for this account`);
    }

    invocation.admission = consumeRequest(quota).then((decision) => {
      invocation.rateLimitHeaders = rateLimitHeaders(decision.state);
      if (!decision.allowed) {
        throw new RateLimitedError(
          `Rate limit of ${decision.state.limit} requests exceeded; retry in ${decision.retryAfter} s`,
          decision.retryAfter,
        );
      }
    });
    // Settled later by whoever awaits it; never an unhandled rejection meanwhile.
    invocation.admission.catch(() => undefined);
    if (!safeMethods.has(route.method)) await invocation.admission;

    // The route table's `customer` flag is a customer token's whole grant; keys have scopes.
    if (principal.kind === 'customer') {
      // Their own addresses: another customer's id is a customer this caller cannot see.
      const customerId = request.event.pathParameters?.id;
      if (route.customer === 'path' && customerId !== String(principal.customerId)) throw new NotFoundError('customer', customerId ?? '');
      return;
    }
    const required = principal.kind === 'secret' && route.secretScopes ? [...route.scopes, ...route.secretScopes] : route.scopes;
    const missing = missingScope(principal.scopes, required);
    if (missing) {
      throw new DomainError('insufficient_scope', `This key lacks the scope ${missing}`, [
        { field: 'scope', message: `requires ${missing}` },
      ]);
    }
  },
});
