/**
 * Per-stage settings. Everything that differs between dev, staging and prod lives here, so the
 * constructs read one object and never branch on the stage name themselves.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export const stageNames = ['dev', 'staging', 'prod'] as const;
export type StageName = (typeof stageNames)[number];

export interface StageConfig {
  name: StageName;
  /** Lambda memory in MB; on Lambda, CPU scales with it. */
  memorySize: number;
  logRetention: RetentionDays;
  /** Powertools log level of the functions. */
  logLevel: 'DEBUG' | 'INFO';
  /** What happens to data (table, buckets, log groups) when the stack is deleted. */
  removalPolicy: RemovalPolicy;
  /** Object versioning of the buckets (guards invoice PDFs against overwrites and deletes). */
  versionedBuckets: boolean;
  /** Gateway-wide throttle per stage; per-account limits are enforced in the handlers. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Origins the admin panel is served from; empty means no CORS preflight at all. */
  corsOrigins: string[];
  /**
   * The sender of the stage's email (`MAIL_FROM`, shared/mail). Its domain must be a verified SES
   * identity in the stack's region, and the functions that send mail may send as that domain only
   * (infra/grants.ts). The defaults are placeholders: deploy with `-c mailFrom=invoices@your-domain`.
   */
  mailFrom: string;
  /**
   * Whether the functions that open a kind of secret which had values sealed before each kind got
   * its own encryption context may also Decrypt under that old shared context (infra/secrets.ts).
   * On until `npm run events -- seal-secrets --stage <name>` reports nothing left to seal; then
   * deploy with `-c legacySecrets=false`.
   */
  legacySecretGrants: boolean;
}

const stages: Record<StageName, StageConfig> = {
  dev: {
    name: 'dev',
    memorySize: 512,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    removalPolicy: RemovalPolicy.DESTROY,
    versionedBuckets: false,
    throttle: { rateLimit: 50, burstLimit: 100 },
    corsOrigins: ['*'],
    // Placeholders, here and below: each domain must be a verified SES identity (deploy with -c mailFrom=…).
    mailFrom: 'invoices@dev.print-shop.example',
    legacySecretGrants: true,
  },
  // Staging holds disposable copies of data, so it is torn down like dev.
  staging: {
    name: 'staging',
    memorySize: 512,
    logRetention: RetentionDays.ONE_MONTH,
    logLevel: 'INFO',
    removalPolicy: RemovalPolicy.DESTROY,
    versionedBuckets: false,
    throttle: { rateLimit: 200, burstLimit: 400 },
    corsOrigins: [],
    mailFrom: 'invoices@staging.print-shop.example',
    legacySecretGrants: true,
  },
  prod: {
    name: 'prod',
    memorySize: 512,
    logRetention: RetentionDays.THREE_MONTHS,
    logLevel: 'INFO',
    removalPolicy: RemovalPolicy.RETAIN,
    versionedBuckets: true,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    corsOrigins: [],
    mailFrom: 'invoices@prod.print-shop.example',
    legacySecretGrants: true,
  },
};

export function isStageName(value: unknown): value is StageName {
  return typeof value === 'string' && (stageNames as readonly string[]).includes(value);
}

/**
 * The config of a stage. `corsOrigins` may be overridden (comma-separated context value
 * `-c corsOrigins=https://admin.example.com`) because the admin panel's domain is a deployment fact;
 * so may `mailFrom` (`-c mailFrom=invoices@shop.example`): the verified sender domain is one too.
 */
export function stageConfig(
  name: string,
  overrides: { corsOrigins?: string; mailFrom?: string; legacySecrets?: string | boolean } = {},
): StageConfig {
  if (!isStageName(name)) throw new Error(`Unknown stage "${name}"; expected one of ${stageNames.join(', ')}`);
  let config = stages[name];
  const origins = overrides.corsOrigins
    ?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (origins) config = { ...config, corsOrigins: origins };
  const mailFrom = overrides.mailFrom?.trim();
  if (mailFrom) config = { ...config, mailFrom };
  mailIdentityOf(config.mailFrom); // fails synth on an address without a domain
  if (overrides.legacySecrets !== undefined) {
    const value = String(overrides.legacySecrets).trim();
    if (value !== 'true' && value !== 'false') throw new Error(`legacySecrets must be true or false, not "${value}"`);
    config = { ...config, legacySecretGrants: value === 'true' };
  }
  return config;
}

/**
 * The SES identity a sender address belongs to: its domain (`invoices@dev.print-shop.example` →
 * `dev.print-shop.example`), the identity the grant names. A plain address is expected, no display name.
 */
export function mailIdentityOf(address: string): string {
  const match = /^[^@\s<>]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})$/.exec(address);
  if (!match) throw new Error(`mailFrom "${address}" is not a plain email address with a domain (e.g. invoices@shop.example)`);
  return match[1]!;
}
