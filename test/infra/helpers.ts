/**
 * Builds the real stack for infra tests without bundling. NodejsFunction insists that every entry
 * file exists even when bundling is skipped, so the stack gets a throwaway project root holding
 * empty handlers at the route table's paths: the tests then depend on the route table, not on
 * which handlers happen to be written yet.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, NestedStack, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes as allRoutes, type RouteDefinition } from '#shared/routes';
import type { WorkerDefinition } from '#shared/workers';
import { functionEntries } from '#infra/entries';
import { PrintShopStack, projectRoot } from '#infra/stack';
import { stageConfig, type StageName } from '#infra/stages';
import type { IConstruct } from 'constructs';

/**
 * The sender every test stage gets: synth refuses a stage without one, and refuses placeholders under
 * reserved domains (`.example`, infra/stages.ts), so the tests name a real-looking one of their own.
 */
export const TEST_MAIL_FROM = 'invoices@mail.test-shop.de';

/** A stage's config as the tests build it: `stageConfig` with the tests' sender unless `overrides` name one (or `undefined`). */
export function testStageConfig(stage: string, overrides: Parameters<typeof stageConfig>[1] = {}) {
  return stageConfig(stage, { mailFrom: TEST_MAIL_FROM, ...overrides });
}

const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

export interface Built {
  stack: PrintShopStack;
  /** The main stack's template. */
  template: Template;
  /**
   * Every nested stack (the admin panel's two, one per route group: infra/route-stacks.ts, one per kind of path:
   * infra/path-stacks.ts) with its template.
   */
  nested: NestedTemplate[];
}

export interface NestedTemplate {
  stack: NestedStack;
  template: Template;
  /** The logical id of its `AWS::CloudFormation::Stack` resource in the main template. */
  resourceId: string;
}

export interface BuildOptions {
  routes?: readonly RouteDefinition[];
  /** The worker table (shared/workers.ts) by default. */
  workers?: readonly WorkerDefinition[];
  /** CDK's built-in CloudFormation schema validation (as `cdk synth` runs it); ~4 s, so opt-in. */
  cfnValidation?: boolean;
  /** The deploy that detaches the methods (`-c detachMethods=<deployment logical id>`, infra/nested-methods.ts). */
  detachMethods?: string;
  /** Context values of the stage (`-c legacySecrets=false`…), as infra/app.ts passes them to stageConfig; `mailFrom`: TEST_MAIL_FROM. */
  stageOverrides?: Parameters<typeof stageConfig>[1];
}

/** Synthesizes one stage with the feature flags of cdk.json and the cdk-nag checks of infra/app.ts. */
export function buildStack(stage: StageName = 'dev', options: BuildOptions = {}): Built {
  const routes = options.routes ?? allRoutes;
  const root = mkdtempSync(join(tmpdir(), 'print-shop-infra-'));
  try {
    writeFileSync(join(root, 'package-lock.json'), '{}');
    for (const handler of functionEntries(routes, options.workers).map((fn) => fn.entry)) {
      mkdirSync(dirname(join(root, handler)), { recursive: true });
      writeFileSync(join(root, handler), 'export const handler = async () => ({});\n');
    }
    const app = new App({
      context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] },
      builtinCloudFormationValidation: options.cfnValidation ?? false,
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
    const stack = new PrintShopStack(app, `PrintShop-${stage}`, {
      stage: testStageConfig(stage, options.stageOverrides),
      routes,
      ...(options.workers ? { workers: options.workers } : {}),
      projectRoot: root,
      ...(options.detachMethods ? { detachMethods: options.detachMethods } : {}),
    });
    // Synthesis runs the validation plugins and throws on any unacknowledged finding.
    const template = Template.fromStack(stack);
    const nested = stack.node
      .findAll()
      .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct))
      .map((child) => ({ stack: child, template: Template.fromStack(child), resourceId: stack.getLogicalId(child.nestedStackResource!) }));
    return { stack, template, nested };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const shared = new Map<StageName, Built>();

/**
 * The stage's stack as it deploys (every route, no overrides), synthesized once per worker and
 * handed to every test that only reads it: the infra project shares its module graph across its
 * files (`isolate: false` in vitest.config.ts), so this cache outlives a file. Synthesized with
 * CloudFormation's schema validation too, so the one synthesis also proves the stage valid
 * (test/infra/stages.test.ts). A test that builds a changed stack, or compares two syntheses,
 * calls `buildStack` for a stack of its own; nothing may add constructs to a shared one.
 */
export function sharedStack(stage: StageName = 'dev'): Built {
  let built = shared.get(stage);
  if (!built) shared.set(stage, (built = buildStack(stage, { cfnValidation: true })));
  return built;
}

type Json = Record<string, unknown>;

/** A template's JSON as CDK types it (`Template.toJSON()`: untyped), for reading properties of any resource type. */
export type TemplateJson = ReturnType<Template['toJSON']>[string];

