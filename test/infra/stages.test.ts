import { RemovalPolicy } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stageConfig, stageNames } from '#infra/stages';
import { addressOf, findAll, methods, sharedStack, testStageConfig } from './helpers';

describe('stages', () => {
  it.each(stageNames)('synthesizes %s clean under cdk-nag and CloudFormation validation', (stage) => {
    // The synthesis throws with the validation report on any unacknowledged finding; the shared stack
    // of each stage is synthesized with CloudFormation's validation on (helpers.ts, sharedStack).
    expect(() => sharedStack(stage)).not.toThrow();
  });

  it('retains data in prod and destroys it in dev', () => {
    const prodBuilt = sharedStack('prod');
    const prod = prodBuilt.template;
    prod.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true },
    });
    prod.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain', Properties: { VersioningConfiguration: { Status: 'Enabled' } } });
    // Across every template: the admin panel's bucket (hosting nested stack) is retained in prod too.
    expect(findAll(prodBuilt, 'Custom::S3AutoDeleteObjects')).toEqual([]);
    // Prod allows exactly one browser origin, its admin panel's (test/infra/admin.test.ts).
    expect(methods(prodBuilt).some((method) => method.httpMethod === 'OPTIONS')).toBe(true);

    const dev = sharedStack('dev').template;
    dev.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
    dev.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Delete' });
  });

  it('rejects an unknown stage and takes CORS origins from context', () => {
    expect(() => stageConfig('qa')).toThrow(/Unknown stage/);
    expect(testStageConfig('prod').removalPolicy).toBe(RemovalPolicy.RETAIN);
    expect(testStageConfig('prod', { corsOrigins: 'https://a.example, https://b.example' }).corsOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });
});

describe('the route table', () => {
  // The files routes and webhooks.test (with its /api/v1 alias) are in the real route table now.
  // Also proves the bucket grants' wildcards are acknowledged: every build runs cdk-nag too.
  const built = sharedStack('dev');
  const { stack, template } = built;

  it('serves aliases from the same function as the canonical path', () => {
    const fn = addressOf(stack.api.functions.get('webhooks.test')!);
    const posts = methods(built).filter((method) => method.httpMethod === 'POST' && method.path.endsWith('/test'));
    expect(posts.map((method) => [method.path, method.functionAddress])).toEqual([
      ['/v1/webhooks/{id}/test', fn],
      ['/api/v1/webhooks/{id}/test', fn],
    ]);
  });

  it('gives bucket access only to routes that handle files (read-only for GET) and document routes (read-write: a GET renders and stores)', () => {
    const s3Actions = (routeId: string): string[] => {
      const role = stack.getLogicalId(stack.api.functions.get(routeId)!.role!.node.defaultChild as never);
      const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } }));
      return policies
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => s.Action))
        .filter((action: string) => action.startsWith('s3:'));
    };
    expect(s3Actions('files.upload')).toContain('s3:PutObject');
    expect(s3Actions('files.download')).toContain('s3:GetObject*');
    expect(s3Actions('files.download')).not.toContain('s3:PutObject');
    // Metadata reads never touch the bucket.
    expect(s3Actions('files.get')).toEqual([]);
    expect(s3Actions('invoices.pdf')).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
    expect(s3Actions('invoices.list')).toEqual([]);
    expect(s3Actions('webhooks.test')).toEqual([]);
  });
});
