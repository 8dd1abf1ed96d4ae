/**
 * Least-privilege grants per function, decided from the route data: reads for GET routes,
 * read-write otherwise, and bucket access only for the route groups that handle objects.
 * The wildcards these grants produce are acknowledged for cdk-nag here, next to their cause.
 */
import { Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct, IConstruct } from 'constructs';
import type { RouteDefinition } from '#shared/routes';

export interface GrantTargets {
  table: dynamodb.Table;
  filesBucket: s3.Bucket;
  documentsBucket: s3.Bucket;
}

type Access = 'read' | 'readWrite';
type Grantee = iam.IGrantable & IConstruct;

/** Route-id prefix → the bucket its handlers work with. */
const bucketsByRoutePrefix: Record<string, (targets: GrantTargets) => s3.Bucket> = {
  'files.': (targets) => targets.filesBucket, // uploads and presigned downloads
  'invoices.': (targets) => targets.documentsBucket, // invoice PDFs
};

/** How cdk-nag names a resource in its findings: `<LogicalId.Arn>`. */
function arnToken(resource: IConstruct): string {
  return `<${Stack.of(resource).getLogicalId(resource.node.defaultChild as CfnElement)}.Arn>`;
}

export function grantTable(fn: Grantee, table: dynamodb.Table, access: Access): void {
  if (access === 'read') table.grantReadData(fn);
  else table.grantReadWriteData(fn);
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnToken(table)}/index/*]`,
    reason: 'Queries go through the table GSIs; the grant covers the indexes of this one table only.',
  });
}

function grantBucket(fn: Grantee, bucket: s3.Bucket, access: Access): void {
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

export function grantRoute(route: RouteDefinition, fn: Grantee, targets: GrantTargets): void {
  const access: Access = route.method === 'GET' ? 'read' : 'readWrite';
  grantTable(fn, targets.table, access);
  for (const [prefix, bucketOf] of Object.entries(bucketsByRoutePrefix)) {
    if (route.id.startsWith(prefix)) grantBucket(fn, bucketOf(targets), access);
  }
}

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
    const access: Access = route.method === 'GET' ? 'read' : 'readWrite';
    const buckets = Object.keys(bucketsByRoutePrefix).filter((prefix) => route.id.startsWith(prefix));
    const profile = [access, ...buckets.map((prefix) => prefix.replace(/\W/g, ''))].join('-');
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
