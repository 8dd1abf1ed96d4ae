import { Match } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { env } from '#shared/config';
import { accountSettingsKey, platformKeys } from '#shared/db/keys';
import { secretsKeyEnv } from '#shared/crypto/env';
import { mailEnv } from '#shared/mail/config';
import { pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { workers } from '#shared/workers';
import { assertConsistentPathParameters, functionId } from '#infra/api';
import { RATE_WINDOW_PARTITIONS, TABLE_WRITE_ACTIONS, TENANT_PARTITIONS } from '#infra/grants';
import { secretRoutes, tokenSigners, webhookSecretReaders } from '#infra/secrets';
import { addressOf, findAll, logicalIdOf, methods, resourceOf, sharedStack } from './helpers';
import { gatewayFigure, plans, USAGE_TIERS, usageKeyTiers, usagePlanName, usagePlanThrottle, type UsageTier } from '#shared/accounts/plans';

const built = sharedStack('dev');
const { stack, template } = built;
const found = methods(built);
/** The logical id in the construct's own template (the route functions are in nested stacks; roles and the API in the main one). */
const logicalId = logicalIdOf;
/** Where a route's function is, across the main and nested templates. */
const routeFunctionAddress = (route: RouteDefinition): string => addressOf(stack.api.functions.get(route.id)!);
const authorizerId = logicalId(stack.api.node.findChild('Authorizer'));

interface Statement {
  Action: string | string[];
  Condition?: unknown;
}
const actionList = (statement: Statement): string[] => [statement.Action].flat();
/** The IAM statements of a function's role (route roles are shared by functions of the same needs). */
const statementsOf = (construct: { role?: IConstruct }): Statement[] => {
  const role = logicalId(construct.role!);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
};

/**
 * The API's functions, in the main template and the route groups' nested ones: without CDK's custom-resource
 * providers (also those of the admin panel's nested stacks) and the audit shipper (audit.test.ts).
 */
const auditShipper = addressOf(stack.audit.shipper);
const functions = findAll(built, 'AWS::Lambda::Function').filter(
  ({ logicalId: id, address }) =>
    !id.startsWith('CustomS3AutoDeleteObjects') && !id.startsWith('CustomCDKBucketDeployment') && address !== auditShipper,
);

describe('REST API', () => {
  it('gives every route a method and its own function', () => {
    for (const route of routes) {
      for (const path of pathsOf(route)) {
        const matching = found.filter((method) => method.path === path && method.httpMethod === route.method);
        expect(matching, `${route.method} ${path}`).toHaveLength(1);
        expect(matching[0]!.functionAddress, route.id).toBe(routeFunctionAddress(route));
      }
    }
    expect(new Set(routes.map(routeFunctionAddress)).size).toBe(routes.length);
    expect(functions).toHaveLength(routes.length + 1 + workers.length); // + the authorizer and the workers (workers.test.ts)
    const aliases = routes.flatMap((route) => pathsOf(route).map(() => route));
    expect(found.filter((method) => method.httpMethod !== 'OPTIONS' && method.httpMethod !== 'ANY')).toHaveLength(aliases.length);
  });

  it('answers unrouted methods on routed paths with a mock 405 naming the allowed methods', () => {
    const paths = [...new Set(routes.flatMap(pathsOf))];
    for (const path of paths) {
      const any = found.filter((method) => method.path === path && method.httpMethod === 'ANY');
      expect(any, path).toHaveLength(1);
      expect(any[0]!.functionAddress, path).toBeUndefined();
    }
    const mocks = found.filter((method) => method.httpMethod === 'ANY').map((method) => method.resource);
    const customerMock = mocks.find((m) => JSON.stringify(m).includes('not allowed on /v1/customers/{id};'))!;
    expect(customerMock.Properties.Integration.Type).toBe('MOCK');
    expect(customerMock.Properties.Integration.IntegrationResponses[0].StatusCode).toBe('405');
    expect(customerMock.Properties.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Allow']).toBe(
      "'GET, PUT, DELETE'",
    );
  });

  it('puts the REQUEST authorizer on key routes and nothing on public ones', () => {
    for (const route of routes) {
      for (const method of found.filter((m) => m.httpMethod === route.method && pathsOf(route).includes(m.path))) {
        if (route.auth === 'key') {
          expect(method, route.id).toMatchObject({ authorizationType: 'CUSTOM', authorizerId });
        } else {
          expect(method, route.id).toMatchObject({ authorizationType: 'NONE', authorizerId: undefined });
        }
      }
    }
  });

  it('caches authorizer results for 60 s per Authorization header', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 60,
    });
    const authorizer = Object.values(template.findResources('AWS::ApiGateway::Authorizer'))[0]!;
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(logicalId(stack.api.authorizerFunction));
  });

  it('answers gateway errors with the project error envelope and X-Request-Id', () => {
    for (const [type, status, code] of [
      ['UNAUTHORIZED', '401', 'unauthorized'],
      ['ACCESS_DENIED', '403', 'forbidden'],
    ] as const) {
      const [response] = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }));
      expect(response?.Properties, type).toMatchObject({
        StatusCode: status,
        ResponseParameters: {
          'gatewayresponse.header.Content-Type': "'application/json'",
          'gatewayresponse.header.X-Request-Id': 'context.requestId',
        },
      });
      const body = JSON.parse(response!.Properties.ResponseTemplates['application/json']);
      expect(body).toMatchObject({ success: false, error: { code, request_id: '$context.requestId' } });
    }
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: type });
    }
    for (const [type, status, code] of [
      ['THROTTLED', '429', 'rate_limited'],
      ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
      ['WAF_FILTERED', '403', 'forbidden'],
      ['INTEGRATION_TIMEOUT', '504', 'timeout'],
    ] as const) {
      const [response] = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }));
      expect(response?.Properties.StatusCode, type).toBe(status);
      expect(JSON.parse(response!.Properties.ResponseTemplates['application/json']).error.code, type).toBe(code);
    }
  });

  it('logs every request, also those the gateway refuses itself, with why and for whom', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const format = JSON.parse(stage!.Properties.AccessLogSetting.Format as string) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      ip: '$context.identity.sourceIp',
      errorType: '$context.error.responseType',
      errorMessage: '$context.error.message',
      wafStatus: '$context.waf.status',
      accountId: '$context.authorizer.accountId',
      mode: '$context.authorizer.mode',
      usageKeyId: '$context.identity.apiKeyId',
    });
  });

  it('deploys a stage named after the stage with access logs, throttling and binary uploads', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: 'print-shop-dev-api',
      BinaryMediaTypes: Match.arrayWith(['multipart/form-data', 'application/pdf', 'application/octet-stream']),
    });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
      ]),
    });
  });

  it('answers CORS preflights without authorization on dev', () => {
    const preflights = found.filter((method) => method.httpMethod === 'OPTIONS');
    for (const path of new Set(routes.flatMap(pathsOf))) {
      expect(
        preflights.find((method) => method.path === path),
        path,
      ).toMatchObject({ authorizationType: 'NONE' });
    }
  });
});

