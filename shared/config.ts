/**
 * Runtime configuration, read from the environment once. On AWS, CDK sets these on every
 * function; locally, the runner sets them (and the SDK's own `AWS_ENDPOINT_URL_<SERVICE>`
 * variables point the clients at the emulators).
 */
export interface RuntimeConfig {
  stage: string;
  tableName: string;
  filesBucket: string;
  documentsBucket: string;
  deliveriesQueueUrl: string;
  /** The deliveries DLQ: the delivery worker moves a delivery there after its last attempt. */
  deliveriesDlqUrl: string;
  /** True only under `npm start` and tests: allows http://127.0.0.1 webhook receivers etc. */
  localMode: boolean;
  region: string;
}

export const env = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  filesBucket: 'FILES_BUCKET',
  documentsBucket: 'DOCUMENTS_BUCKET',
  deliveriesQueueUrl: 'DELIVERIES_QUEUE_URL',
  deliveriesDlqUrl: 'DELIVERIES_DLQ_URL',
  localMode: 'LOCAL_MODE',
  /** The `iss` of customer access tokens: the API's base URL (shared/customer-auth/tokens.ts). */
  tokenIssuer: 'TOKEN_ISSUER',
} as const;

let cached: RuntimeConfig | undefined;

export function config(): RuntimeConfig {
  if (cached) return cached;
  const stage = process.env[env.stage] ?? 'local';
  cached = {
    stage,
    tableName: process.env[env.tableName] ?? `print-shop-${stage}-table`,
    filesBucket: process.env[env.filesBucket] ?? `print-shop-${stage}-files`,
    documentsBucket: process.env[env.documentsBucket] ?? `print-shop-${stage}-documents`,
    deliveriesQueueUrl: process.env[env.deliveriesQueueUrl] ?? '',
    deliveriesDlqUrl: process.env[env.deliveriesDlqUrl] ?? '',
    localMode: process.env[env.localMode] === 'true',
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'eu-central-1',
  };
  return cached;
}

/** Tests and the local runner change the environment after import; this forgets the cached copy. */
export function resetConfig(): void {
  cached = undefined;
}
