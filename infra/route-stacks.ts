/**
 * The route functions live in nested stacks, one per route group, so the main stack keeps only the
 * API Gateway side (resources, methods, the authorizer, usage plans) and the shared parts (roles,
 * data, events, workers): each route otherwise costs it a function, a log group, an invoke
 * permission per path and an audit subscription filter, and CloudFormation allows 500 resources
 * per stack.
 *
 * A route's group is its OpenAPI tag (shared/route-docs.ts): stable, so adding routes never moves a
 * function (which would replace it) from one nested stack to another; renaming a tag does move its
 * group's functions. The methods in the main stack
 * name the functions through the nested stacks' outputs; CDK wires those, and the parameters the
 * functions need (role ARNs, table and bucket names, the REST API id), by itself.
 */
import { NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { routeDocs } from '#shared/route-docs';
import type { RouteDefinition } from '#shared/routes';
import type { StageConfig } from './stages';

const pascalCase = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * The group of a route: its tag in shared/route-docs.ts (`Orders`, `Legacy products`…). A route
 * without docs (a unit test keeps both tables equal, so only test route lists have them) falls back
 * to its id's prefix, `files.upload` → `Files`, which is what its tag will most likely be.
 */
export function routeGroup(route: RouteDefinition): string {
  return routeDocs[route.id]?.tag ?? pascalCase(route.id.split('.')[0]!);
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

  /** The nested stack that holds the functions of `route`'s group. */
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
 * instead of next to the method (in the main stack). Its source ARN names the stage by name: the
 * stage resource itself depends on the deployment, which depends on the methods, which depend on
 * the nested stack, so a reference to it from there would be a cycle.
 */
export class NestedLambdaIntegration extends apigw.AwsIntegration {
  constructor(
    private readonly handler: lambda.IFunction,
    private readonly stageName: string,
  ) {
    super({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${handler.functionArn}/invocations` });
  }

  override bind(method: apigw.Method): apigw.IntegrationConfig {
    const config = super.bind(method);
    // One API: the method and path name the permission (a function serves one method, on one path per alias).
    this.handler.addPermission(`ApiPermission.${method.httpMethod}.${method.resource.path.replace(/\//g, '.')}`, {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: method.api.arnForExecuteApi(method.httpMethod, pathForArn(method.resource.path), this.stageName),
    });
    return config;
  }
}
