/**
 * The routes live in nested stacks, one per route group: each route's function with its log group,
 * its API Gateway invoke permissions and audit subscription filter, and its methods (one per path,
 * infra/nested-methods.ts). The resources (paths) they are on, with their CORS preflights and
 * mock 405s, are in path stacks (infra/path-stacks.ts); the main stack keeps what all groups share:
 * the REST API, the authorizer, usage plans, the route roles, data, events and workers. Each route
 * would otherwise cost the main stack a function, a log group, a permission and a method per path
 * and a subscription filter, and CloudFormation allows 500 resources per stack.
 *
 * A route's group is its OpenAPI tag (the `tag` of its row in shared/routes.ts): stable, so adding routes never moves a
 * function or a method from one nested stack to another. Renaming a tag does move its group's
 * functions (replaced: new names, new log groups) and methods; API Gateway refuses to create a
 * method that still exists on its resource, and the old stack removes it only after the new one
 * created it, so such a deploy fails and rolls back unless the methods are detached first (README,
 * "Deploy"). CDK wires the parameters the nested stacks need (role ARNs, table and bucket names,
 * the REST API, resource and authorizer ids) by itself.
 */
import { NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '#shared/routes';
import type { StageConfig } from './stages';

/** `Legacy products` → `LegacyProducts`, `.well-known` → `WellKnown`: a construct id from a name. */
export const pascalCase = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** The group of a route: its tag (`Orders`, `Legacy products`…). */
export function routeGroup(route: RouteDefinition): string {
  return route.tag;
}

/** `Legacy products` → `LegacyProductsRoutes`: the construct id of the group's nested stack. */
export function routeStackId(group: string): string {
  return `${pascalCase(group)}Routes`;
}

/** API Gateway's execute-api ARNs name path parameters as `*` (as CDK's `Method.methodArn` does). */
function pathForArn(path: string): string {
  return path.replace(/\{[^}]*\}/g, '*');
}

/** The nested stacks of the route groups, created on first use as children of `scope` (`Api/OrdersRoutes`…). */
export class RouteStacks {
  private readonly stacks = new Map<string, NestedStack>();

  constructor(
    private readonly scope: Construct,
    private readonly stage: StageConfig,
  ) {}

  /** The nested stack that holds the functions and methods of `route`'s group. */
  stackFor(route: RouteDefinition): NestedStack {
    const group = routeGroup(route);
    let stack = this.stacks.get(group);
    if (!stack) {
      stack = new NestedStack(this.scope, routeStackId(group), {
        description: `Print Shop API route functions: ${group} (${this.stage.name})`,
      });
      this.stacks.set(group, stack);
    }
    return stack;
  }

  /** Group → its nested stack. */
  get all(): ReadonlyMap<string, NestedStack> {
    return this.stacks;
  }
}

/**
 * A Lambda proxy integration like `apigw.LambdaIntegration` with `allowTestInvoke: false`, except
 * that the invoke permission of each method is created next to the function (in its nested stack)
 * instead of next to the method. Its source ARN names the stage by name: the stage resource depends
 * on the deployment, which depends on the nested stacks that hold the methods, so a reference to it
 * from a nested stack would be a cycle.
 */
export class NestedLambdaIntegration extends apigw.AwsIntegration {
  constructor(
    private readonly handler: lambda.IFunction,
    private readonly stageName: string,
  ) {
    super({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${handler.functionArn}/invocations` });
  }

  /**
   * What the integration is made of, without tokens, for the deployment's logical id
   * (infra/nested-methods.ts): the function by construct path, which fixes its logical id and stack,
   * and so its ARN (route functions have no physical names).
   */
  get fingerprint(): Record<string, unknown> {
    return { type: 'AWS_PROXY', function: this.handler.node.path, stageName: this.stageName };
  }

  override bind(method: apigw.Method): apigw.IntegrationConfig {
    const config = super.bind(method);
    this.allowInvoke(method.api, method.httpMethod, method.resource.path);
    return config;
  }

  /**
   * Lets API Gateway invoke the function for `httpMethod` on `path` of this stage: what `bind` does
   * for each method, and what a deploy that detaches the methods does without them, so that the
   * deployment the stage keeps serving still may (infra/nested-methods.ts, `keepDeployment`).
   */
  allowInvoke(api: apigw.IRestApi, httpMethod: string, path: string): void {
    // One API: the method and path name the permission (a function serves one method, on one path per alias).
    this.handler.addPermission(`ApiPermission.${httpMethod}.${path.replace(/\//g, '.')}`, {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: api.arnForExecuteApi(httpMethod, pathForArn(path), this.stageName),
    });
  }
}
