/**
 * Least-privilege grants per function, decided from the route data: reads for GET routes,
 * read-write otherwise, and bucket access only for the routes that handle objects (the files routes;
 * routes flagged `documents`, read-write even on GET).
 * Writes reach tenant partitions only (`dynamodb:LeadingKeys` `T#*`): platform items — account
 * records, API key hashes, the customer-token signing keys — are read-only to every function; they
 * are the accounts CLI's, with the operator's credentials. (What an account changes itself, its
 * name and company, is an item of its tenant space: shared/db/keys.ts `accountSettingsKey`.)
 * GET routes write nothing but their
 * rate-limit counters (`T#…#RATE…`). The secrets' KMS key is granted only to the functions that
 * seal or open secrets, each for its kinds only (conditioned on their encryption contexts,
 * infra/secrets.ts). Only routes flagged `mail: true` may send email, and only as the stage's
 * sender identity with the stage's configuration set (`grantSendMail`).
 * The wildcards these grants produce are acknowledged for cdk-nag here, next to their cause.
 */
import { Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct, IConstruct } from 'constructs';
import type { RouteDefinition } from '#shared/routes';
import { routeSecretUses, secretStatements } from './secrets';
import { mailIdentityOf } from './stages';

export interface GrantTargets {
  table: dynamodb.Table;
  filesBucket: s3.Bucket;
  documentsBucket: s3.Bucket;
  /** The stage's key for stored secrets (envelope encryption). */
  webhookSecretsKey?: kms.IKey;
  /** Decrypt under the shared context of secrets sealed before each kind had its own (the stage's `legacySecretGrants`). */
  legacySecretGrants?: boolean;
  /** The stage's sender address (infra/stages.ts `mailFrom`): routes with `mail: true` may send as its domain. */
  mailFrom?: string;
  /** The stage's SES configuration set (infra/mail.ts), which every send names: routes with `mail: true` may send with it. */
  mailConfigurationSet?: string;
}

/** What sending needs: SES v2 `SendEmail` is authorised as `ses:SendEmail`; `ses:SendRawEmail` covers the v1 API's raw sends. */
export const SEND_MAIL_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'];

/** Item writes (TransactWriteItems is authorised per item action). */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** Partition keys a function may write: every tenant key starts with `T#<account>#<mode>` (shared/db/keys.ts). */
export const TENANT_PARTITIONS = ['T#*'];
/** What GET routes write: their rate-limit counters (the secret keys' window and a publishable key's per client). */
export const RATE_WINDOW_PARTITIONS = ['T#*#RATE', 'T#*#RATE#*'];

type Access = 'read' | 'readWrite';
type Grantee = iam.IGrantable & IConstruct;

/** How cdk-nag names a resource in its findings: `<LogicalId.Arn>`. */
function arnToken(resource: IConstruct): string {
  return `<${Stack.of(resource).getLogicalId(resource.node.defaultChild as CfnElement)}.Arn>`;
}

/** Writes of `actions` on the table, only to items whose partition key matches one of `partitions`. */
function grantWrites(fn: Grantee, table: dynamodb.Table, actions: string[], partitions: string[]): void {
  fn.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions,
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } },
    }),
  );
}

/** Reads of the table and its indexes; with `readWrite`, item writes to tenant partitions only. */
export function grantTable(fn: Grantee, table: dynamodb.Table, access: Access): void {
  table.grantReadData(fn);
  if (access === 'readWrite') grantWrites(fn, table, TABLE_WRITE_ACTIONS, TENANT_PARTITIONS);
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnToken(table)}/index/*]`,
    reason: 'Queries go through the table GSIs; the grant covers the indexes of this one table only.',
  });
}

/** Objects of one bucket: read, or read and write (the route functions and the workers with bucket access). */
export function grantBucket(fn: Grantee, bucket: s3.Bucket, access: Access): void {
  if (access === 'read') bucket.grantRead(fn);
  else bucket.grantReadWrite(fn);
  const reason =
    'Objects are keyed per tenant at runtime, so access covers the objects of this one bucket; ' +
    'the action wildcards are the CDK read/write grant sets (object versions, tags, multipart aborts).';
  const writeActions = access === 'read' ? [] : ['s3:DeleteObject*', 's3:Abort*'];
  const actions = ['s3:GetObject*', 's3:GetBucket*', 's3:List*', ...writeActions];
  Validations.of(fn).acknowledge(
    { id: `AwsSolutions-IAM5[Resource::${arnToken(bucket)}/*]`, reason },
    ...actions.map((action) => ({ id: `AwsSolutions-IAM5[Action::${action}]`, reason })),
  );
}