describe('route functions', () => {
  it('run on Node.js 24 arm64 with JSON logs and the runtime configuration', () => {
    // The workers' functions differ in timeout and environment; workers.test.ts checks them.
    const workerAddresses = new Set([...stack.workers.functions.values()].map(addressOf));
    const keyUsers = new Set(secretRoutes.map((routeId) => addressOf(stack.api.functions.get(routeId)!)));
    const mailSenders = new Set(routes.filter((route) => route.mail).map(routeFunctionAddress));
    const tokenIssuers = new Set([
      addressOf(stack.api.authorizerFunction),
      ...tokenSigners.map((routeId) => addressOf(stack.api.functions.get(routeId)!)),
    ]);
    const checked = functions.filter(({ address }) => !workerAddresses.has(address));
    expect(checked).toHaveLength(routes.length + 1); // + the authorizer
    for (const { address: id, resource: fn } of checked) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: routes.find((route) => routeFunctionAddress(route) === id)?.timeoutSeconds ?? 10,
        LoggingConfig: { LogFormat: 'JSON', LogGroup: expect.anything() },
      });
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(Object.keys(variables).sort(), id).toEqual(
        [
          env.stage,
          env.tableName,
          env.filesBucket,
          env.documentsBucket,
          env.deliveriesQueueUrl,
          'CORS_ORIGINS',
          'POWERTOOLS_SERVICE_NAME',
          'POWERTOOLS_LOG_LEVEL',
          'NODE_OPTIONS',
          // Only the functions that seal or open secrets name the KMS key (infra/secrets.ts).
          ...(keyUsers.has(id) ? [secretsKeyEnv.kmsKeyId] : []),
          // Only the functions that send mail name the sender and the SES configuration set (test/infra/mail.test.ts).
          ...(mailSenders.has(id) ? [mailEnv.mailFrom, mailEnv.configurationSet] : []),
          // The functions that sign customer tokens and the authorizer that verifies them name the issuer (the API's URL).
          ...(tokenIssuers.has(id) ? [env.tokenIssuer] : []),
        ].sort(),
      );
      expect(variables).toMatchObject({ STAGE: 'dev', NODE_OPTIONS: '--enable-source-maps' });
    }
  });

  it("sets neither LOCAL_MODE nor the tests' cheaper password cost (TEST_SCRYPT_LOG_N) on any function", () => {
    // shared/customer-auth/passwords.ts reads TEST_SCRYPT_LOG_N only with LOCAL_MODE=true: on AWS, scrypt keeps N = 2^17.
    const all = findAll(built, 'AWS::Lambda::Function');
    expect(all.length).toBeGreaterThan(routes.length);
    for (const { address, resource } of all) {
      const variables = (resource.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      expect(Object.keys(variables), address).not.toContain(env.localMode);
      expect(Object.keys(variables), address).not.toContain('TEST_SCRYPT_LOG_N');
    }
  });

  it('may only read the table on GET routes (but the ones flagged `writes`) and write it otherwise', () => {
    const actionsOf = (construct: { role?: IConstruct }): string[] => {
      const role = logicalId(construct.role!);
      const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
      return Object.values(policies).flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => statement.Action),
      );
    };
    for (const route of routes) {
      const actions = actionsOf(stack.api.functions.get(route.id)!);
      expect(actions, route.id).toContain('dynamodb:Query');
      // A GET writes no item (its rate-limit counters are UpdateItem).
      if (route.method === 'GET' && !route.writes) expect(actions, route.id).not.toContain('dynamodb:PutItem');
      else expect(actions, route.id).toContain('dynamodb:PutItem');
      // Only the document routes (the documents bucket, read-write: a first GET renders and stores) and
      // the files routes (the files bucket) reach a bucket.
      expect(
        actions.some((action) => action.startsWith('s3:')),
        route.id,
      ).toBe(Boolean(route.documents) || Boolean(route.files));
      if (route.documents) expect(actions, route.id).toContain('s3:PutObject');
    }
    expect(actionsOf(stack.api.authorizerFunction)).not.toContain('dynamodb:PutItem');
  });

  it('write tenant partitions only (platform items are read-only to every function); GET routes only their rate-limit counters', () => {
    const check = (label: string, fn: { role?: IConstruct }, allowed: 'none' | 'rate' | 'tenant') => {
      const statements = statementsOf(fn);
      const writes = statements.filter((statement) => actionList(statement).some((action) => TABLE_WRITE_ACTIONS.includes(action)));
      if (allowed === 'none') return expect(writes, label).toEqual([]);
      expect(writes.length, label).toBeGreaterThan(0);
      for (const statement of writes) {
        // Each write statement is bound to partition keys starting with T# — never ACCOUNT#… or APIKEY#….
        expect(statement.Condition, label).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': allowed === 'rate' ? RATE_WINDOW_PARTITIONS : TENANT_PARTITIONS },
        });
        if (allowed === 'rate') expect(actionList(statement), label).toEqual(['dynamodb:UpdateItem']);
      }
      for (const pattern of [...TENANT_PARTITIONS, ...RATE_WINDOW_PARTITIONS]) expect(pattern.startsWith('T#')).toBe(true);
    };
    for (const route of routes)
      check(route.id, stack.api.functions.get(route.id)!, route.method === 'GET' && !route.writes ? 'rate' : 'tenant');
    // The keys a route writes, account settings included, are tenant keys: the patterns match them, never a platform key.
    expect(accountSettingsKey('acct_1').pk.startsWith('T#')).toBe(true);
    for (const key of [platformKeys.account('acct_1'), platformKeys.apiKeyByHash('h'), platformKeys.customerTokenKeys])
      expect(key.pk.startsWith('T#'), key.pk).toBe(false);
    check('authorizer', stack.api.authorizerFunction, 'none');
    check('audit shipper', stack.audit.shipper, 'tenant');
    for (const worker of workers)
      check(worker.id, stack.workers.functions.get(worker.id)!, worker.access.table === 'read' ? 'none' : 'tenant');
  });

  it('name the secrets key in exactly the functions granted it (the grants, kind by kind: secrets.test.ts)', () => {
    const kmsActionsOf = (fn: { role?: IConstruct }) =>
      statementsOf(fn)
        .flatMap(actionList)
        .filter((action) => action.startsWith('kms:'));
    for (const route of routes) {
      expect(kmsActionsOf(stack.api.functions.get(route.id)!).length > 0, route.id).toBe(secretRoutes.includes(route.id));
    }
    expect(kmsActionsOf(stack.api.authorizerFunction)).toEqual([]);
    for (const worker of workers) {
      const fn = stack.workers.functions.get(worker.id)!;
      expect(kmsActionsOf(fn).length > 0, worker.id).toBe(webhookSecretReaders.includes(worker.id));
      const variables = (resourceOf(built, fn).Properties.Environment.Variables ?? {}) as Record<string, unknown>;
      expect(variables[secretsKeyEnv.kmsKeyId] !== undefined, worker.id).toBe(webhookSecretReaders.includes(worker.id));
    }
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/print-shop-dev-webhook-secrets' });
  });

  it('take stable ids from their route ids', () => {
    expect(functionId('customers.create')).toBe('CustomersCreateFn');
    expect(functionId('addresses.get')).toBe('AddressesGetFn');
    expect(stack.api.functions.get('customers.create')!.node.id).toBe('CustomersCreateFn');
  });
});

