/**
 * The environment variables that name the master key of envelope encryption (envelope.ts). Kept
 * apart from shared/config.ts, which every bundle carries: only the functions that seal or open
 * webhook secrets read these (infra/secrets.ts sets the first on exactly those; the local runner
 * sets the second on everything).
 */
export const secretsKeyEnv = {
  /** The stage's KMS key (ARN) that wraps the data keys (AWS). */
  kmsKeyId: 'WEBHOOK_SECRETS_KEY_ID',
  /** The local runtime's key file under the data folder, standing in for KMS (local-aws/secrets-key.ts). */
  localKeyFile: 'LOCAL_SECRETS_KEY_FILE',
} as const;
