/**
 * The API's resources (paths), each with its CORS preflight and its mock 405 (infra/method-not-allowed.ts), live in
 * nested stacks of their own, one per kind of resource: the path's first segment after its version prefix
 * (`/v1/orders/{id}` and `/v1/orders` are in `OrdersPaths`, `/v1/webhooks/{id}/test` and `/api/v1/webhooks/{id}/test`
 * in `WebhooksPaths`, `/.well-known/jwks.json` in `WellKnownPaths`). Only the root and the prefixes themselves (`/v1`,
 * `/api`, `/api/v1`) stay in the main stack, with their preflights. Each path costs its stack three resources; in the
 * main stack it cost two (resource and preflight; the 405s were in a nested stack of their own), and the main stack is
 * the one closest to the project's budget of 400 resources (CloudFormation allows 500).
 *
 * Why not in the route groups' stacks: a path has one owner, and the owner must never change, since a resource that
 * moves between stacks is deleted only after it was created anew, which API Gateway refuses ("Another resource with
 * the same parent already has this name"). A path's group is a function of the routes that use it (`/v1/customers/{id}`
 * is the parent of paths of four groups); its kind is a function of the path alone, so no added, removed or renamed
 * route ever moves a resource. And every ancestor of a path is either a prefix (main stack) or of the same kind (same
 * stack), so a path stack depends on the main stack only, never on another path stack.
 *
 * A route's methods stay in its group's stack (infra/route-stacks.ts), on the resource imported from its path stack;
 * CDK passes the ids as parameters (an output of the path stack, a parameter of the route stack). The deployment
 * depends on every path stack and hashes each resource's stack and path, and the preflight options, into its logical
 * id (infra/nested-methods.ts, `followNested`): CDK does that by itself only for resources of the main stack.
 */
import { NestedStack, Stack, type Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { followNested } from './nested-methods';
import { pascalCase } from './route-stacks';
import type { StageConfig } from './stages';

/** Leading segments that version the API rather than name a kind of resource: `api`, `v1`, `v2`… */
const VERSION_PREFIX = /^(api|v\d+)$/;

/**
 * The kind of resource a path belongs to: its first segment after the version prefix (`/v1/orders/{id}` → `orders`,
 * `/api/v1/webhooks` → `webhooks`, `/legacy-products` → `legacy-products`); none for the root and the prefixes.
 */
export function pathKind(path: string): string | undefined {
  return path
    .split('/')
    .filter(Boolean)
    .find((segment) => !VERSION_PREFIX.test(segment));
}

/** The version prefix of a path, the main stack's part of it: `/api/v1/webhooks/{id}/test` → `/api/v1`, `/legacy-products` → `/`. */
export function versionPrefixOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const kindAt = segments.findIndex((segment) => !VERSION_PREFIX.test(segment));
  return `/${(kindAt < 0 ? segments : segments.slice(0, kindAt)).join('/')}`;
}

/** `legacy-products` → `LegacyProductsPaths`, `.well-known` → `WellKnownPaths`: the construct id of the kind's nested stack. */
export function pathStackId(kind: string): string {
  return `${pascalCase(kind)}Paths`;
}

/** The CORS preflight of every resource, as `apigw.CorsOptions` takes it. */
export interface PreflightOptions {
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  maxAge: Duration;
}

/** What one stack sees of the API: the REST API and the resources it uses, its own or imported. */
interface StackView {
  api: apigw.IRestApi;
  resources: Map<string, apigw.IResource>;
}

/** The API's resources: created once each, in the stack that owns them, and imported into the stacks that add methods to them. */
export class PathStacks {
  private readonly stacks = new Map<string, NestedStack>();
  private readonly views = new Map<Stack, StackView>();
  private readonly preflightMethods: apigw.Method[] = [];

  /**
   * @param scope where the path stacks are created (`Api/OrdersPaths`…), beside the route stacks.
   * @param preflight the CORS preflight of every resource; none when the stage allows no browser origin. The main
   *   stack's resources get theirs from the REST API's `defaultCorsPreflightOptions`, which must be the same.
   */
  constructor(
    private readonly scope: Construct,
    private readonly restApi: apigw.RestApi,
    private readonly stage: StageConfig,
    private readonly preflight?: PreflightOptions,
  ) {
    this.views.set(Stack.of(restApi), { api: restApi, resources: new Map([['/', restApi.root]]) });
  }

