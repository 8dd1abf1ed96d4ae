/**
 * Lambda REQUEST authorizer: resolves `Authorization: Bearer <key>` — an API key, or a customer's
 * access token (a JWT, shared/customer-auth/access.ts) — to account, mode, scopes or customer,
 * limits and allowlists. API Gateway caches the result for up to 60 s per key, so the policy
 * allows the whole API and the per-route checks (scopes, IP allowlist, rate limit) run in every
 * handler, never from the cached policy. A revoked key's refusal is audited here, since no handler
 * runs for it.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { bearerToken } from '#shared/auth/keys';
import { principalToContext } from '#shared/auth/principal';
import { resolveApiKey } from '#shared/accounts/service';
import { looksLikeAccessToken, resolveAccessToken } from '#shared/customer-auth/access';
import { emitAudit } from '#shared/audit/sink';
import { auditRecordOf } from '#shared/audit/stored';

/** `arn:…:apiId/stage/METHOD/path` → `arn:…:apiId/stage/*`. */
const wholeApi = (methodArn: string): string => methodArn.split('/').slice(0, 2).join('/') + '/*';

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const headers = event.headers ?? {};
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const credential = bearerToken(header ?? undefined);
  const resolution = !credential
    ? ({ status: 'unknown' } as const)
    : looksLikeAccessToken(credential)
      ? await resolveAccessToken(credential)
      : await resolveApiKey(credential);
  if (resolution.status === 'revoked') {
    const call = {
      requestId: event.requestContext?.requestId ?? randomUUID(),
      keyId: resolution.keyId,
      keyPrefix: resolution.keyPrefix,
      route: null,
    };
    emitAudit(resolution.tenant, auditRecordOf(event, { ...call, status: 401, durationMs: 0 }));
  }
  // API Gateway turns exactly this message into a 401 (our gateway response shapes the body).
  if (resolution.status !== 'ok') throw new Error('Unauthorized');
  const { principal } = resolution;
  return {
    principalId: principal.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApi(event.methodArn) }],
    },
    context: principalToContext(principal),
    // Deployed stages: the usage key of this account, mode and key kind, in the usage plan of its
    // tier (apiKeySource AUTHORIZER): storefronts and test traffic never spend the secret live keys' backstop.
    ...(principal.usageKey ? { usageIdentifierKey: principal.usageKey } : {}),
  };
}
