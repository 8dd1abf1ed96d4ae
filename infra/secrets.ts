/**
 * The stage's KMS key for stored secrets (envelope encryption, shared/crypto/envelope.ts), and who
 * may use it for which kind of secret. Every kind has its own encryption context
 * (`{ purpose: <kind> }`, shared/crypto/kinds.ts), and every grant is conditioned on it
 * (`kms:EncryptionContext:purpose`): a function may make data keys (`kms:GenerateDataKey`) for the
 * kinds it seals and open them (`kms:Decrypt`) for the kinds it opens — nothing else, however it
 * asks. The unauthenticated carrier callback opens the callback secret only. Reads of a
 * registration or of carrier settings show only the stored hints and need no grant. Which
 * functions those are is listed here once; the bundle test checks that exactly their bundles carry
 * the KMS client (test/infra/bundles.test.ts), the infra test each function's conditions
 * (test/infra/secrets.test.ts).
 *
 * Values sealed before the kinds had their own contexts share one (LEGACY_CONTEXT): the functions
 * that open a kind which had such values may also Decrypt under it — never the callback — until the
 * stage's `legacySecretGrants` is turned off (`-c legacySecrets=false`) once `npm run events --
 * seal-secrets` has sealed them again (docs/webhooks.md#secrets-at-rest).
 */
import { routes } from '#shared/routes';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { secretsKeyEnv } from '#shared/crypto/env';
import { CONTEXT_KEY, LEGACY_CONTEXT, LEGACY_KINDS, type SecretKind } from '#shared/crypto/kinds';
import type { StageConfig } from './stages';

/** What a function does with which kinds of secret: seals (new data keys) and opens (decrypts data keys). */
export interface SecretUse {
  seals: readonly SecretKind[];
  opens: readonly SecretKind[];
}

/** Route ids that sign customer access tokens (`signsTokens` in the route table): they and the authorizer know the tokens' issuer. */
export const tokenSigners: readonly string[] = routes.filter((route) => route.signsTokens).map((route) => route.id);

/**
 * The routes that seal or open secrets, and what of:
 * - webhook create and rotate-secret seal a new signing secret (the delivery worker signs with it: `workerSecretUses`);
 * - the token signers open the customer-token signing keys' private halves (shared/customer-auth/key-store.ts) — the
 *   keys are made and sealed by the accounts CLI with the operator's credentials, and the JWKS endpoint reads the
 *   public halves alone;
 * - setting carrier credentials seals the secret key and the callback secret; the routes that call the carrier open
 *   the credentials; the carrier's callback (no key: Sendcloud calls it) opens the callback secret and nothing else.
 */
export const routeSecretUses: Readonly<Record<string, SecretUse>> = {
  'webhooks.create': { seals: ['webhook-signing-secret'], opens: [] },
  'webhooks.rotateSecret': { seals: ['webhook-signing-secret'], opens: [] },
  ...Object.fromEntries(tokenSigners.map((id) => [id, { seals: [], opens: ['customer-token-signing-key'] }])),
  'carriers.configure': { seals: ['carrier-credentials', 'carrier-callback-secret'], opens: [] },
  'shipments.create': { seals: [], opens: ['carrier-credentials'] },
  'shipments.label': { seals: [], opens: ['carrier-credentials'] },
  'shipments.tracking': { seals: [], opens: ['carrier-credentials'] },
  'shipments.cancel': { seals: [], opens: ['carrier-credentials'] },
  'shipments.returnLabel': { seals: [], opens: ['carrier-credentials'] },
  'shipments.returnLabelPdf': { seals: [], opens: ['carrier-credentials'] },
  'carriers.sendcloudWebhook': { seals: [], opens: ['carrier-callback-secret'] },
};

/** Worker ids (shared/workers.ts) that open secrets: the delivery worker signs every attempt with the registration's secret. */
export const workerSecretUses: Readonly<Record<string, SecretUse>> = {
  WebhookDelivery: { seals: [], opens: ['webhook-signing-secret'] },
};

const usesKind = (use: SecretUse, kinds: readonly SecretKind[]) => [...use.seals, ...use.opens].some((kind) => kinds.includes(kind));
const routesUsing = (kinds: readonly SecretKind[]) =>
  Object.entries(routeSecretUses)
    .filter(([, use]) => usesKind(use, kinds))
    .map(([id]) => id);

/** Route ids whose handlers seal a new webhook signing secret: create and rotate-secret. */
export const webhookSecretWriters: readonly string[] = routesUsing(['webhook-signing-secret']);
/** Route ids that open the customer-token signing keys: the token signers. */
export const signingKeyUsers: readonly string[] = routesUsing(['customer-token-signing-key']);
/** Route ids that seal or open a tenant's carrier secrets (credentials or callback secret; shared/shipments/settings.ts). */
export const carrierSecretUsers: readonly string[] = routesUsing(['carrier-credentials', 'carrier-callback-secret']);
/** Route ids that seal or open any secret: they name the key (`WEBHOOK_SECRETS_KEY_ID`) and carry the KMS client. */
export const secretRoutes: readonly string[] = Object.keys(routeSecretUses);
/** Worker ids that decrypt signing secrets: the delivery worker signs every attempt. */
export const webhookSecretReaders: readonly string[] = Object.keys(workerSecretUses);

/** The IAM condition that holds a KMS call to one encryption context. */
export const contextCondition = (context: Readonly<Record<string, string>>) => ({
  StringEquals: { [`kms:EncryptionContext:${CONTEXT_KEY}`]: context[CONTEXT_KEY]! },
});

/**
 * The statements of a function's secret use: one per action and kind, each conditioned on that
 * kind's context; with `legacy`, Decrypt under the shared context of older values too, when it
 * opens a kind that had such values.
 */
export function secretStatements(key: kms.IKey, use: SecretUse, legacy: boolean): iam.PolicyStatement[] {
  const statement = (action: string, context: Readonly<Record<string, string>>) =>
    new iam.PolicyStatement({ actions: [action], resources: [key.keyArn], conditions: contextCondition(context) });
  return [
    ...use.seals.map((kind) => statement('kms:GenerateDataKey', { [CONTEXT_KEY]: kind })),
    ...use.opens.map((kind) => statement('kms:Decrypt', { [CONTEXT_KEY]: kind })),
    ...(legacy && use.opens.some((kind) => LEGACY_KINDS.includes(kind)) ? [statement('kms:Decrypt', LEGACY_CONTEXT)] : []),
  ];
}

export class WebhookSecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      alias: `alias/print-shop-${stage.name}-webhook-secrets`,
      // The alias keeps its first name: the accounts and events CLIs find the key by it on a stage.
      description: `Print Shop API (${stage.name}): wraps the data keys of stored secrets, each kind under its own encryption context`,
      enableKeyRotation: true,
      // A deleted key makes every stored secret unreadable: kept with the data it protects.
      removalPolicy: stage.removalPolicy === RemovalPolicy.RETAIN ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(stage.removalPolicy === RemovalPolicy.RETAIN ? 30 : 7),
    });
  }

  /** Tells a function which key to use (functions that only decrypt find it in the ciphertext, but name it too). */
  configure(fn: lambda.Function): void {
    fn.addEnvironment(secretsKeyEnv.kmsKeyId, this.key.keyArn);
  }

  /** A function's use of the key: each kind it seals or opens, under that kind's context only. */
  grantUse(grantee: iam.IGrantable, use: SecretUse, legacy: boolean): void {
    for (const statement of secretStatements(this.key, use, legacy)) grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }
}
