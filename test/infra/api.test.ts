import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { env } from '#shared/config';
import { pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { workers } from '#shared/workers';
import { assertConsistentPathParameters, functionId } from '#infra/api';
import { buildStack, methods } from './helpers';
import { plans, usagePlanName, usagePlanThrottle, type Plan } from '#shared/accounts/plans';

const { stack, template } = buildStack('dev');
const found = methods(template);
const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);
const routeFunctionId = (route: RouteDefinition): string => logicalId(stack.api.functions.get(route.id)!);
const authorizerId = logicalId(stack.api.node.findChild('Authorizer'));

/** The API's functions: without CDK's custom-resource providers and the audit shipper (audit.test.ts). */
const auditShipperId = logicalId(stack.audit.shipper);
const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(
  ([id]) => !id.startsWith('CustomS3AutoDeleteObjects') && !id.startsWith('CustomCDKBucketDeployment') && id !== auditShipperId,
);

describe('REST API', () => {
  it('gives every route a method and its own function', () => {
    for (const route of routes) {
      for (const path of pathsOf(route)) {
        const matching = found.filter((method) => method.path === path && method.httpMethod === route.method);
        expect(matching, `${route.method} ${path}`).toHaveLength(1);
        expect(matching[0]!.functionId, route.id).toBe(routeFunctionId(route));
      }
    }
    expect(new Set(routes.map(routeFunctionId)).size).toBe(routes.length);
    expect(functions).toHaveLength(routes.length + 1 + workers.length); // + the authorizer and the workers (workers.test.ts)
    const aliases = routes.flatMap((route) => pathsOf(route).map(() => route));
    expect(found.filter((method) => method.httpMethod !== 'OPTIONS' && method.httpMethod !== 'ANY')).toHaveLength(aliases.length);
  });

  it('answers unrouted methods on routed paths with a mock 405 naming the allowed methods', () => {
    const paths = [...new Set(routes.flatMap(pathsOf))];
    for (const path of paths) {
      const any = found.filter((method) => method.path === path && method.httpMethod === 'ANY');
      expect(any, path).toHaveLength(1);
      expect(any[0]!.functionId, path).toBeUndefined();
    }
    const mocks = Object.values(template.findResources('AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod === 'ANY');
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
    const workerIds = new Set([...stack.workers.functions.values()].map(logicalId));
    for (const [id, fn] of functions.filter(([functionId]) => !workerIds.has(functionId))) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: routes.find((route) => logicalId(stack.api.functions.get(route.id)!) === id)?.timeoutSeconds ?? 10,
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
        ].sort(),
      );
      expect(variables).toMatchObject({ STAGE: 'dev', NODE_OPTIONS: '--enable-source-maps' });
    }
  });

  it('may only read the table on GET routes and write it otherwise', () => {
    const actionsOf = (construct: { role?: { node: { defaultChild?: unknown } } }): string[] => {
      const role = logicalId(construct.role!);
      const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
      return Object.values(policies).flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => statement.Action),
      );
    };
    for (const route of routes) {
      const actions = actionsOf(stack.api.functions.get(route.id)!);
      expect(actions, route.id).toContain('dynamodb:Query');
      if (route.method === 'GET') expect(actions, route.id).not.toContain('dynamodb:PutItem');
      else expect(actions, route.id).toContain('dynamodb:PutItem');
      expect(
        actions.some((action) => action.startsWith('s3:')),
        route.id,
      ).toBe(false);
    }
    expect(actionsOf(stack.api.authorizerFunction)).not.toContain('dynamodb:PutItem');
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
  it('has one usage plan per plan, throttled from its per-minute figure, on the API stage', () => {
    const usagePlans = Object.values(template.findResources('AWS::ApiGateway::UsagePlan'));
    expect(usagePlans).toHaveLength(3);
    for (const [plan, perMinute] of Object.entries(plans)) {
      const found = usagePlans.find((candidate) => candidate.Properties.UsagePlanName === usagePlanName('dev', plan as Plan));
      expect(found, plan).toBeDefined();
      expect(found!.Properties.Throttle).toEqual({
        RateLimit: usagePlanThrottle(perMinute).rateLimit,
        BurstLimit: usagePlanThrottle(perMinute).burstLimit,
      });
      expect(found!.Properties.ApiStages).toHaveLength(1);
    }
    expect(usagePlanThrottle(100)).toEqual({ rateLimit: 4, burstLimit: 40 });
    expect(usagePlanThrottle(1000)).toEqual({ rateLimit: 34, burstLimit: 340 });
  });

  it('takes API keys from the authorizer and requires them on key routes only', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    const all = Object.values(template.findResources('AWS::ApiGateway::Method'));
    for (const method of all) {
      const expected = method.Properties.AuthorizationType === 'CUSTOM';
      expect(Boolean(method.Properties.ApiKeyRequired), `${method.Properties.HttpMethod}`).toBe(expected);
    }
  });
});
