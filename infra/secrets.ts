/**
 * The stage's KMS key for webhook signing secrets (envelope encryption, shared/crypto/envelope.ts):
 * the functions that create a secret get `kms:GenerateDataKey`, the delivery worker that signs with
 * it gets `kms:Decrypt`, nobody else anything — reads of a registration show only the stored hint.
 * Which functions those are is listed here once; the bundle test checks that exactly their bundles
 * carry the KMS client (test/infra/bundles.test.ts).
 */
import { routes } from '#shared/routes';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { secretsKeyEnv } from '#shared/crypto/env';
import type { StageConfig } from './stages';

/** Route ids whose handlers encrypt a new signing secret: create and rotate-secret. */
export const webhookSecretWriters: readonly string[] = ['webhooks.create', 'webhooks.rotateSecret'];
/** Route ids that sign customer access tokens (`signsTokens` in the route table): they and the authorizer know the tokens' issuer. */
export const tokenSigners: readonly string[] = routes.filter((route) => route.signsTokens).map((route) => route.id);
/**
 * Route ids that open the customer-token signing keys' private halves (shared/customer-auth/key-store.ts):
 * the token signers, with `kms:Decrypt` only — the keys are made and sealed by the accounts CLI with
 * the operator's credentials, and the JWKS endpoint reads the public halves alone.
 */
export const signingKeyUsers: readonly string[] = tokenSigners;
/**
 * Route ids whose handlers use a tenant's carrier credentials (shared/shipments/settings.ts): setting
 * them seals the secret key (`kms:GenerateDataKey`); the routes that call the carrier or check its
 * callbacks' signatures open it (`kms:Decrypt`). One grant of both keeps them in one role profile.
 */
export const carrierSecretUsers: readonly string[] = [
  'carriers.configure',
  'shipments.create',
  'shipments.label',
  'shipments.tracking',
  'shipments.cancel',
  'carriers.sendcloudWebhook',
];
/** Worker ids (shared/workers.ts) that decrypt signing secrets: the delivery worker signs every attempt. */
export const webhookSecretReaders: readonly string[] = ['WebhookDelivery'];

export class WebhookSecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      alias: `alias/print-shop-${stage.name}-webhook-secrets`,
      description: `Print Shop API (${stage.name}): wraps the data keys that encrypt webhook signing secrets`,
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

  /** The delivery worker: decrypts data keys to sign with the secrets. */
  grantDecrypt(grantee: iam.IGrantable): void {
    this.key.grant(grantee, 'kms:Decrypt');
  }
}