/**
 * Sending email as the SES identity of `mailFrom`'s domain, in the stack's region and account, and
 * as no other identity: `arn:<partition>:ses:<region>:<account>:identity/<domain>`, with the stage's
 * configuration set — SES v2 `SendEmail` authorises the configuration set a send names as a resource
 * too (`…:configuration-set/<name>`). No wildcard, so nothing to acknowledge. (In the SES sandbox SES
 * also authorises each recipient's identity, so sends to other verified addresses fail with
 * AccessDenied there: docs/mail.md.)
 */
export function grantSendMail(fn: Grantee, mailFrom: string, configurationSetName: string): void {
  const stack = Stack.of(fn);
  fn.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: SEND_MAIL_ACTIONS,
      resources: [
        stack.formatArn({ service: 'ses', resource: 'identity', resourceName: mailIdentityOf(mailFrom) }),
        stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSetName }),
      ],
    }),
  );
}

/** GET routes read (and count their requests), unless flagged `writes`; every other method reads and writes. */
const accessOf = (route: RouteDefinition): Access => (route.method === 'GET' && !route.writes ? 'read' : 'readWrite');

export function grantRoute(route: RouteDefinition, fn: Grantee, targets: GrantTargets): void {
  const access: Access = accessOf(route);
  grantTable(fn, targets.table, access);
  // Every route counts its requests (shared/limits/rate-limit.ts): GET routes write those counters and nothing else.
  if (access === 'read') grantWrites(fn, targets.table, ['dynamodb:UpdateItem'], RATE_WINDOW_PARTITIONS);
  // Uploads, presigned POSTs and downloads (presigned with the function's own credentials).
  if (route.files) grantBucket(fn, targets.filesBucket, access);
  // Rendered documents: the first download of a GET route renders and stores, so read-write.
  if (route.documents) grantBucket(fn, targets.documentsBucket, 'readWrite');
  // Secrets: the kinds the route seals (new data keys) and opens, each under its own encryption context.
  const secrets = routeSecretUses[route.id];
  if (secrets) {
    if (!targets.webhookSecretsKey) throw new Error(`${route.id} seals or opens secrets: GrantTargets.webhookSecretsKey is required`);
    for (const statement of secretStatements(targets.webhookSecretsKey, secrets, targets.legacySecretGrants ?? true)) {
      fn.grantPrincipal.addToPrincipalPolicy(statement);
    }
  }
  if (route.mail) {
    if (!targets.mailFrom || !targets.mailConfigurationSet) {
      throw new Error(`${route.id} sends mail: GrantTargets.mailFrom and GrantTargets.mailConfigurationSet are required`);
    }
    grantSendMail(fn, targets.mailFrom, targets.mailConfigurationSet);
  }
}

/** A kind in a role's profile name: `carrier-callback-secret` → `CarrierCallbackSecret`. */
const kindTag = (kind: string) => kind.replace(/(^|-)(\w)/g, (_m, _dash, letter: string) => letter.toUpperCase());

/**
 * Route functions with the same needs share one role (read-only, read-write, read-write with a
 * bucket…): the permissions of each function stay exactly what its route needs, and the stack
 * keeps two resources per route fewer (CloudFormation allows 500 per stack).
 */
export class RouteRoles {
  private readonly roles = new Map<string, iam.Role>();

  constructor(
    private readonly scope: IConstruct,
    private readonly targets: GrantTargets,
  ) {}

  roleFor(route: RouteDefinition): iam.Role {
    const access: Access = accessOf(route);
    // The role keeps its profile name (`…-files-…`): the roles of routes that had it stay the same roles.
    const buckets = route.files ? ['files'] : [];
    // One profile per secret use: routes share a role only when they seal and open the same kinds.
    const use = routeSecretUses[route.id];
    const secrets = [
      ...(use?.seals.length ? [`seals${use.seals.map(kindTag).join('')}`] : []),
      ...(use?.opens.length ? [`opens${use.opens.map(kindTag).join('')}`] : []),
    ];
    const documents = route.documents ? ['documents'] : [];
    const mail = route.mail ? ['mail'] : [];
    const profile = [access, ...buckets, ...documents, ...secrets, ...mail].join('-');
    let role = this.roles.get(profile);
    if (!role) {
      const id = `RouteRole${profile.replace(/(^|-)(\w)/g, (_m, _dash, letter: string) => letter.toUpperCase())}`;
      role = new iam.Role(this.scope as Construct, id, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Route functions with ${profile} access`,
        managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      grantRoute(route, role, this.targets);
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'AWSLambdaBasicExecutionRole grants only CloudWatch Logs writes, the AWS-maintained baseline of every function.',
      });
      this.roles.set(profile, role);
    }
    return role;
  }
}
