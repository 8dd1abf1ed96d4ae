/**
 * API Gateway methods that live in nested stacks (the route methods in their route group's stack,
 * the mock 405s in their path's stack), on the REST API of the main stack and the resources of the
 * path stacks (infra/path-stacks.ts), which a route group's stack sees as imports; CDK passes their
 * ids as parameters.
 *
 * CloudFormation allows 500 resources per stack and a method is one. CDK registers a method or a
 * resource with the API's deployment only if it is added to the RestApi itself, so this does what
 * `apigw.Method` and `apigw.Resource` otherwise do for it (`followNested`):
 * - the deployment depends on every nested stack that holds methods or resources, so that API
 *   Gateway snapshots them only once they exist (or are updated);
 * - the deployment's logical id includes a fingerprint of each method and resource, plain data
 *   without tokens (route id, path, HTTP method, authorization, the integration's function by
 *   construct path, the 405 bodies and Allow headers, the preflight options): a changed method or
 *   resource means a new deployment, without which the stage would keep serving the old snapshot.
 *   Tokens are refused: they resolve to different expressions in the nested and the main stack, and
 *   the id must be one string everywhere.
 */
import { Stack, Token, type NestedStack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { PathStacks } from './path-stacks';

/**
 * Makes the deployment of `restApi` wait for `stack` and change with `fingerprint`, the plain data (no tokens) that
 * something of the API in that stack is made of; the stack's path is part of it.
 */
export function followNested(restApi: apigw.RestApi, stack: NestedStack, fingerprint: Record<string, unknown>): void {
  const nested = { stack: stack.node.path, ...fingerprint };
  const serialized = JSON.stringify(nested);
  if (Token.isUnresolved(serialized))
    throw new Error(`A fingerprint in ${stack.node.path} holds a token; name constructs by path: ${serialized}`);
  const deployment = restApi.latestDeployment;
  if (!deployment) return;
  deployment.node.addDependency(stack.nestedStackResource!);
  deployment.addToLogicalId({ nested });
}

export interface NestedMethodProps {
  path: string;
  httpMethod: string;
  integration: apigw.Integration;
  options: apigw.MethodOptions;
  /**
   * Everything else the method is made of, as plain data (no tokens): what the deployment's logical
   * id is hashed from, with the stack, path and HTTP method. Name the integration's target by
   * construct path and the authorizer by its construct path, not by their (token) ids.
   */
  fingerprint: Record<string, unknown>;
}

/** The methods of one REST API that live in nested stacks, and their deployment. */
export class NestedMethods {
  private readonly methods: apigw.Method[] = [];

  constructor(
    private readonly restApi: apigw.RestApi,
    private readonly paths: PathStacks,
  ) {}

  /** Adds a method to the resource at `path`, in `stack`, and makes the deployment follow it. */
  add(stack: NestedStack, props: NestedMethodProps): apigw.Method {
    const fingerprint = { path: props.path, httpMethod: props.httpMethod, ...props.fingerprint };
    if (Token.isUnresolved(JSON.stringify(fingerprint))) {
      throw new Error(
        `The fingerprint of ${props.httpMethod} ${props.path} holds a token; name constructs by path: ${JSON.stringify(fingerprint)}`,
      );
    }
    const method = this.paths.resourceIn(stack, props.path).addMethod(props.httpMethod, props.integration, props.options);
    if (Stack.of(method) !== stack) throw new Error(`${method.node.path} is not in ${stack.node.path}`);
    followNested(this.restApi, stack, { nestedMethod: fingerprint });
    this.methods.push(method);
    return method;
  }

  /** Every method added here, in every nested stack. */
  get all(): readonly apigw.Method[] {
    return this.methods;
  }
}

/**
 * The deploy before methods change stacks. API Gateway refuses to create a method that its resource
 * still has, and CloudFormation deletes a method that left a stack only after it created the new
 * ones, so a deploy that moves methods (the first of this layout over a stage whose methods are in
 * the main stack, a renamed route group) fails and rolls back. Detached first: a deploy without the
 * methods removes them from the API, and keeps the stage on the deployment it serves (`logicalId`,
 * its logical id in the stack as deployed), an immutable snapshot that still holds them, so the API
 * answers as before; the next, normal deploy creates the methods and a new deployment.
 *
 * The id must be the deployment's as deployed: any other would make a new deployment, without the
 * methods, and the stage would answer 403 "Missing Authentication Token" until the next deploy. This
 * checks that it is this API's deployment id (its construct's own id and a 32-digit hash); `cdk diff`
 * must then show no change to the deployment or the stage (README, "Deploy").
 */
export function keepDeployment(restApi: apigw.RestApi, logicalId: string): void {
  const resource = restApi.latestDeployment!.node.defaultChild as apigw.CfnDeployment;
  const own = Stack.of(resource).getLogicalId(resource);
  if (!new RegExp(`^${own}[0-9a-f]{32}$`).test(logicalId)) {
    throw new Error(`detachMethods=${logicalId} is not a logical id of ${restApi.node.path}'s deployment (${own} and 32 hex digits)`);
  }
  resource.overrideLogicalId(logicalId);
}
