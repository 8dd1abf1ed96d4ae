/**
 * The secrets key's grants in the synthesized templates (infra/secrets.ts): every kind of secret
 * has its own encryption context, and every KMS permission of every function — found by walking
 * the functions of the main and nested templates to their roles' policies, not from the tables the
 * grants were made from — is one action conditioned on one kind's context. Each function holds
 * exactly the kinds its secret use lists; the unauthenticated Sendcloud callback can decrypt the
 * callback secret and nothing else; the shared context of older values is granted only for Decrypt,
 * only to functions opening a kind that had such values, and not at all with `legacySecrets=false`.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEY, LEGACY_CONTEXT, LEGACY_KINDS, SECRET_KINDS, contextOf } from '#shared/crypto/kinds';
import { routeSecretUses, workerSecretUses, type SecretUse } from '#infra/secrets';
import { addressOf, buildStack, findAll, resolveReference, sharedStack, type Built } from './helpers';

const CONDITION_KEY = `kms:EncryptionContext:${CONTEXT_KEY}`;
const LEGACY = LEGACY_CONTEXT[CONTEXT_KEY];

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** Every function of the templates with the KMS grants of its role: `<action> <purpose>`, sorted. */
function kmsGrantsByFunction(built: Built): Map<string, string[]> {
  const statementsByRole = new Map<string, Statement[]>();
  for (const policy of findAll(built, 'AWS::IAM::Policy')) {
    for (const role of policy.resource.Properties.Roles as unknown[]) {
      const address = resolveReference(built, role, policy.stack)!.address;
      statementsByRole.set(address, [
        ...(statementsByRole.get(address) ?? []),
        ...(policy.resource.Properties.PolicyDocument.Statement as Statement[]),
      ]);
    }
  }
  const keyArn = { address: addressOf(built.stack.webhookSecrets.key), attribute: 'Arn' };
  const grants = new Map<string, string[]>();
  for (const fn of findAll(built, 'AWS::Lambda::Function')) {
    const role = resolveReference(built, fn.resource.Properties.Role, fn.stack)!.address;
    const kms = (statementsByRole.get(role) ?? []).filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('kms:')),
    );
    grants.set(
      fn.address,
      kms
        .map((statement) => {
          // One action on the key, allowed under one encryption context: nothing unconditioned, nothing wider.
          expect(statement.Effect, fn.address).toBe('Allow');
          expect([statement.Action].flat(), fn.address).toHaveLength(1);
          expect(resolveReference(built, statement.Resource, built.stack), fn.address).toEqual(keyArn);
          expect(statement.Condition, fn.address).toEqual({ StringEquals: { [CONDITION_KEY]: expect.any(String) } });
          return `${String(statement.Action)} ${String(statement.Condition!.StringEquals![CONDITION_KEY])}`;
        })
        .sort(),
    );
  }
  return grants;
}

/** A secret use's grants: each sealed kind's GenerateDataKey, each opened kind's Decrypt; with `legacy`, the old context's Decrypt. */
const expectedGrants = (use: SecretUse | undefined, legacy: boolean): string[] =>
  use
    ? [
        ...use.seals.map((kind) => `kms:GenerateDataKey ${kind}`),
        ...use.opens.map((kind) => `kms:Decrypt ${kind}`),
        ...(legacy && use.opens.some((kind) => LEGACY_KINDS.includes(kind)) ? [`kms:Decrypt ${LEGACY}`] : []),
      ].sort()
    : [];

function checkEveryFunction(built: Built, legacy: boolean) {
  const grants = kmsGrantsByFunction(built);
  const expected = new Map<string, string[]>();
  for (const [id, fn] of built.stack.api.functions) expected.set(addressOf(fn), expectedGrants(routeSecretUses[id], legacy));
  for (const [id, fn] of built.stack.workers.functions) expected.set(addressOf(fn), expectedGrants(workerSecretUses[id], legacy));
  // Every function of the templates is checked: those of neither table (the authorizer, the audit shipper, CDK's
  // custom-resource providers) have no KMS grant at all.
  expect(grants.size).toBeGreaterThan(expected.size);
  for (const [address, granted] of grants) expect(granted, address).toEqual(expected.get(address) ?? []);
  return grants;
}

describe('the secrets key', () => {
  const built = sharedStack('dev');

  it('has one encryption context per kind of secret, none of them the shared context of older values', () => {
    const purposes = SECRET_KINDS.map((kind) => contextOf(kind)[CONTEXT_KEY]);
    expect(new Set(purposes).size).toBe(SECRET_KINDS.length);
    expect(purposes).not.toContain(LEGACY);
    for (const kind of SECRET_KINDS) expect(Object.keys(contextOf(kind))).toEqual([CONTEXT_KEY]);
  });

  it("grants every function exactly its kinds, each action under one kind's context (and the old context's Decrypt to readers of older values)", () => {
    const grants = checkEveryFunction(built, true);
    // Every kind is sealed by some function and opened by some function.
    const all = [...grants.values()].flat();
    for (const kind of SECRET_KINDS) {
      expect(all, kind).toContain(`kms:Decrypt ${kind}`);
      expect(all.some((grant) => grant === `kms:GenerateDataKey ${kind}`) || kind === 'customer-token-signing-key', kind).toBe(true);
    }
    // Nothing seals under the old context.
    expect(all).not.toContain(`kms:GenerateDataKey ${LEGACY}`);
  });

  it('lets the Sendcloud callback (no key: anyone may call it) decrypt the callback secret and nothing else', () => {
    const grants = kmsGrantsByFunction(built);
    const callback = addressOf(built.stack.api.functions.get('carriers.sendcloudWebhook')!);
    expect(grants.get(callback)).toEqual(['kms:Decrypt carrier-callback-secret']);
    // …and no other function's role serves it: its role holds no more than that either.
    const delivery = addressOf(built.stack.workers.functions.get('WebhookDelivery')!);
    expect(grants.get(delivery)).toEqual([`kms:Decrypt ${LEGACY}`, 'kms:Decrypt webhook-signing-secret']);
    const shipments = addressOf(built.stack.api.functions.get('shipments.create')!);
    expect(grants.get(shipments)).toEqual(['kms:Decrypt carrier-credentials', `kms:Decrypt ${LEGACY}`]);
  });

  it('gives the key no policy statement of its own beyond the account (the grants above are all there is)', () => {
    const [key] = findAll(built, 'AWS::KMS::Key');
    const statements = key!.resource.Properties.KeyPolicy.Statement as { Principal: unknown }[];
    for (const statement of statements) expect(JSON.stringify(statement.Principal)).toMatch(/:root"/);
  });

  it('drops the shared context of older values with legacySecrets=false', () => {
    const sealed = buildStack('dev', { stageOverrides: { legacySecrets: 'false' } });
    const grants = checkEveryFunction(sealed, false);
    expect([...grants.values()].flat().some((grant) => grant.endsWith(` ${LEGACY}`))).toBe(false);
  });
});
