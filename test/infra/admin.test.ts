import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, allowedOrigins, CORS_ORIGINS_ENV } from '../../infra/admin';
import { stageConfig } from '../../infra/stages';
import { buildStack, methods } from './helpers';

const { stack, template } = buildStack('prod');
const logicalId = (construct: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const bucketId = logicalId(stack.admin.bucket);
const distributionId = logicalId(stack.admin.distribution);
const domain = { 'Fn::GetAtt': [distributionId, 'DomainName'] };
const panelOrigin = { 'Fn::Join': ['', ['https://', domain]] };

describe('admin panel hosting', () => {
  it('keeps the build in a private, encrypted, TLS-only bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    const [policy] = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } }));
    const statements = policy!.Properties.PolicyDocument.Statement as any[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    // Readable by this distribution only, through Origin Access Control (no OAI, no public read).
    const read = statements.find((statement) => statement.Effect === 'Allow' && statement.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(read).toMatchObject({ Action: 's3:GetObject' });
    expect(JSON.stringify(read.Condition)).toContain(distributionId);
    expect(statements.some((statement) => statement.Principal === '*' && statement.Effect === 'Allow')).toBe(false);
    template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
  });

  it('serves it over HTTPS only, with the SPA fallback to index.html under /admin', () => {
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0].OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Id'] });
    expect(config.Origins[0].S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(behavior.AllowedMethods ?? ['GET', 'HEAD']).toEqual(['GET', 'HEAD']);
    }
    expect(config.CacheBehaviors.map((behavior: any) => behavior.PathPattern)).toEqual([`/${ADMIN_PREFIX}/assets/*`]);
    expect(config.DefaultRootObject).toBe(`${ADMIN_PREFIX}/index.html`);
    expect(config.CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: `/${ADMIN_PREFIX}/index.html`, ErrorCachingMinTTL: 10 },
      { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: `/${ADMIN_PREFIX}/index.html`, ErrorCachingMinTTL: 10 },
    ]);
  });

  it('sends security headers, and caches only the hashed assets for long', () => {
    const policies = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')).map((policy) => policy.Properties.ResponseHeadersPolicyConfig);
    expect(policies.map((policy) => policy.CustomHeadersConfig.Items[0].Value).sort()).toEqual(['no-cache', 'public, max-age=31536000, immutable']);
    for (const policy of policies) {
      const security = policy.SecurityHeadersConfig;
      expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Override: true });
      expect(security.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
      expect(security.ContentTypeOptions).toMatchObject({ Override: true });
      expect(JSON.stringify(security.ContentSecurityPolicy)).toContain("script-src 'self'");
      expect(JSON.stringify(security.ContentSecurityPolicy)).toContain('https://*.execute-api.');
    }
  });

  it('deploys the build and config.json with the API URL under admin/, then invalidates the edge', () => {
    const [deployment] = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    const props = deployment!.Properties;
    expect(props.DestinationBucketName).toEqual({ Ref: bucketId });
    expect(props.DestinationBucketKeyPrefix).toBe(`${ADMIN_PREFIX}/`);
    expect(props.SourceObjectKeys).toHaveLength(2); // the Vite build and config.json
    expect(props.DistributionId).toEqual({ Ref: distributionId });
    expect(props.DistributionPaths).toEqual(['/', `/${ADMIN_PREFIX}/*`]);
    // config.json is rendered at deploy time: its markers resolve to the parts of the API's URL.
    expect(Object.values(props.SourceMarkers[1])).toEqual([
      { Ref: stack.getLogicalId(stack.api.restApi.node.defaultChild as CfnElement) },
      { Ref: 'AWS::Region' },
      { Ref: 'AWS::URLSuffix' },
      { Ref: stack.getLogicalId(stack.api.restApi.deploymentStage.node.defaultChild as CfnElement) },
    ]);
  });

  it("lets the API's handlers and CORS preflights accept the panel's origin", () => {
    const resources = template.toJSON().Resources;
    const corsEnv = (fn: { node: { defaultChild?: unknown } }) => resources[logicalId(fn)].Properties.Environment.Variables[CORS_ORIGINS_ENV];
    expect(stack.api.functions.size).toBeGreaterThan(0);
    for (const fn of stack.api.functions.values()) expect(corsEnv(fn)).toEqual(panelOrigin);
    // Workers are not called by browsers.
    for (const fn of stack.workers.functions.values()) expect(corsEnv(fn)).toBeUndefined();
    const preflight = Object.values(template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } }));
    expect(preflight.length).toBe(methods(template).filter((method) => method.httpMethod === 'OPTIONS').length);
    expect(preflight.length).toBeGreaterThan(0);
    for (const method of preflight) {
      expect(method.Properties.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toEqual({
        'Fn::Join': ['', ["'https://", domain, "'"]],
      });
    }
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Access-Control-Allow-Origin': { 'Fn::Join': ['', ["'https://", domain, "'"]] } }),
    });
    template.hasOutput('AdminUrl', { Value: { 'Fn::Join': ['', ['https://', domain, `/${ADMIN_PREFIX}/`]] } });
  });

  it('keeps * alone and adds stage origins after the panel', () => {
    expect(allowedOrigins(stageConfig('dev'), 'https://d1.cloudfront.net')).toEqual(['*']);
    expect(allowedOrigins(stageConfig('prod'), 'https://d1.cloudfront.net')).toEqual(['https://d1.cloudfront.net']);
    expect(allowedOrigins(stageConfig('prod', { corsOrigins: 'https://admin.example.com,https://d1.cloudfront.net' }), 'https://d1.cloudfront.net')).toEqual([
      'https://d1.cloudfront.net',
      'https://admin.example.com',
    ]);
  });
});
