import { App, NestedStack, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { handlerOf, pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { NestedMethods } from '#infra/nested-methods';
import { NestedLambdaIntegration, routeGroup, routeStackId } from '#infra/route-stacks';
import { PathStacks, pathKind, pathStackId, versionPrefixOf } from '#infra/path-stacks';
import { stageNames } from '#infra/stages';
import {
  addressOf,
  allTemplates,
  buildStack,
  findAll,
  inMainTerms,
  logicalIdOf,
  methods,
  referencesIn,
  resourcePaths,
  sharedStack,
  type Built,
  testStageConfig,
} from './helpers';

/**
 * CloudFormation allows 500 resources per template (and 200 parameters and 200 outputs); the project's budget is 400
 * for every stack, to see growth coming before a deploy fails, and 200 for each nested stack of the real route table.
 * Counts with the 112 routes (119 paths with the aliases, 88 distinct; 98 API Gateway resources with the intermediate
 * ones) of shared/routes.ts, as this file prints them: the main stack holds 217 resources in dev and 212 in prod
 * (dev's buckets have auto-delete custom resources), of them 38 nested stacks (17 route groups, 19 kinds of path, the
 * admin panel's 2), 3 API Gateway resources (the version prefixes `/v1`, `/api`, `/api/v1`) and their 3 preflights and
 * the root's; before the paths moved to path stacks (infra/path-stacks.ts) it was 389 and 384, with 98 resources and
 * 99 preflights. The route groups' stacks hold 5 (Audit, Meta) to 65 (Carts) resources, the path stacks 3 (a kind with
 * one path) to 32 (Auth), the admin panel's 11 and 4 (`cdk synth` adds one `AWS::CDK::Metadata` resource to each).
 *
 * What still grows the main stack: a nested stack per new route group (tag) and per new kind of path (`/v1/<kind>`),
 * and two alarms per ten route functions (infra/alarms.ts, groupedFunctionAlarms); a new path of an existing kind adds
 * nothing there. A path costs its path stack three resources (resource, preflight, 405), so one kind holds about 130
 * paths; a route costs its group's stack about five (function, log group, permission, method, subscription filter),
 * so one group holds about 80 routes. The growth tests add 150 routes, each on a path of its own, over the existing
 * groups: over 10 new kinds the main stack holds 257 (dev) and 252 (prod), the largest nested stack (Carts) 105; with
 * each path a kind of its own, the worst case for the main stack, 397 and 392.
 */
const BUDGET = 400;
const NESTED_BUDGET = 200;
const CLOUDFORMATION_LIMIT = { parameters: 200, outputs: 200 };
const GROWTH = 150;

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

/** Holds every template of `built` to the budgets and CloudFormation's limits; the sizes, for a report. */
const expectWithinBudgets = (built: Built, nestedBudget: number) => {
  const all = sizes(built);
  const [main, ...nested] = all;
  expect(main!.nested).toBe(false);
  expect(main!.resources, `${main!.name}: ${main!.resources} resources`).toBeLessThanOrEqual(BUDGET);
  for (const template of nested) {
    expect(template.resources, `${template.name}: ${template.resources} resources`).toBeLessThanOrEqual(nestedBudget);
  }
  for (const template of all) {
    expect(template.parameters, `${template.name}: ${template.parameters} parameters`).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT.parameters);
    expect(template.outputs, `${template.name}: ${template.outputs} outputs`).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT.outputs);
  }
  const largest = nested.reduce((most, template) => (template.resources > most.resources ? template : most));
  return { main: main!, largest, stacks: all.length };
};

/** A line for the test output: the figures README.md quotes. */
const report = (label: string, { main, largest, stacks }: ReturnType<typeof expectWithinBudgets>): void =>
  console.info(
    `${label}: main stack ${main.resources} resources; ${stacks - 1} nested stacks, the largest ${largest.name} (${largest.resources})`,
  );

