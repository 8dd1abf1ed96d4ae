import { App, NestedStack, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { handlerOf, pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { NestedMethods } from '#infra/nested-methods';
import { NestedLambdaIntegration, routeGroup, routeStackId } from '#infra/route-stacks';
import { stageNames } from '#infra/stages';
import { addressOf, allTemplates, buildStack, findAll, inMainTerms, logicalIdOf, methods, sharedStack, type Built } from './helpers';

/**
 * CloudFormation allows 500 resources per template (and 200 parameters and 200 outputs). The budgets
 * leave room to see growth coming before a deploy fails. Counts with the 69 routes (75 paths with
 * the aliases, 51 distinct) of shared/routes.ts: prod 251 in the main stack, of them 58 API Gateway
 * methods (the CORS preflights, one per resource and the root's) and 57 resources (dev 256: the
 * buckets' auto-delete custom resources); before the methods moved out it was 376 with 184 methods.
 * The route groups' nested stacks hold 5 (Audit, Meta) to 52 (Webhooks), 50 (Production) resources
 * with their methods, the mock 405s' stack 51 with 52 parameters (one per path: the most of any
 * template, 200 allowed); the admin panel's 11 and 4 (`cdk synth` adds one `AWS::CDK::Metadata`
 * resource to each template).
 * The main stack now grows by a resource and its CORS preflight per new path, about 1.7 resources
 * per route so far (a route on an existing path adds none): the 35 or so planned routes bring it to
 * about 310. The budget stays at 400, not lower: that leaves room for about 85 more routes before
 * it fails, and still about 100 resources below the limit to react in.
 */
const MAIN_BUDGET = 400;
const NESTED_BUDGET = 200;
const CLOUDFORMATION_LIMIT = { parameters: 200, outputs: 200 };

const count = (section: unknown): number => Object.keys((section ?? {}) as object).length;
const sizes = (built: Built) =>
  allTemplates(built).map(({ stack, template }) => {
    const json = template.toJSON();
    return {
      name: stack.node.path,
      nested: NestedStack.isNestedStack(stack),
      resources: count(json.Resources),
      parameters: count(json.Parameters),
      outputs: count(json.Outputs),
    };
  });

describe('stack sizes', () => {
  it.each(stageNames)(`keeps %s within ${MAIN_BUDGET} resources in the main stack and ${NESTED_BUDGET} in each nested stack`, (stage) => {
    const all = sizes(sharedStack(stage));
    const [main] = all;
    expect(main!.nested).toBe(false);
    expect(main!.resources, `${main!.name}: ${main!.resources} resources`).toBeLessThanOrEqual(MAIN_BUDGET);
    for (const nested of all.slice(1)) {
      expect(nested.resources, `${nested.name}: ${nested.resources} resources`).toBeLessThanOrEqual(NESTED_BUDGET);
    }
    for (const template of all) {
      expect(template.parameters, `${template.name}: ${template.parameters} parameters`).toBeLessThanOrEqual(
        CLOUDFORMATION_LIMIT.parameters,
      );
      expect(template.outputs, `${template.name}: ${template.outputs} outputs`).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT.outputs);
    }
  });
});

describe('route group nested stacks', () => {
  const built = sharedStack('dev');
  const { stack, template } = built;

  it('have one nested stack per route tag, named after it', () => {
    const groups = [...new Set(routes.map((route) => route.tag))];
    expect([...stack.api.routeStacks.all.keys()].sort()).toEqual(groups.sort());
    for (const [group, nested] of stack.api.routeStacks.all) {
      expect(nested.node.id).toBe(routeStackId(group));
      expect(nested.node.path).toBe(`${stack.node.path}/Api/${routeStackId(group)}`);
    }
    expect(routeStackId('Legacy products')).toBe('LegacyProductsRoutes');
    expect(routeStackId('Orders')).toBe('OrdersRoutes');
  });

  it("put every route's function and log group in its group's nested stack, and none in the main stack", () => {
    for (const route of routes) {
      const fn = stack.api.functions.get(route.id)!;
      const home = Stack.of(fn);
      expect(home, route.id).toBe(stack.api.routeStacks.all.get(route.tag));
      expect(home.node.id, route.id).toBe(routeStackId(route.tag));
      expect(Stack.of(fn.logGroup), route.id).toBe(home);
    }
    const inMain = new Set(Object.keys(template.findResources('AWS::Lambda::Function')));
    for (const fn of stack.api.functions.values()) expect(inMain.has(logicalIdOf(fn)), fn.node.id).toBe(false);
    // What stays in the main stack: the authorizer's function, the shared route roles.
    expect(Stack.of(stack.api.authorizerFunction)).toBe(stack);
    for (const fn of stack.api.functions.values()) expect(Stack.of(fn.role!), fn.node.id).toBe(stack);
  });

  it('let API Gateway invoke each function once per path, from its nested stack, for that method and path on this stage', () => {
    // The authorizer's own permission stays with it in the main stack; the routes' are in the nested stacks.
    const authorizerArn = JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(stack.api.authorizerFunction), 'Arn'] });
    const apiPermissions = findAll(built, 'AWS::Lambda::Permission', { Properties: { Principal: 'apigateway.amazonaws.com' } }).filter(
      ({ stack: home, resource }) => home !== stack || JSON.stringify(resource.Properties.FunctionName) !== authorizerArn,
    );
    expect(apiPermissions.filter(({ stack: home }) => home === stack).map(({ address }) => address)).toEqual([]);
    expect(apiPermissions).toHaveLength(routes.flatMap(pathsOf).length);
    for (const route of routes) {
      const fn = stack.api.functions.get(route.id)!;
      const own = apiPermissions.filter(
        ({ stack: home, resource }) =>
          home === Stack.of(fn) &&
          JSON.stringify(resource.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] }),
      );
      // `arn:…:execute-api:<region>:<account>:<api id>/dev/<METHOD>/<path, parameters as *>`, as CDK's Method.methodArn.
      const expected = pathsOf(route).map((path) =>
        stack.resolve(stack.api.restApi.arnForExecuteApi(route.method, path.replace(/\{[^}]*\}/g, '*'), 'dev')),
      );
      const sourceArns = own.map(({ stack: home, resource }) => inMainTerms(built, home, resource.Properties.SourceArn));
      expect(sourceArns, route.id).toHaveLength(expected.length);
      expect(sourceArns, route.id).toEqual(expect.arrayContaining(expected));
    }
  });

  it('keep the functions where they are when routes of other or new groups are added', () => {
    const grown = buildStack('dev', {
      routes: [
        extraRoute('labels.create', 'POST', '/v1/labels', 'Labels'),
        ...routes,
        extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders'),
      ],
    });
    expect(routeGroup(extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders'))).toBe('Orders');
    expect(routeStackId('Customer accounts')).toBe('CustomerAccountsRoutes');
    expect(Stack.of(grown.stack.api.functions.get('orders.cancel')!).node.id).toBe('OrdersRoutes');
    expect(Stack.of(grown.stack.api.functions.get('labels.create')!).node.id).toBe('LabelsRoutes');
    for (const route of routes) {
      expect(addressOf(grown.stack.api.functions.get(route.id)!), route.id).toBe(addressOf(stack.api.functions.get(route.id)!));
    }
  });
});