  /** The stack that owns the resource at `path`: its kind's path stack, or the main stack for the root and the prefixes. */
  ownerOf(path: string): Stack {
    const kind = pathKind(path);
    if (kind === undefined) return Stack.of(this.restApi);
    const id = pathStackId(kind);
    let stack = this.stacks.get(id);
    if (!stack) {
      stack = new NestedStack(this.scope, id, { description: `Print Shop API paths: /…/${kind} (${this.stage.name})` });
      this.stacks.set(id, stack);
    }
    return stack;
  }

  /**
   * The resource at `path` as `stack` sees it: the resource itself in the stack that owns it (created there on first
   * use, with its ancestors and CORS preflight), an import anywhere else. Imports mirror the construct path of the
   * resource in the main stack (`RestApi/Default/v1/orders/{id}`), so that methods keep the logical ids they had there;
   * only the ids of imports that something uses become parameters, the other imports are just scopes.
   */
  resourceIn(stack: Stack, path: string): apigw.IResource {
    const view = this.viewOf(stack);
    const known = view.resources.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const parentPath = path.slice(0, cut) || '/';
    const pathPart = path.slice(cut + 1);
    const owner = this.ownerOf(path);
    let resource: apigw.IResource;
    if (stack !== owner) {
      resource = apigw.Resource.fromResourceAttributes(this.resourceIn(stack, parentPath), pathPart, {
        resourceId: this.resourceIn(owner, path).resourceId,
        restApi: view.api,
        path,
      });
    } else if (owner === Stack.of(this.restApi)) {
      // CDK adds the preflight (the REST API's defaultCorsPreflightOptions) and makes the deployment follow both.
      resource = this.restApi.root.resourceForPath(path);
    } else {
      const parent = this.resourceIn(owner, parentPath);
      const created = new apigw.Resource(parent, pathPart, { parent, pathPart });
      this.follow(owner as NestedStack, created);
      resource = created;
    }
    view.resources.set(path, resource);
    return resource;
  }

  /** Construct id → its path stack (`OrdersPaths` → `Api/OrdersPaths`, of the paths of kind `orders`), in the order they were created. */
  get all(): ReadonlyMap<string, NestedStack> {
    return this.stacks;
  }

  /** The CORS preflights of the nested resources (the main stack's are in `restApi.methods`). */
  get preflights(): readonly apigw.Method[] {
    return this.preflightMethods;
  }

  private viewOf(stack: Stack): StackView {
    let view = this.views.get(stack);
    if (!view) {
      const api = apigw.RestApi.fromRestApiAttributes(stack, 'RestApi', {
        restApiId: this.restApi.restApiId,
        rootResourceId: this.restApi.restApiRootResourceId,
      });
      view = { api, resources: new Map([['/', api.root]]) };
      this.views.set(stack, view);
    }
    return view;
  }

  /**
   * Adds the preflight of a nested resource and makes the deployment follow both: the resource by its stack and
   * path (its parent and path part follow from them), the preflight by its options.
   */
  private follow(stack: NestedStack, resource: apigw.Resource): void {
    if (this.preflight) this.preflightMethods.push(resource.addCorsPreflight(this.preflight));
    followNested(this.restApi, stack, { resource: resource.path, preflight: this.preflightFingerprint() });
  }

  /**
   * The preflight options as plain data. The panel's origin is a token (the distribution's domain, known at deploy
   * time): named by the expression the main stack has for it, as in CDK's own hash of the main stack's preflights.
   */
  private preflightFingerprint(): Record<string, unknown> | null {
    if (!this.preflight) return null;
    const { allowOrigins, allowMethods, allowHeaders, maxAge } = this.preflight;
    return {
      allowOrigins: allowOrigins.map((origin) => JSON.stringify(Stack.of(this.restApi).resolve(origin))),
      allowMethods,
      allowHeaders,
      maxAgeSeconds: maxAge.toSeconds(),
    };
  }
}