/** An IAM policy statement as a template holds it. */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Record<string, unknown>;
}

/** A resource as a template holds it. */
export interface TemplateResource {
  Type: string;
  Properties: TemplateJson;
  DependsOn?: string[];
  [key: string]: unknown;
}

export interface FoundResource {
  /** `<stack path>#<logical id>`: unique across the main and the nested templates (addressOf). */
  address: string;
  stack: Stack;
  logicalId: string;
  resource: TemplateResource;
}

const elementOf = (construct: IConstruct): CfnElement => (construct.node.defaultChild ?? construct) as CfnElement;

/** The logical id of a construct's resource in its own template, main or nested (`Stack.of(…).getLogicalId`). */
export function logicalIdOf(construct: IConstruct): string {
  const element = elementOf(construct);
  return Stack.of(element).getLogicalId(element);
}

/** Where a construct's resource is, across templates: `PrintShop-dev/Api/OrdersRoutes#OrdersListFn1F5E3DD4`. */
export function addressOf(construct: IConstruct): string {
  return `${Stack.of(elementOf(construct)).node.path}#${logicalIdOf(construct)}`;
}

/** The main template, then every nested one. */
export function allTemplates(built: Built): { stack: Stack; template: Template }[] {
  return [{ stack: built.stack, template: built.template }, ...built.nested];
}

/** The template that holds a construct's resource. */
export function templateOf(built: Built, construct: IConstruct): Template {
  const stack = Stack.of(elementOf(construct));
  const found = allTemplates(built).find((candidate) => candidate.stack === stack);
  if (!found) throw new Error(`No template for ${construct.node.path}`);
  return found.template;
}

/** A construct's resource in its template. */
export function resourceOf(built: Built, construct: IConstruct): TemplateResource {
  const resource = templateOf(built, construct).toJSON().Resources[logicalIdOf(construct)] as TemplateResource | undefined;
  if (!resource) throw new Error(`No resource for ${construct.node.path}`);
  return resource;
}

/**
 * Resources of a type (and matching `props`, as `Template.findResources`) in the main and every nested template.
 * `stack` is not enumerable, so that a failed assertion prints the found resources, not the construct tree.
 */
export function findAll(built: Built, type: string, props?: unknown): FoundResource[] {
  return allTemplates(built).flatMap(({ stack, template }) =>
    Object.entries(template.findResources(type, props) as Record<string, TemplateResource>).map(([logicalId, resource]) =>
      Object.defineProperty({ address: `${stack.node.path}#${logicalId}`, logicalId, resource }, 'stack', {
        value: stack,
        enumerable: false,
      }),
    ),
  ) as FoundResource[];
}

/**
 * What a reference points to: `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attribute] }` of a resource of its template
 * (`home`, the main stack unless given), or a nested stack's output (`{ 'Fn::GetAtt': [nestedStack, 'Outputs.<name>'] }`),
 * which CDK creates when the main stack uses something of a nested stack; that output is followed to the resource
 * it names. In a nested template, a `Ref` to a parameter is followed to what the main stack passes for it (inMainTerms).
 * `attribute` is `Ref` for a `Ref`.
 */
export function resolveReference(
  built: Built,
  value: unknown,
  home: Stack = built.stack,
): { address: string; attribute: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const reference = value as Json;
  if (home !== built.stack) {
    const parameters = (built.nested.find((candidate) => candidate.stack === home)?.template.toJSON().Parameters ?? {}) as Json;
    if (typeof reference.Ref === 'string' && reference.Ref in parameters)
      return resolveReference(built, inMainTerms(built, home, reference));
    if (typeof reference.Ref === 'string') return { address: `${home.node.path}#${reference.Ref}`, attribute: 'Ref' };
    const [id, attribute] = (reference['Fn::GetAtt'] as [string, string] | undefined) ?? [];
    return id && attribute ? { address: `${home.node.path}#${id}`, attribute } : undefined;
  }
  if (typeof reference.Ref === 'string') return { address: `${built.stack.node.path}#${reference.Ref}`, attribute: 'Ref' };
  const getAtt = reference['Fn::GetAtt'] as [string, string] | undefined;
  if (!getAtt) return undefined;
  const [id, attribute] = getAtt;
  const nested = built.nested.find((candidate) => candidate.resourceId === id);
  if (!nested || !attribute.startsWith('Outputs.')) return { address: `${built.stack.node.path}#${id}`, attribute };
  const output = (nested.template.toJSON().Outputs as Record<string, { Value: Json }>)[attribute.slice('Outputs.'.length)];
  if (!output) throw new Error(`${id} has no output ${attribute}`);
  const inner = output.Value;
  if (typeof inner.Ref === 'string') return { address: `${nested.stack.node.path}#${inner.Ref}`, attribute: 'Ref' };
  const [innerId, innerAttribute] = inner['Fn::GetAtt'] as [string, string];
  return { address: `${nested.stack.node.path}#${innerId}`, attribute: innerAttribute };
}

