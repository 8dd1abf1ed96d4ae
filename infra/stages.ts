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
   * (infra/grants.ts). A deployment fact with no default: every synth names it (`-c mailFrom=…`).
   */
  mailFrom: string;
  /** Subscribed by email to the stage's notification topic (alarms, bounces: infra/notifications.ts); `-c alarmEmail=…`. */
  alarmEmail?: string;
  /**
   * Whether the functions that open a kind of secret which had values sealed before each kind got
   * its own encryption context may also Decrypt under that old shared context (infra/secrets.ts).
   * On until `npm run events -- seal-secrets --stage <name>` reports nothing left to seal; then
   * deploy with `-c legacySecrets=false`.
   */
  legacySecretGrants: boolean;
}

/** What the stage table holds; the addresses are deployment facts that come from context (stageConfig). */
export type StageDefaults = Omit<StageConfig, 'mailFrom' | 'alarmEmail'>;

const stages: Record<StageName, StageDefaults> = {
  dev: {
    name: 'dev',
    memorySize: 512,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    removalPolicy: RemovalPolicy.DESTROY,
    versionedBuckets: false,
    throttle: { rateLimit: 50, burstLimit: 100 },
    corsOrigins: ['*'],
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
    legacySecretGrants: true,
  },
};

export function isStageName(value: unknown): value is StageName {
  return typeof value === 'string' && (stageNames as readonly string[]).includes(value);
}

/**
 * The config of a stage. `corsOrigins` may be overridden (comma-separated context value
 * `-c corsOrigins=https://admin.example.com`) because the admin panel's domain is a deployment fact;
 * `mailFrom` must be given (`-c mailFrom=invoices@your-domain`): every stage is a deployed one, and a
 * sender SES cannot verify would only fail at the first send. `alarmEmail` (`-c alarmEmail=…`) is optional.
 */
/** A stage's settings without its addresses (the deploy preflight reads its throttle before any sender is checked). */
export function stageDefaults(name: string): StageDefaults {
  if (!isStageName(name)) throw new Error(`Unknown stage "${name}"; expected one of ${stageNames.join(', ')}`);
  return stages[name];
}

export function stageConfig(
  name: string,
  overrides: { corsOrigins?: string; mailFrom?: string; alarmEmail?: string; legacySecrets?: string | boolean } = {},
): StageConfig {
  if (!isStageName(name)) throw new Error(`Unknown stage "${name}"; expected one of ${stageNames.join(', ')}`);
  let config: StageConfig = { ...stages[name], mailFrom: configuredSender(name, overrides.mailFrom) };
  const origins = overrides.corsOrigins
    ?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (origins) config = { ...config, corsOrigins: origins };
  const alarmEmail = overrides.alarmEmail?.trim();
  if (alarmEmail) config = { ...config, alarmEmail: deliverableAddress('alarmEmail', alarmEmail) };
  if (overrides.legacySecrets !== undefined) {
    const value = String(overrides.legacySecrets).trim();
    if (value !== 'true' && value !== 'false') throw new Error(`legacySecrets must be true or false, not "${value}"`);
    config = { ...config, legacySecretGrants: value === 'true' };
  }
  return config;
}

/** The stage's sender, or why a synth cannot go on without one. */
function configuredSender(stage: StageName, mailFrom: string | undefined): string {
  const address = mailFrom?.trim();
  if (!address) {
    throw new Error(
      `Stage "${stage}" has no mail sender: synthesize it with -c mailFrom=invoices@<a domain verified in SES> ` +
        `(npx cdk deploy -c stage=${stage} -c mailFrom=…, npm run synth -- -c mailFrom=…; docs/mail.md)`,
    );
  }
  return deliverableAddress('mailFrom', address);
}

/**
 * Domains no one can own, so SES can never verify them nor deliver to them: the reserved top-level
 * names of RFC 2606 and RFC 6761 (`.example`, `.test`, `.invalid`, `.localhost`), mDNS's `.local`
 * (RFC 6762) and the example second-level domains of RFC 2606. An address under one is a placeholder.
 */
const RESERVED_DOMAINS = ['example', 'test', 'invalid', 'localhost', 'local', 'example.com', 'example.net', 'example.org'];

export function isPlaceholderDomain(domain: string): boolean {
  const lower = domain.toLowerCase();
  return RESERVED_DOMAINS.some((reserved) => lower === reserved || lower.endsWith(`.${reserved}`));
}

/** `address` if it is a plain address whose domain is not reserved; the error names the context value to set. */
function deliverableAddress(setting: 'mailFrom' | 'alarmEmail', address: string): string {
  const domain = mailIdentityOf(address, setting);
  if (isPlaceholderDomain(domain)) {
    throw new Error(
      `${setting} "${address}" is a placeholder: ${domain} is a reserved domain no one can own or verify in SES; ` +
        `set a real address with -c ${setting}=…`,
    );
  }
  return address;
}

/**
 * The SES identity a sender address belongs to: its domain (`invoices@mail.shop.de` →
 * `mail.shop.de`), the identity the grant names. A plain address is expected, no display name.
 */
export function mailIdentityOf(address: string, setting: 'mailFrom' | 'alarmEmail' = 'mailFrom'): string {
  const match = /^[^@\s<>]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})$/.exec(address);
  if (!match) throw new Error(`${setting} "${address}" is not a plain email address with a domain (e.g. invoices@mail.your-shop.de)`);
  return match[1]!;
}
