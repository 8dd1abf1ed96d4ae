/**
 * Lambda REQUEST authorizer: resolves `Authorization: Bearer <key>` to account, mode and scopes.
 * API Gateway caches the result for up to 60 s per key, so the policy allows the whole API and
 * the per-route checks (scopes, IP allowlist) run in every handler, never from the cached policy.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { bearerToken } from '../shared/auth/keys';
import { principalToContext } from '../shared/auth/principal';
import { resolveApiKey } from '../shared/accounts/service';

/** `arn:…:apiId/stage/METHOD/path` → `arn:…:apiId/stage/*`. */
const wholeApi = (methodArn: string): string => methodArn.split('/').slice(0, 2).join('/') + '/*';

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const headers = event.headers ?? {};
  const header = headers.Authorization ?? headers.authorization ?? Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const key = bearerToken(header ?? undefined);
  const principal = key ? await resolveApiKey(key) : undefined;
  // API Gateway turns exactly this message into a 401 (our gateway response shapes the body).
  if (!principal) throw new Error('Unauthorized');
  return {
    principalId: principal.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApi(event.methodArn) }],
    },
    context: principalToContext(principal),
  };
}
