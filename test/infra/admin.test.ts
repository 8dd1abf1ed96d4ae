import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, allowedOrigins, CORS_ORIGINS_ENV } from '#infra/admin';
import { inMainTerms, methods, resourceOf, sharedStack, testStageConfig, type PolicyStatement } from './helpers';

const built = sharedStack('prod');
const { stack, template } = built;
const { admin } = stack;
// The panel lives in two nested stacks: hosting (bucket, distribution) and the deployment.
const hosting = Template.fromStack(admin.hosting);
const deployment = Template.fromStack(admin.deployment!);
const idIn = (scope: { getLogicalId(element: CfnElement): string }, construct: { node: { defaultChild?: unknown } }) =>
  scope.getLogicalId(construct.node.defaultChild as CfnElement);
const bucketId = idIn(admin.hosting, admin.bucket);
const distributionId = idIn(admin.hosting, admin.distribution);
/** The distribution's domain as the main stack sees it: an output of the hosting stack. */
const domain = {
  'Fn::GetAtt': [stack.getLogicalId(admin.hosting.nestedStackResource!), expect.stringMatching(/^Outputs\..*Distribution.*DomainName$/)],
};

describe('admin panel hosting', () => {
  it('adds only its two nested stacks to the main stack', () => {
    // Besides the route groups' and the paths' nested stacks (infra/route-stacks.ts, infra/path-stacks.ts; nested-stacks.test.ts).
    const routeStacks = [...stack.api.routeStacks.all.values(), ...stack.api.pathStacks.all.values()].map((nested) =>
      stack.getLogicalId(nested.nestedStackResource!),
    );
    const others = Object.keys(template.findResources('AWS::CloudFormation::Stack')).filter((id) => !routeStacks.includes(id));
    expect(others.sort()).toEqual(
      [stack.getLogicalId(admin.hosting.nestedStackResource!), stack.getLogicalId(admin.deployment!.nestedStackResource!)].sort(),
    );
    template.resourceCountIs('AWS::CloudFront::Distribution', 0);
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
  });

  it('keeps the build in a private, encrypted, TLS-only bucket', () => {
    hosting.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    hosting.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' }); // prod
    const [policy] = Object.values(hosting.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } }));
    const statements = policy!.Properties.PolicyDocument.Statement as PolicyStatement[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    // Readable by this distribution only, through Origin Access Control (no OAI, no public read).
    const reads = statements.filter((statement) => statement.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } });
    expect(JSON.stringify(reads[0]!.Condition)).toContain(distributionId);
    hosting.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
    hosting.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
  });

  it('serves it over HTTPS only, with the SPA fallback to index.html under /admin', () => {
    const [distribution] = Object.values(hosting.findResources('AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0].OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Id'] });
    expect(config.Origins[0].S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(behavior.AllowedMethods ?? ['GET', 'HEAD']).toEqual(['GET', 'HEAD']);
    }
    expect(config.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern)).toEqual([`/${ADMIN_PREFIX}/assets/*`]);
    expect(config.DefaultRootObject).toBe(`${ADMIN_PREFIX}/index.html`);
    expect(config.CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: `/${ADMIN_PREFIX}/index.html`, ErrorCachingMinTTL: 10 },
      { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: `/${ADMIN_PREFIX}/index.html`, ErrorCachingMinTTL: 10 },
    ]);
  });

  it('sends security headers, and caches only the hashed assets for long', () => {
    const policies = Object.values(hosting.findResources('AWS::CloudFront::ResponseHeadersPolicy')).map(
      (policy) => policy.Properties.ResponseHeadersPolicyConfig,
    );
    expect(policies.map((policy) => policy.CustomHeadersConfig.Items[0].Value).sort()).toEqual([
      'no-cache',
      'public, max-age=31536000, immutable',
    ]);
    for (const policy of policies) {
      const security = policy.SecurityHeadersConfig;
      expect(security.StrictTransportSecurity).toMatchObject({
        AccessControlMaxAgeSec: 31_536_000,
        IncludeSubdomains: true,
        Override: true,
      });
      expect(security.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
      expect(security.ContentTypeOptions).toMatchObject({ Override: true });
      expect(JSON.stringify(security.ContentSecurityPolicy)).toContain("script-src 'self'");
      expect(JSON.stringify(security.ContentSecurityPolicy)).toContain('https://*.execute-api.');
      // Presigned uploads go to the files bucket, on S3's domain of the region (test/infra/data.test.ts: its CORS rule).
      expect(JSON.stringify(security.ContentSecurityPolicy)).toMatch(/connect-src [^;]*https:\/\/\*\.s3\./);
    }
  });

  it('deploys the build and config.json with the API URL under admin/, then invalidates the edge', () => {
    const [resource] = Object.values(deployment.findResources('Custom::CDKBucketDeployment'));
    const props = resource!.Properties;
    expect(props.DestinationBucketKeyPrefix).toBe(`${ADMIN_PREFIX}/`);
    expect(props.SourceObjectKeys).toHaveLength(2); // the Vite build and config.json
    expect(props.Prune).toBe(true);
    expect(props.DistributionPaths).toEqual(['/', `/${ADMIN_PREFIX}/*`]);
    // config.json is rendered at deploy time: its markers resolve to the parts of the API's URL,
    // which the main stack hands to the deployment stack as parameters.
    const markers = Object.values(props.SourceMarkers[1] as Record<string, { Ref: string }>).map((marker) => marker.Ref);
    expect(markers).toEqual([
      expect.stringMatching(/ApiRestApi.*Ref$/),
      'AWS::Region',
      'AWS::URLSuffix',
      expect.stringMatching(/ApiRestApiDeploymentStageprod.*Ref$/),
    ]);
    const [nested] = Object.values(
      template.findResources('AWS::CloudFormation::Stack', { Properties: { Parameters: Match.anyValue() } }),
    ).filter((candidate) => JSON.stringify(candidate).includes(markers[0]!));
    expect(nested!.Properties.Parameters[markers[0]!]).toEqual({
      Ref: stack.getLogicalId(stack.api.restApi.node.defaultChild as CfnElement),
    });
  });

  it('runs the upload with a role that may touch only the build, the panel and its distribution', () => {
    // The deployment stack creates no role: the function uses the hosting stack's.
    deployment.resourceCountIs('AWS::IAM::Role', 0);
    deployment.resourceCountIs('AWS::IAM::Policy', 0);
    const [fn] = Object.values(deployment.findResources('AWS::Lambda::Function'));
    expect(JSON.stringify(fn!.Properties.Role)).toContain('DeployerRole');
    const roleId = idIn(admin.hosting, admin.deployerRole);
    const [policy] = Object.values(hosting.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }));
    const statements = policy!.Properties.PolicyDocument.Statement as PolicyStatement[];
    const resources = JSON.stringify(statements.map((statement) => statement.Resource));
    expect(resources).toContain('cdk-hnb659fds-assets-');
    expect(resources).toContain(bucketId);
    const invalidation = statements.find((statement) => [statement.Action].flat().includes('cloudfront:CreateInvalidation'));
    expect(JSON.stringify(invalidation!.Resource)).toContain(distributionId); // this distribution, not *
    expect(statements.every((statement) => statement.Resource !== '*')).toBe(true);
  });

  it("lets the API's handlers and CORS preflights accept the panel's origin", () => {
    // Route functions are in nested stacks: the domain reaches them as a parameter, passed from the hosting stack's output.
    const corsEnv = (fn: IConstruct) =>
      inMainTerms(built, Stack.of(fn), resourceOf(built, fn).Properties.Environment.Variables[CORS_ORIGINS_ENV]);
    expect(stack.api.functions.size).toBeGreaterThan(0);
    for (const fn of stack.api.functions.values()) expect(corsEnv(fn)).toEqual({ 'Fn::Join': ['', ['https://', domain]] });
    // Workers are not called by browsers.
    for (const fn of stack.workers.functions.values()) expect(corsEnv(fn)).toBeUndefined();
    // The root's and the version prefixes' preflights are in the main stack, the others in the path stacks (infra/path-stacks.ts).
    const preflights = methods(built).filter((method) => method.httpMethod === 'OPTIONS');
    expect(preflights.filter((method) => method.address.startsWith(`${stack.node.path}#`)).length).toBeGreaterThan(0);
    expect(preflights.length).toBeGreaterThan(stack.api.pathStacks.all.size);
    for (const { address, resource } of preflights) {
      const home = built.nested.find((nested) => address.startsWith(`${nested.stack.node.path}#`))?.stack ?? stack;
      const allowOrigin =
        resource.Properties.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Allow-Origin'];
      expect(inMainTerms(built, home, allowOrigin), address).toEqual({ 'Fn::Join': ['', ["'https://", domain, "'"]] });
    }
    const [unauthorized] = Object.values(
      template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: 'UNAUTHORIZED' } }),
    );
    expect(unauthorized!.Properties.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toEqual({
      'Fn::Join': ['', ["'https://", domain, "'"]],
    });
    expect(template.findOutputs('AdminUrl').AdminUrl!.Value).toEqual({ 'Fn::Join': ['', ['https://', domain, `/${ADMIN_PREFIX}/`]] });
  });

  it('keeps * alone and adds stage origins after the panel', () => {
    expect(allowedOrigins(testStageConfig('dev'), 'https://d1.cloudfront.net')).toEqual(['*']);
    expect(allowedOrigins(testStageConfig('prod'), 'https://d1.cloudfront.net')).toEqual(['https://d1.cloudfront.net']);
    expect(
      allowedOrigins(
        testStageConfig('prod', { corsOrigins: 'https://admin.example.com,https://d1.cloudfront.net' }),
        'https://d1.cloudfront.net',
      ),
    ).toEqual(['https://d1.cloudfront.net', 'https://admin.example.com']);
  });
});
