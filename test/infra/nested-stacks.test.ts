import { NestedStack, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routeDocs } from '#shared/route-docs';
import { pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { routeGroup, routeStackId } from '#infra/route-stacks';
import { stageNames } from '#infra/stages';
import { addressOf, allTemplates, buildStack, findAll, inMainTerms, logicalIdOf, type Built } from './helpers';

/**
 * CloudFormation allows 500 resources per template (and 200 parameters and 200 outputs). The budgets
 * leave room to see growth coming before a deploy fails. Counts with the 69 routes of shared/routes.ts:
 * prod 376 in the main stack, of them 184 API Gateway methods and 57 resources (dev a few more: the
 * buckets' auto-delete custom resources), the route groups' nested stacks 4 (Audit, Meta) to 41
 * (Webhooks), 36 (Invoices); the admin panel's 11 and 4 (`cdk synth` adds one `AWS::CDK::Metadata`
 * resource to each template).
 * The main stack grows by about 3.4 resources per route (methods, resources, CORS preflights, the
 * mock 405s, alarms): about 6 more routes reach the budget, about 35 the limit itself — the
 * remaining resource groups (customer accounts, carts, files, shipments) need the API's methods
 * split across stacks too, or fewer resources per route.
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
    const all = sizes(buildStack(stage));
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
  const built = buildStack('dev');
  const { stack, template } = built;

  it('have one nested stack per route tag, named after it', () => {
    const groups = [...new Set(routes.map((route) => routeDocs[route.id]!.tag))];
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
      expect(home, route.id).toBe(stack.api.routeStacks.all.get(routeDocs[route.id]!.tag));
      expect(home.node.id, route.id).toBe(routeStackId(routeDocs[route.id]!.tag));
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
    const extra = (id: string, path: string): RouteDefinition => ({
      id,
      method: 'POST',
      path,
      handler: `functions/${id.replace('.', '/')}.ts`,
      scopes: [],
      auth: 'key',
    });
    // A route without docs falls back to its id's prefix, which is its group's tag in the usual case.
    const grown = buildStack('dev', {
      routes: [extra('shipments.create', '/v1/shipments'), ...routes, extra('orders.cancel', '/v1/orders/{id}/cancel')],
    });
    expect(routeGroup(extra('orders.cancel', '/v1/orders/{id}/cancel'))).toBe('Orders');
    expect(routeGroup(extra('customer-accounts.create', '/v1/customer-accounts'))).toBe('CustomerAccounts');
    expect(Stack.of(grown.stack.api.functions.get('orders.cancel')!).node.id).toBe('OrdersRoutes');
    expect(Stack.of(grown.stack.api.functions.get('shipments.create')!).node.id).toBe('ShipmentsRoutes');
    for (const route of routes) {
      expect(addressOf(grown.stack.api.functions.get(route.id)!), route.id).toBe(addressOf(stack.api.functions.get(route.id)!));
    }
  });
});
