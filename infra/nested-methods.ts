/**
 * API Gateway methods that live in nested stacks (the route methods in their route group's stack,
 * the mock 405s in a stack of their own), on the REST API and resources of the main stack.
 *
 * CloudFormation allows 500 resources per stack and a method is one; the resources (paths) and
 * their CORS preflights stay in the main stack because routes of several groups share them
 * (`/v1/customers/{id}` has customers, addresses, invoices and quotes below it). A nested stack sees
 * the API and each resource it adds methods to as imports; CDK passes their ids as parameters.
 *
 * CDK registers a method with the API's deployment only if it is added to the RestApi itself, so
 * this does what `apigw.Method` otherwise does for it:
 * - the deployment depends on every nested stack that holds methods, so that API Gateway
 *   snapshots them only once they exist (or are updated);
 * - the deployment's logical id includes a fingerprint of each method, plain data without tokens
 *   (route id, path, HTTP method, authorization, the integration's function by construct path, the
 *   405 bodies and Allow headers): a changed method means a new deployment, without which the stage
 *   would keep serving the old snapshot. Tokens are refused: they resolve to different expressions
 *   in the nested and the main stack, and the id must be one string everywhere.
 */
import { Stack, Token, type NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';

/** The main stack's REST API and resources, imported into one nested stack. */
class ImportedApi {
  private readonly api: apigw.IRestApi;
  private readonly resources = new Map<string, apigw.IResource>();

  constructor(
    scope: Construct,
    private readonly restApi: apigw.RestApi,
  ) {
    this.api = apigw.RestApi.fromRestApiAttributes(scope, 'RestApi', {
      restApiId: restApi.restApiId,
      rootResourceId: restApi.restApiRootResourceId,
    });
    this.resources.set('/', this.api.root);
  }

  /**
   * The main stack's resource at `path` (created there if new, with its CORS preflight), imported
   * under the same construct path as in the main stack (`RestApi/Default/v1/orders/{id}`), so a
   * method's logical id reads like it did there (`RestApiv1ordersidGET…`). Only the ids of the
   * resources that hold methods become parameters; the intermediate imports are just scopes.
   */
  resourceForPath(path: string): apigw.IResource {
    const known = this.resources.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const parent = this.resourceForPath(path.slice(0, cut) || '/');
    const resource = apigw.Resource.fromResourceAttributes(parent, path.slice(cut + 1), {
      resourceId: this.restApi.root.resourceForPath(path).resourceId,
      restApi: this.api,
      path,
    });
    this.resources.set(path, resource);
    return resource;
  }
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
  private readonly imports = new Map<NestedStack, ImportedApi>();
  private readonly methods: apigw.Method[] = [];

  constructor(private readonly restApi: apigw.RestApi) {}

  /** Adds a method to the main stack's resource at `path`, in `stack`, and makes the deployment follow it. */
  add(stack: NestedStack, props: NestedMethodProps): apigw.Method {
    const fingerprint = { stack: stack.node.path, path: props.path, httpMethod: props.httpMethod, ...props.fingerprint };
    const serialized = JSON.stringify(fingerprint);
    if (Token.isUnresolved(serialized)) {
      throw new Error(`The fingerprint of ${props.httpMethod} ${props.path} holds a token; name constructs by path: ${serialized}`);
    }
    let imported = this.imports.get(stack);
    if (!imported) {
      imported = new ImportedApi(stack, this.restApi);
      this.imports.set(stack, imported);
    }
    const method = imported.resourceForPath(props.path).addMethod(props.httpMethod, props.integration, props.options);
    if (Stack.of(method) !== stack) throw new Error(`${method.node.path} is not in ${stack.node.path}`);
    const deployment = this.restApi.latestDeployment;
    if (deployment) {
      deployment.node.addDependency(stack.nestedStackResource!);
      deployment.addToLogicalId({ nestedMethod: fingerprint });
    }
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