/** A route like those of the table, for grown or changed route tables. */
const extraRoute = (
  id: string,
  method: RouteDefinition['method'],
  path: string,
  tag: string,
  auth: RouteDefinition['auth'] = 'key',
): RouteDefinition => ({
  id,
  method,
  path,
  handler: handlerOf(id),
  tag,
  summary: `A test route (${id})`,
  scopes: [],
  auth,
});

/** `<METHOD> <path>` → where the method is. */
const methodAddresses = (built: Built): Map<string, string> =>
  new Map(methods(built).map((method) => [`${method.httpMethod} ${method.path}`, method.address]));

describe('methods in nested stacks', () => {
  const built = sharedStack('dev');
  const { stack } = built;
  const stackPath = (address: string): string => address.slice(0, address.indexOf('#'));

  it("put each route's methods next to its function, the mock 405s in a stack of their own, only the CORS preflights in the main stack", () => {
    const found = methods(built);
    for (const route of routes) {
      const fn = stack.api.functions.get(route.id)!;
      for (const path of pathsOf(route)) {
        const method = found.find((candidate) => candidate.httpMethod === route.method && candidate.path === path)!;
        expect(stackPath(method.address), `${route.method} ${path}`).toBe(Stack.of(fn).node.path);
      }
    }
    for (const method of found.filter((candidate) => candidate.httpMethod === 'ANY')) {
      expect(stackPath(method.address), method.path).toBe(stack.api.methodNotAllowedStack!.node.path);
    }
    const inMain = found.filter((method) => stackPath(method.address) === stack.node.path);
    expect(inMain.length).toBeGreaterThan(0);
    expect(inMain.filter((method) => method.httpMethod !== 'OPTIONS')).toEqual([]);
    // The resources themselves all stay in the main stack: groups share them.
    for (const { template } of built.nested) expect(template.findResources('AWS::ApiGateway::Resource')).toEqual({});
    expect(stack.api.methodNotAllowedStack!.node.path).toBe(`${stack.node.path}/Api/MethodNotAllowed`);
  });

  it('keep the methods where they are when routes of other or new groups are added', () => {
    // A new group (Labels), a route of an existing group on a new path, and one on a path that has methods of
    // another group already (`/v1/customers/{id}/orders` is customers.orders'): only the Allow header changes there.
    const grown = buildStack('dev', {
      routes: [
        extraRoute('labels.create', 'POST', '/v1/labels', 'Labels'),
        ...routes,
        extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders'),
        extraRoute('orders.createForCustomer', 'POST', '/v1/customers/{id}/orders', 'Orders'),
      ],
    });
    const before = methodAddresses(built);
    const after = methodAddresses(grown);
    for (const [method, address] of before) expect(after.get(method), method).toBe(address);
    expect(stackPath(after.get('POST /v1/orders/{id}/cancel')!)).toBe(`${grown.stack.node.path}/Api/OrdersRoutes`);
    expect(stackPath(after.get('POST /v1/customers/{id}/orders')!)).toBe(`${grown.stack.node.path}/Api/OrdersRoutes`);
    expect(stackPath(after.get('POST /v1/labels')!)).toBe(`${grown.stack.node.path}/Api/LabelsRoutes`);
    expect(stackPath(after.get('ANY /v1/labels')!)).toBe(`${grown.stack.node.path}/Api/MethodNotAllowed`);
  });

  it('let the functions be invoked from the nested methods: same function, same stack, API id and resource of the main stack', () => {
    for (const method of methods(built).filter((candidate) => !['OPTIONS', 'ANY'].includes(candidate.httpMethod))) {
      expect(method.functionAddress, method.path).toBeDefined();
      expect(stackPath(method.functionAddress!), method.path).toBe(stackPath(method.address));
      const home = built.nested.find((nested) => method.address.startsWith(`${nested.stack.node.path}#`))!;
      expect(inMainTerms(built, home.stack, method.resource.Properties.RestApiId)).toEqual({ Ref: logicalIdOf(stack.api.restApi) });
    }
  });
});

