/**
 * Deployed stages only: each account has an API Gateway API key (its usage identifier key) in
 * the usage plan of its plan. The authorizer returns that key, and API Gateway applies the plan's
 * throttle to it. Locally there is no API Gateway, so none of this runs.
 */
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { randomToken } from '#shared/ids';
import { usagePlanName, type Plan } from '#shared/accounts/plans';

const client = new APIGatewayClient({});

async function usagePlanId(stage: string, plan: Plan): Promise<string> {
  const name = usagePlanName(stage, plan);
  let position: string | undefined;
  do {
    const page = await client.send(new GetUsagePlansCommand({ position, limit: 500 }));
    const found = page.items?.find((item) => item.name === name);
    if (found?.id) return found.id;
    position = page.position;
  } while (position);
  throw new Error(`Usage plan ${name} not found: is stage ${stage} deployed?`);
}

/** Creates the account's API key and registers it in its plan's usage plan. */
export async function createUsageKey(stage: string, accountId: string, plan: Plan): Promise<{ id: string; value: string }> {
  const value = randomToken(40);
  const key = await client.send(
    new CreateApiKeyCommand({ name: `${stage}-${accountId}`, value, enabled: true, description: `Usage key of ${accountId}` }),
  );
  await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: await usagePlanId(stage, plan), keyId: key.id!, keyType: 'API_KEY' }));
  return { id: key.id!, value };
}

/** Moves the account's key from its old plan's usage plan to the new one. */
export async function moveUsageKey(stage: string, keyId: string, from: Plan, to: Plan): Promise<void> {
  if (from === to) return;
  await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: await usagePlanId(stage, to), keyId, keyType: 'API_KEY' }));
  await client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: await usagePlanId(stage, from), keyId }));
}