/**
 * `GROWTH` routes, each on a path of its own, over every existing route group in turn (a group's stack grows by about
 * five resources a route) and `kinds` kinds of resource (`/v1/growth-<kind>/…`): one kind per route is the worst case
 * for the main stack (a path stack each), a few kinds the likely one.
 */
const grownRoutes = (kinds: number): RouteDefinition[] => {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return Array.from({ length: GROWTH }, (_, i) => {
    const tag = tags[i % tags.length]!;
    const kind = `growth-${i % kinds}`;
    return extraRoute(`growth${i}.get`, 'GET', `/v1/${kind}/{id}/part-${i}`, tag);
  });
};

describe('stack sizes', () => {
  it.each(stageNames)(`keeps %s within ${BUDGET} resources in the main stack and ${NESTED_BUDGET} in each nested stack`, (stage) => {
    report(`${stage}, the route table`, expectWithinBudgets(sharedStack(stage), NESTED_BUDGET));
  });

  it.each(
    (['dev', 'prod'] as const).flatMap((stage) => [
      [stage, 'spread over 10 new kinds of resource', 10] as const,
      [stage, 'each of a new kind of resource (a path stack each)', GROWTH] as const,
    ]),
  )(`keeps every stack of %s within ${BUDGET} resources with ${GROWTH} more routes, %s`, (stage, _shape, kinds) => {
    const grown = buildStack(stage, { routes: [...routes, ...grownRoutes(kinds)] });
    const figures = expectWithinBudgets(grown, BUDGET);
    report(`${stage}, ${GROWTH} more routes over ${kinds} new kinds`, figures);
    expect(grown.stack.api.functions.size).toBe(routes.length + GROWTH);
    // Every added path has its resource, preflight and 405 (checked for the real table in api.test.ts).
    const added = new Set(methods(grown).map((method) => `${method.httpMethod} ${method.path}`));
    for (const route of grownRoutes(kinds)) {
      for (const httpMethod of ['GET', 'OPTIONS', 'ANY'])
        expect(added.has(`${httpMethod} ${route.path}`), `${httpMethod} ${route.path}`).toBe(true);
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

  it("put each route's methods next to its function, each path's preflight and 405 in its path stack, the root's and the prefixes' preflights in the main stack", () => {
    const found = methods(built);
    for (const route of routes) {
      const fn = stack.api.functions.get(route.id)!;
      for (const path of pathsOf(route)) {
        const method = found.find((candidate) => candidate.httpMethod === route.method && candidate.path === path)!;
        expect(stackPath(method.address), `${route.method} ${path}`).toBe(Stack.of(fn).node.path);
      }
    }
    for (const method of found.filter((candidate) => ['ANY', 'OPTIONS'].includes(candidate.httpMethod))) {
      const kind = pathKind(method.path);
      const home = kind === undefined ? stack.node.path : `${stack.node.path}/Api/${pathStackId(kind)}`;
      expect(stackPath(method.address), `${method.httpMethod} ${method.path}`).toBe(home);
    }
    const inMain = found.filter((method) => stackPath(method.address) === stack.node.path);
    expect(inMain.map((method) => `${method.httpMethod} ${method.path}`).sort()).toEqual(
      ['OPTIONS /', 'OPTIONS /api', 'OPTIONS /api/v1', 'OPTIONS /v1'].sort(),
    );
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
    expect(stackPath(after.get('ANY /v1/labels')!)).toBe(`${grown.stack.node.path}/Api/LabelsPaths`);
    expect(stackPath(after.get('ANY /v1/customers/{id}/orders')!)).toBe(`${grown.stack.node.path}/Api/CustomersPaths`);
  });

  it('let the functions be invoked from the nested methods: same function, same stack, the API id of the main stack', () => {
    for (const method of methods(built).filter((candidate) => !['OPTIONS', 'ANY'].includes(candidate.httpMethod))) {
      expect(method.functionAddress, method.path).toBeDefined();
      expect(stackPath(method.functionAddress!), method.path).toBe(stackPath(method.address));
      const home = built.nested.find((nested) => method.address.startsWith(`${nested.stack.node.path}#`))!;
      expect(inMainTerms(built, home.stack, method.resource.Properties.RestApiId)).toEqual({ Ref: logicalIdOf(stack.api.restApi) });
    }
  });
});

describe('path stacks', () => {
  const built = sharedStack('dev');
  const { stack } = built;
  const stackPath = (address: string): string => address.slice(0, address.indexOf('#'));
  /** Path → where its resource is, across templates. */
  const resourceAddresses = (of: Built): Map<string, string> => new Map([...resourcePaths(of)].map(([address, path]) => [path, address]));

  it('name a path by its kind of resource, the first segment after the version prefix', () => {
    expect(pathKind('/v1/customers/{id}/addresses')).toBe('customers');
    expect(pathKind('/api/v1/webhooks/{id}/test')).toBe('webhooks');
    expect(pathKind('/legacy-products/{id}')).toBe('legacy-products');
    expect(pathKind('/.well-known/jwks.json')).toBe('.well-known');
    expect(pathKind('/v1')).toBeUndefined();
    expect(pathKind('/')).toBeUndefined();
    expect(pathStackId('legacy-products')).toBe('LegacyProductsPaths');
    expect(pathStackId('.well-known')).toBe('WellKnownPaths');
    expect(versionPrefixOf('/api/v1/webhooks/{id}/test')).toBe('/api/v1');
    expect(versionPrefixOf('/v1/orders')).toBe('/v1');
    expect(versionPrefixOf('/legacy-products')).toBe('/');
  });

  it("create every resource once, in its kind's path stack (the version prefixes in the main stack), none in a route stack", () => {
    const found = findAll(built, 'AWS::ApiGateway::Resource');
    const paths = resourcePaths(built);
    expect(new Set(paths.values()).size).toBe(found.length);
    for (const path of routes.flatMap(pathsOf)) expect([...paths.values()], path).toContain(path);
    for (const [address, path] of paths) {
      const kind = pathKind(path);
      expect(stackPath(address), path).toBe(kind === undefined ? stack.node.path : `${stack.node.path}/Api/${pathStackId(kind)}`);
    }
    expect(
      [...paths]
        .filter(([address]) => stackPath(address) === stack.node.path)
        .map(([, path]) => path)
        .sort(),
    ).toEqual(['/api', '/api/v1', '/v1'].sort());
    const kinds = new Set(routes.flatMap(pathsOf).map((path) => pathKind(path)!));
    expect([...stack.api.pathStacks.all.keys()].sort()).toEqual([...kinds].map(pathStackId).sort());
  });

  it('import a path that routes of several groups use from its path stack into each group, created once', () => {
    // `/v1/customers/{id}/orders` with a method of the Customers group and one of the Orders group.
    const shared = buildStack('dev', {
      routes: [...routes, extraRoute('orders.createForCustomer', 'POST', '/v1/customers/{id}/orders', 'Orders')],
    });
    const paths = resourcePaths(shared);
    const owners = [...paths].filter(([, path]) => path === '/v1/customers/{id}/orders').map(([address]) => address);
    expect(owners).toHaveLength(1);
    expect(stackPath(owners[0]!)).toBe(`${shared.stack.node.path}/Api/CustomersPaths`);
    const onIt = methods(shared).filter((method) => method.path === '/v1/customers/{id}/orders');
    expect(onIt.map((method) => `${method.httpMethod} ${stackPath(method.address).split('/').pop()}`).sort()).toEqual(
      ['ANY CustomersPaths', 'GET CustomersRoutes', 'OPTIONS CustomersPaths', 'POST OrdersRoutes'].sort(),
    );
  });

  it('keep every resource where it is when routes are added, removed or change groups', () => {
    const before = resourceAddresses(built);
    const after = resourceAddresses(
      buildStack('dev', {
        routes: [
          extraRoute('labels.create', 'POST', '/v1/labels', 'Labels'),
          ...routes
            .filter((route) => route.id !== 'customers.delete' && route.id !== 'orders.list')
            .map((route) => (route.tag === 'Addresses' ? { ...route, tag: 'Customers' } : route)),
          extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders'),
        ],
      }),
    );
    for (const [path, address] of before) expect(after.get(path), path).toBe(address);
    expect(stackPath(after.get('/v1/labels')!)).toBe(`${stack.node.path}/Api/LabelsPaths`);
  });

  it('depend on the main stack only, never on a route stack or another path stack', () => {
    const apiStacks = new Set(
      [...stack.api.routeStacks.all.values(), ...stack.api.pathStacks.all.values()].map((nested) =>
        stack.getLogicalId(nested.nestedStackResource!),
      ),
    );
    for (const home of stack.api.pathStacks.all.values()) {
      const resource = built.template.toJSON().Resources[stack.getLogicalId(home.nestedStackResource!)] as {
        Properties: { Parameters?: object };
        DependsOn?: string[];
      };
      const used = referencesIn(resource.Properties.Parameters ?? {}).map(
        (reference) => (reference.Ref ?? (reference['Fn::GetAtt'] as string[])[0]) as string,
      );
      for (const id of [...used, ...(resource.DependsOn ?? [])]) expect(apiStacks.has(id), `${home.node.id} uses ${id}`).toBe(false);
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

  it('depends on every nested stack that holds methods or resources, and the stage serves it', () => {
    const holders = built.nested.filter(
      ({ template }) =>
        Object.keys(template.findResources('AWS::ApiGateway::Method')).length > 0 ||
        Object.keys(template.findResources('AWS::ApiGateway::Resource')).length > 0,
    );
    expect(holders.map(({ stack: home }) => home.node.id).sort()).toEqual(
      [...built.stack.api.routeStacks.all.values(), ...built.stack.api.pathStacks.all.values()].map((home) => home.node.id).sort(),
    );
    for (const { resourceId, stack: home } of holders) expect(base.dependsOn, home.node.path).toContain(resourceId);
    built.template.hasResourceProperties('AWS::ApiGateway::Stage', { DeploymentId: { Ref: base.id } });
  });

  it('keeps its logical id when nothing changes', () => {
    expect(deploymentOf(buildStack('dev')).id).toBe(base.id);
  });

  // Each of these changes only methods and resources of nested stacks: the main stack's API, resources and methods
  // stay as they are, so CDK's own hash does not see them, and only the nested fingerprints can make the id change.
  it.each<[string, RouteDefinition[]]>([
    ["one route's HTTP method", changed('customers.update', { method: 'PATCH' })],
    ["one route's authorization", changed('orders.get', { auth: 'none' })],
    ["one route's function (a renamed route)", changed('orders.get', { id: 'orders.show', handler: handlerOf('orders.show') })],
    ['a route added on an existing path', [...routes, extraRoute('orders.delete', 'DELETE', '/v1/orders/{id}', 'Orders')]],
    ['a route removed from a path that keeps others', routes.filter((route) => route.id !== 'customers.delete')],
    [
      'a route on a new path of an existing kind (new resource, preflight, 405)',
      [...routes, extraRoute('orders.cancel', 'POST', '/v1/orders/{id}/cancel', 'Orders')],
    ],
    ['a route on a new kind of path (a new path stack)', [...routes, extraRoute('labels.create', 'POST', '/v1/labels', 'Labels')]],
    ['a path removed (its resource, preflight and 405 go)', routes.filter((route) => route.id !== 'files.ofOrder')],
  ])('changes its logical id for %s', (_change, changedRoutes) => {
    const other = buildStack('dev', { routes: changedRoutes });
    expect(mainApi(other)).toEqual(mainApi(built));
    expect(deploymentOf(other).id).not.toBe(base.id);
    other.template.hasResourceProperties('AWS::ApiGateway::Stage', { DeploymentId: { Ref: deploymentOf(other).id } });
  });

  it('waits for the path stacks of a new kind of path too', () => {
    const grown = buildStack('dev', { routes: [...routes, extraRoute('labels.create', 'POST', '/v1/labels', 'Labels')] });
    const labels = [grown.stack.api.pathStacks.all.get('LabelsPaths')!, grown.stack.api.routeStacks.all.get('Labels')!];
    for (const home of labels) expect(deploymentOf(grown).dependsOn).toContain(grown.stack.getLogicalId(home.nestedStackResource!));
    expect(deploymentOf(grown).dependsOn).toEqual(expect.arrayContaining(base.dependsOn.filter((id) => id.includes('NestedStack'))));
  });
});

describe('detaching the methods (the deploy before methods or resources change stacks)', () => {
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

  it('leaves out every route and 405 method and the path stacks, and nothing else the API has', () => {
    // What is left: the root and the version prefixes, in the main stack as before, with their preflights.
    expect(methods(detached).filter((method) => method.httpMethod !== 'OPTIONS')).toEqual([]);
    expect(detached.stack.api.pathStacks.all.size).toBe(0);
    expect(findAll(detached, 'AWS::ApiGateway::Resource').every(({ stack: home }) => home === detached.stack)).toBe(true);
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

describe('nested method and resource fingerprints', () => {
  it('cover everything the nested methods are made of (a new property must join the fingerprint in infra/)', () => {
    // Route methods: infra/api.ts fingerprints the authorization and NestedLambdaIntegration.fingerprint the integration;
    // mock 405s: infra/method-not-allowed.ts fingerprints its integration and method options whole. Stack, path and
    // HTTP method are in every fingerprint (infra/nested-methods.ts); the ids are parameters, fixed by the path.
    // Resources and their preflights (infra/path-stacks.ts): the stack and path, and the preflight options.
    const covered = {
      route: ['ApiKeyRequired', 'AuthorizationType', 'AuthorizerId', 'HttpMethod', 'Integration', 'ResourceId', 'RestApiId'],
      routeIntegration: ['IntegrationHttpMethod', 'Type', 'Uri'],
      mock: ['AuthorizationType', 'HttpMethod', 'Integration', 'MethodResponses', 'ResourceId', 'RestApiId'],
      mockIntegration: ['IntegrationResponses', 'PassthroughBehavior', 'RequestTemplates', 'Type'],
      // ApiKeyRequired: always false (CDK's addCorsPreflight).
      preflight: ['ApiKeyRequired', 'AuthorizationType', 'HttpMethod', 'Integration', 'MethodResponses', 'ResourceId', 'RestApiId'],
      preflightIntegration: ['IntegrationResponses', 'RequestTemplates', 'Type'],
      resource: ['ParentId', 'PathPart', 'RestApiId'],
    };
    const kindOf = (httpMethod: string) => (httpMethod === 'ANY' ? 'mock' : httpMethod === 'OPTIONS' ? 'preflight' : 'route');
    for (const stage of ['dev', 'prod'] as const) {
      const built = sharedStack(stage);
      const nested = methods(built).filter((method) => !method.address.startsWith(`${built.stack.node.path}#`));
      expect(nested.length).toBeGreaterThan(routes.length);
      for (const { httpMethod, path, resource } of nested) {
        const kind = kindOf(httpMethod);
        const properties = resource.Properties as Record<string, unknown>;
        for (const key of Object.keys(properties)) expect(covered[kind], `${httpMethod} ${path}: ${key}`).toContain(key);
        for (const key of Object.keys(properties.Integration as object)) {
          expect(covered[`${kind}Integration`], `${httpMethod} ${path}: Integration.${key}`).toContain(key);
        }
      }
      const resources = findAll(built, 'AWS::ApiGateway::Resource').filter(({ stack: home }) => home !== built.stack);
      expect(resources.length).toBeGreaterThan(0);
      for (const { address, resource } of resources) expect(covered.resource, address).toEqual(Object.keys(resource.Properties).sort());
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
      new NestedMethods(restApi, new PathStacks(main, restApi, testStageConfig('dev'))).add(nested, {
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
