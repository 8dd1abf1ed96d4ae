/**
 * Builds the real stack for infra tests without bundling. NodejsFunction insists that every entry
 * file exists even when bundling is skipped, so the stack gets a throwaway project root holding
 * empty handlers at the route table's paths: the tests then depend on the route table, not on
 * which handlers happen to be written yet.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes as allRoutes, type RouteDefinition } from '#shared/routes';
import { functionEntries } from '#infra/entries';
import { PrintShopStack, projectRoot } from '#infra/stack';
import { stageConfig, type StageName } from '#infra/stages';

const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

export interface Built {
  stack: PrintShopStack;
  template: Template;
}

export interface BuildOptions {
  routes?: readonly RouteDefinition[];
  /** CDK's built-in CloudFormation schema validation (as `cdk synth` runs it); ~4 s, so opt-in. */
  cfnValidation?: boolean;
}

/** Synthesizes one stage with the feature flags of cdk.json and the cdk-nag checks of infra/app.ts. */
export function buildStack(stage: StageName = 'dev', options: BuildOptions = {}): Built {
  const routes = options.routes ?? allRoutes;
  const root = mkdtempSync(join(tmpdir(), 'print-shop-infra-'));
  try {
    writeFileSync(join(root, 'package-lock.json'), '{}');
    for (const handler of functionEntries(routes).map((fn) => fn.entry)) {
      mkdirSync(dirname(join(root, handler)), { recursive: true });
      writeFileSync(join(root, handler), 'export const handler = async () => ({});\n');
    }
    const app = new App({
      context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] },
      builtinCloudFormationValidation: options.cfnValidation ?? false,
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
    const stack = new PrintShopStack(app, `PrintShop-${stage}`, {
      stage: stageConfig(stage),
      routes,
      projectRoot: root,
    });
    // Synthesis runs the validation plugins and throws on any unacknowledged finding.
    return { stack, template: Template.fromStack(stack) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

type Json = Record<string, unknown>;

/** Resource logical id → its full path (`/v1/customers/{id}`), resolved through the ParentId chain. */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, { Properties: Json }>;
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const { ParentId, PathPart } = resources[id]!.Properties as { ParentId: Json; PathPart: string };
    const parent = 'Ref' in ParentId ? pathOf(ParentId.Ref as string) : ''; // GetAtt RootResourceId: the root
    const path = `${parent}/${PathPart}`;
    paths.set(id, path);
    return path;
  };
  Object.keys(resources).forEach(pathOf);
  return paths;
}

export interface MethodInfo {
  httpMethod: string;
  path: string;
  authorizationType: string;
  authorizerId?: string;
  /** Logical id of the Lambda function the integration invokes. */
  functionId?: string;
}

export function methods(template: Template): MethodInfo[] {
  const paths = resourcePaths(template);
  const found = template.findResources('AWS::ApiGateway::Method') as Record<string, { Properties: Json }>;
  return Object.values(found).map(({ Properties: p }) => {
    const resourceId = p.ResourceId as Json;
    const integration = JSON.stringify(p.Integration ?? {});
    const authorizer = p.AuthorizerId as Json | undefined;
    return {
      httpMethod: p.HttpMethod as string,
      path: 'Ref' in resourceId ? paths.get(resourceId.Ref as string)! : '/',
      authorizationType: p.AuthorizationType as string,
      authorizerId: authorizer?.Ref as string | undefined,
      functionId: /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(integration)?.[1],
    };
  });
}