/**
 * A value of a template in the main stack's terms: in a nested template, each `{ Ref: <parameter> }` is
 * replaced by what the main stack passes for it (how CDK hands a nested stack the main stack's table
 * name, role ARNs or REST API id). Values of the main template come back as they are.
 */
export function inMainTerms(built: Built, home: Stack, value: unknown): unknown {
  const nested = built.nested.find((candidate) => candidate.stack === home);
  if (!nested) return value;
  const parameters = (built.template.toJSON().Resources[nested.resourceId].Properties.Parameters ?? {}) as Json;
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace);
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Json;
    if (typeof object.Ref === 'string' && object.Ref in parameters) return parameters[object.Ref];
    return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, replace(child)]));
  };
  return replace(value);
}

/** Every `Ref` and `Fn::GetAtt` inside a value, depth first. */
export function referencesIn(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (typeof value !== 'object' || value === null) return [];
  const object = value as Json;
  if ('Ref' in object || 'Fn::GetAtt' in object) return [object];
  return Object.values(object).flatMap(referencesIn);
}

/**
 * Every API Gateway resource, main and nested (the path stacks: infra/path-stacks.ts), as addressOf names it, → its
 * full path (`/v1/customers/{id}`), through the ParentId chain across templates (resolveReference); the root is `/`.
 */
export function resourcePaths(built: Built): Map<string, string> {
  const resources = new Map(
    findAll(built, 'AWS::ApiGateway::Resource').map(({ address, stack, resource }) => [address, { stack, resource }] as const),
  );
  const paths = new Map<string, string>();
  const pathOf = (address: string): string => {
    const known = paths.get(address);
    if (known !== undefined) return known;
    const { stack: home, resource } = resources.get(address)!;
    const { ParentId, PathPart } = resource.Properties as { ParentId: Json; PathPart: string };
    const parent = resolveReference(built, ParentId, home);
    if (!parent) throw new Error(`${address}: no parent in ${JSON.stringify(ParentId)}`);
    const path = `${parent.attribute === 'RootResourceId' ? '' : pathOf(parent.address)}/${PathPart}`;
    paths.set(address, path);
    return path;
  };
  [...resources.keys()].forEach(pathOf);
  return paths;
}

/** The path of the resource a method or resource property names (`ResourceId`, `ParentId`), from the template of `home`. */
export function pathOfResource(built: Built, home: Stack, resourceId: unknown, paths = resourcePaths(built)): string {
  const target = resolveReference(built, resourceId, home);
  if (!target) throw new Error(`Not a resource reference: ${JSON.stringify(resourceId)}`);
  if (target.attribute === 'RootResourceId') return '/';
  const path = paths.get(target.address);
  if (path === undefined) throw new Error(`${target.address} is not an API Gateway resource`);
  return path;
}

export interface MethodInfo {
  httpMethod: string;
  path: string;
  authorizationType: string;
  /** The main stack's authorizer (its logical id), also for a method of a nested stack, which gets its id as a parameter. */
  authorizerId?: string;
  /**
   * The Lambda function the integration invokes, as addressOf names it: the integration URI holds
   * the function's ARN (a method and its function are in their route group's nested stack).
   */
  functionAddress?: string;
  /** Where the method itself is (`<stack path>#<logical id>`). */
  address: string;
  /** The method as its template holds it; `ResourceId`, `RestApiId` and `AuthorizerId` of a nested one are parameters. */
  resource: TemplateResource;
}

/**
 * The API's methods in the main template (the root's and the version prefixes' CORS preflights) and the nested ones
 * (routes; the other preflights and the mock 405s, in the path stacks), with the resource's path, the authorizer and
 * the function they invoke in the main stack's terms (inMainTerms).
 */
export function methods(built: Built): MethodInfo[] {
  const paths = resourcePaths(built);
  return findAll(built, 'AWS::ApiGateway::Method').map(({ stack: home, address, resource }) => {
    const p = resource.Properties as Json;
    const authorizer = inMainTerms(built, home, p.AuthorizerId) as Json | undefined;
    const target = referencesIn(p.Integration ?? {})
      .map((reference) => resolveReference(built, reference, home))
      .find((resolved) => resolved?.attribute === 'Arn');
    const method: MethodInfo = {
      httpMethod: p.HttpMethod as string,
      path: pathOfResource(built, home, p.ResourceId, paths),
      authorizationType: p.AuthorizationType as string,
      authorizerId: authorizer?.Ref as string | undefined,
      functionAddress: target?.address,
      address,
      resource,
    };
    // Not enumerable, so that a failed assertion (`toMatchObject`, `toEqual` on a few fields) prints what matters.
    for (const key of ['address', 'resource'] as const) Object.defineProperty(method, key, { value: method[key], enumerable: false });
    return method;
  });
}