describe('the API deployment', () => {
  const deploymentOf = (built: Built): { id: string; dependsOn: string[] } => {
    const [entry, ...more] = Object.entries(built.template.findResources('AWS::ApiGateway::Deployment'));
    expect(more).toEqual([]);
    return { id: entry![0], dependsOn: (entry![1].DependsOn ?? []) as string[] };
  };
  /** What CDK hashes into the deployment's logical id by itself: the main stack's API, authorizer, resources and methods. */
  const mainApi = (built: Built) =>
    ['AWS::ApiGateway::RestApi', 'AWS::ApiGateway::Authorizer', 'AWS::ApiGateway::Resource', 'AWS::ApiGateway::Method'].map((type) =>
      built.template.findResources(type),
    );
  const changed = (routeId: string, change: Partial<RouteDefinition>): RouteDefinition[] =>
    routes.map((route) => (route.id === routeId ? { ...route, ...change } : route));

  const built = sharedStack('dev');
  const base = deploymentOf(built);

  it('depends on every nested stack that holds methods, and the stage serves it', () => {
    const holders = built.nested.filter(({ template }) => Object.keys(template.findResources('AWS::ApiGateway::Method')).length > 0);
    expect(holders.map(({ stack: home }) => home.node.id).sort()).toEqual(
      [...[...built.stack.api.routeStacks.all.values()].map((home) => home.node.id), 'MethodNotAllowed'].sort(),
    );
    for (const { resourceId, stack: home } of holders) expect(base.dependsOn, home.node.path).toContain(resourceId);
    built.template.hasResourceProperties('AWS::ApiGateway::Stage', { DeploymentId: { Ref: base.id } });
  });

  it('keeps its logical id when nothing changes', () => {
    expect(deploymentOf(buildStack('dev')).id).toBe(base.id);
  });

  // Each of these changes only methods of nested stacks: the main stack's API, resources and methods stay as they
  // are, so CDK's own hash does not see them, and only the nested methods' fingerprints can make the id change.
  it.each<[string, RouteDefinition[]]>([
    ["one route's HTTP method", changed('customers.update', { method: 'PATCH' })],
    ["one route's authorization", changed('orders.get', { auth: 'none' })],
    ["one route's function (a renamed route)", changed('orders.get', { id: 'orders.show', handler: handlerOf('orders.show') })],
    ['a route added on an existing path', [...routes, extraRoute('orders.delete', 'DELETE', '/v1/orders/{id}', 'Orders')]],
    ['a route removed from a path that keeps others', routes.filter((route) => route.id !== 'customers.delete')],
  ])('changes its logical id for %s', (_change, changedRoutes) => {
    const other = buildStack('dev', { routes: changedRoutes });
    expect(mainApi(other)).toEqual(mainApi(built));
    expect(deploymentOf(other).id).not.toBe(base.id);
    other.template.hasResourceProperties('AWS::ApiGateway::Stage', { DeploymentId: { Ref: deploymentOf(other).id } });
  });

  it('changes its logical id for a route on a new path (new resource, new preflight, new methods)', () => {
    const grown = buildStack('dev', { routes: [...routes, extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders')] });
    expect(deploymentOf(grown).id).not.toBe(base.id);
    expect(deploymentOf(grown).dependsOn).toEqual(expect.arrayContaining(base.dependsOn.filter((id) => id.includes('NestedStack'))));
  });
});

describe('detaching the methods (the deploy before methods change stacks)', () => {
  const built = sharedStack('dev');
  const normalDeployment = Object.keys(built.template.findResources('AWS::ApiGateway::Deployment'))[0]!;
  // The deployment as an older version of the stack deployed it: the same construct, another hash.
  const kept = `${normalDeployment.slice(0, -32)}${'0123456789abcdef'.repeat(2)}`;
  const detached = buildStack('dev', { detachMethods: kept });
  /** A nested template's resources but its methods; code assets named alike (each build bundles into a scratch root of its own). */
  const withoutMethods = (template: Template) =>
    JSON.parse(
      JSON.stringify(
        Object.entries(template.toJSON().Resources as Record<string, { Type: string }>).filter(
          ([, r]) => r.Type !== 'AWS::ApiGateway::Method',
        ),
      ).replace(/"S3Key":"[0-9a-f]{64}\.zip"/g, '"S3Key":"<asset>.zip"'),
    );

  it('keeps the stage on the deployment it serves', () => {
    expect(Object.keys(detached.template.findResources('AWS::ApiGateway::Deployment'))).toEqual([kept]);
    detached.template.hasResourceProperties('AWS::ApiGateway::Stage', { DeploymentId: { Ref: kept } });
  });

  it('leaves out every route and 405 method, and nothing else the API has', () => {
    expect(methods(detached).filter((method) => method.httpMethod !== 'OPTIONS')).toEqual([]);
    expect(detached.stack.api.methodNotAllowedStack).toBeUndefined();
    expect(detached.template.findResources('AWS::ApiGateway::Method')).toEqual(built.template.findResources('AWS::ApiGateway::Method'));
    expect(detached.template.findResources('AWS::ApiGateway::Resource')).toEqual(built.template.findResources('AWS::ApiGateway::Resource'));
  });

  it('keeps every function and invoke permission as it is, so the kept deployment still invokes them', () => {
    for (const [group, home] of built.stack.api.routeStacks.all) {
      const other = detached.nested.find((nested) => nested.stack === detached.stack.api.routeStacks.all.get(group))!;
      const own = built.nested.find((nested) => nested.stack === home)!;
      expect(withoutMethods(other.template), group).toEqual(withoutMethods(own.template));
      expect(Object.keys(own.template.findResources('AWS::Lambda::Permission')).length, group).toBeGreaterThan(0);
    }
  });

  it('refuses anything but a logical id of this deployment', () => {
    expect(() => buildStack('dev', { detachMethods: normalDeployment.slice(0, -32) })).toThrow(/not a logical id/);
    expect(() => buildStack('dev', { detachMethods: `ApiRestApi${'0'.repeat(32)}` })).toThrow(/not a logical id/);
  });
});

describe('nested method fingerprints', () => {
  it('cover everything the nested methods are made of (a new property must join the fingerprint in infra/)', () => {
    // Route methods: infra/api.ts fingerprints the authorization and NestedLambdaIntegration.fingerprint the integration;
    // mock 405s: infra/method-not-allowed.ts fingerprints its integration and method options whole. Stack, path and
    // HTTP method are in every fingerprint (infra/nested-methods.ts); the ids are parameters, fixed by the path.
    const covered = {
      route: ['ApiKeyRequired', 'AuthorizationType', 'AuthorizerId', 'HttpMethod', 'Integration', 'ResourceId', 'RestApiId'],
      routeIntegration: ['IntegrationHttpMethod', 'Type', 'Uri'],
      mock: ['AuthorizationType', 'HttpMethod', 'Integration', 'MethodResponses', 'ResourceId', 'RestApiId'],
      mockIntegration: ['IntegrationResponses', 'PassthroughBehavior', 'RequestTemplates', 'Type'],
    };
    const built = sharedStack('dev');
    const nested = methods(built).filter((method) => method.httpMethod !== 'OPTIONS');
    expect(nested.length).toBeGreaterThan(routes.length);
    for (const { httpMethod, path, resource } of nested) {
      const mock = httpMethod === 'ANY';
      const properties = resource.Properties as Record<string, unknown>;
      for (const key of Object.keys(properties))
        expect(mock ? covered.mock : covered.route, `${httpMethod} ${path}: ${key}`).toContain(key);
      for (const key of Object.keys(properties.Integration as object)) {
        expect(mock ? covered.mockIntegration : covered.routeIntegration, `${httpMethod} ${path}: Integration.${key}`).toContain(key);
      }
    }
  });

  it('refuse tokens, which would resolve differently in the nested and the main stack', () => {
    const app = new App();
    const main = new Stack(app, 'Main');
    const restApi = new apigw.RestApi(main, 'Api');
    restApi.root.addMethod('GET');
    const nested = new NestedStack(main, 'Nested');
    const fn = new lambda.Function(nested, 'Fn', {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({});'),
    });
    const add = (fingerprint: Record<string, unknown>) =>
      new NestedMethods(restApi).add(nested, {
        path: '/things',
        httpMethod: 'GET',
        integration: new NestedLambdaIntegration(fn, 'dev'),
        options: {},
        fingerprint,
      });
    expect(() => add({ function: fn.functionArn })).toThrow(/holds a token/);
    expect(() => add({ function: fn.node.path })).not.toThrow();
  });
});