describe('route table checks', () => {
  const route = (path: string): RouteDefinition => ({
    ...routes[0]!,
    path,
  });

  it('refuses sibling path parameters with different names', () => {
    expect(() => assertConsistentPathParameters(routes)).not.toThrow();
    expect(() => assertConsistentPathParameters([route('/v1/a/{id}'), route('/v1/a/{aId}/b')])).toThrow(/conflicts/);
  });
});

describe('usage plans', () => {
  const usagePlans = Object.entries(template.findResources('AWS::ApiGateway::UsagePlan'));
  const planNamed = (name: string) => usagePlans.find(([, candidate]) => candidate.Properties.UsagePlanName === name);

  it('has one usage plan per tier, throttled to admit the whole figure of its tier twice in a row, on the API stage', () => {
    expect(usagePlans).toHaveLength(USAGE_TIERS.length + 1);
    for (const tier of USAGE_TIERS) {
      const found = planNamed(usagePlanName('dev', tier));
      expect(found, String(tier)).toBeDefined();
      const throttle = found![1].Properties.Throttle as { RateLimit: number; BurstLimit: number };
      expect(throttle).toEqual({ RateLimit: usagePlanThrottle(tier).rateLimit, BurstLimit: usagePlanThrottle(tier).burstLimit });
      // A burst of the whole figure at the end of one minute and again at the start of the next passes.
      expect(throttle.BurstLimit, String(tier)).toBeGreaterThanOrEqual(2 * tier);
      expect(throttle.RateLimit * 60, String(tier)).toBeGreaterThanOrEqual(tier);
      expect(found![1].Properties.ApiStages).toHaveLength(1);
    }
    const unthrottled = planNamed(usagePlanName('dev', 'unthrottled'));
    expect(unthrottled).toBeDefined();
    expect(unthrottled![1].Properties.Throttle).toBeUndefined();
  });

  it('keeps the logical ids of the former per-plan usage plans for the tiers of the plan figures (their keys keep working)', () => {
    const idOf = (tier: UsageTier) => logicalId(stack.api.usagePlans.get(tier)!);
    expect(idOf(plans.starter)).toMatch(/^ApiUsagePlanStarter/);
    expect(idOf(plans.professional)).toMatch(/^ApiUsagePlanProfessional/);
    expect(idOf(plans.enterprise)).toMatch(/^ApiUsagePlanEnterprise/);
  });

  it('has a usage plan for every usage key of every plan, sized for its mode and kind', () => {
    for (const perMinute of [...Object.values(plans), 60, 2000, 100_000]) {
      for (const { slot, tier } of usageKeyTiers(perMinute)) {
        expect(planNamed(usagePlanName('dev', tier)), `${perMinute} ${slot.mode}/${slot.kind}`).toBeDefined();
        if (tier !== 'unthrottled') expect(tier).toBeGreaterThanOrEqual(gatewayFigure(perMinute, slot.kind));
      }
    }
  });

  it('takes API keys from the authorizer and requires them on key routes only', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    // Every method, in the main template (CORS preflights) and the nested ones (routes, mock 405s).
    const all = found.map((method) => method.resource);
    expect(all.filter((method) => method.Properties.AuthorizationType === 'CUSTOM').length).toBeGreaterThan(0);
    for (const method of all) {
      const expected = method.Properties.AuthorizationType === 'CUSTOM';
      expect(Boolean(method.Properties.ApiKeyRequired), `${method.Properties.HttpMethod}`).toBe(expected);
    }
  });
});
