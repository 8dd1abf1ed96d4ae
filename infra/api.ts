/**
 * The REST API, built entirely from the route table: a resource for every path and alias, one
 * function per route, the REQUEST authorizer on `auth: 'key'` routes. Adding a route to
 * shared/routes.ts is all it takes to deploy it.
 *
 * The main stack holds the gateway itself: the REST API, the authorizer, the deployment and stage,
 * usage plans. Every resource (path) with its CORS preflight and mock 405 is in its path stack, one
 * per kind of resource (infra/path-stacks.ts; only the root and the version prefixes stay in the
 * main stack), each route's function and its methods in its group's nested stack
 * (infra/route-stacks.ts); infra/nested-methods.ts makes the deployment wait for and change with
 * them. A deploy that moves methods or resources between stacks (the first of this layout over a
 * stage whose resources or methods are in the main stack, a renamed group) needs one with
 * `detachMethods` before it (README, "Deploy"): API Gateway refuses a method its resource still
 * has, and a resource its parent still has.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { binaryMediaTypes, physicalName } from '#shared/resources';
import { pathsOf, type RouteDefinition } from '#shared/routes';
import { ServiceFunction } from './function';
import { addGatewayResponses } from './gateway-responses';
import { addMethodNotAllowed } from './method-not-allowed';
import { keepDeployment, NestedMethods } from './nested-methods';
import { addUsagePlans } from './usage-plans';
import type { UsageTier } from '#shared/accounts/plans';
import { grantTable, RouteRoles, type GrantTargets } from './grants';
import { PathStacks, versionPrefixOf, type PreflightOptions } from './path-stacks';
import { NestedLambdaIntegration, RouteStacks } from './route-stacks';
import type { StageConfig } from './stages';

export interface ApiProps {
  stage: StageConfig;
  routes: readonly RouteDefinition[];
  projectRoot: string;
  environment: Record<string, string>;
  targets: GrantTargets;
  /** Browser origins allowed by CORS; defaults to the stage's (the stack adds the admin panel's). */
  corsOrigins?: string[];
  /**
   * For the one deploy before methods change stacks (`-c detachMethods=<id>`, README "Deploy"): the
   * logical id of the deployment the stage serves. The deploy leaves out the route and 405 methods
   * and the path stacks (every resource but the root and the version prefixes, with their
   * preflights) and keeps that deployment (infra/nested-methods.ts, `keepDeployment`).
   */
  detachMethods?: string;
}

/**
 * The access log line (JSON, one per request). Besides API Gateway's standard fields it names who
 * called (the authorizer's account, mode and key prefix; the usage key's id) and why the gateway
 * refused a request it answered itself (`errorType`: THROTTLED, QUOTA_EXCEEDED, REQUEST_TOO_LARGE,
 * WAF_FILTERED, ACCESS_DENIED, UNAUTHORIZED, INTEGRATION_TIMEOUT…), so refusals that no handler —
 * and so no audit record — ever sees are on record too.
 */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  errorType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  wafStatus: '$context.waf.status',
  accountId: '$context.authorizer.accountId',
  mode: '$context.authorizer.mode',
  keyPrefix: '$context.authorizer.keyPrefix',
  usageKeyId: '$context.identity.apiKeyId',
};

/** The CORS preflight of every resource, but for the origins (the stage's and the panel's). */
const PREFLIGHT: Omit<PreflightOptions, 'allowOrigins'> = {
  allowMethods: apigw.Cors.ALL_METHODS,
  allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
  maxAge: Duration.hours(1),
};

/** `customers.create` → `CustomersCreateFn`: stable construct ids, so logical ids survive reordering. */
export function functionId(routeId: string): string {
  const words = routeId.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `${words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Fn`;
}

/**
 * API Gateway rejects sibling path parameters with different names (`/a/{id}` next to `/a/{aId}`)
 * only at deploy time; fail at synth instead.
 */
export function assertConsistentPathParameters(routes: readonly RouteDefinition[]): void {
  const parameterAt = new Map<string, string>();
  for (const path of routes.flatMap(pathsOf)) {
    const segments = path.split('/').filter(Boolean);
    segments.forEach((segment, i) => {
      if (!segment.startsWith('{')) return;
      const parent = `/${segments.slice(0, i).join('/')}`;
      const known = parameterAt.get(parent) ?? segment;
      if (known !== segment) throw new Error(`Path ${path}: ${segment} conflicts with ${known} under ${parent}`);
      parameterAt.set(parent, segment);
    });
  }
}

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizerFunction: ServiceFunction;
  /** Tier → its usage plan (infra/usage-plans.ts). */
  readonly usagePlans: Map<UsageTier, apigw.UsagePlan>;
  /** Route id → its function (in its group's nested stack). */
  readonly functions = new Map<string, ServiceFunction>();
  /** Route group → the nested stack of its functions and their methods. */
  readonly routeStacks: RouteStacks;
  /** The nested stacks of the resources with their CORS preflights and mock 405s, one per kind (none while the methods are detached). */
  readonly pathStacks: PathStacks;
  /** The methods in nested stacks: the routes' and the 405s (the CORS preflights are in `restApi.methods` and `pathStacks.preflights`). */
  readonly nestedMethods: NestedMethods;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { stage, routes } = props;
    assertConsistentPathParameters(routes);
    const functionProps = { stage, projectRoot: props.projectRoot, environment: props.environment };
    const corsOrigins = props.corsOrigins ?? stage.corsOrigins;
    const preflight: PreflightOptions | undefined = corsOrigins.length ? { ...PREFLIGHT, allowOrigins: corsOrigins } : undefined;

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: physicalName(stage.name, 'Api'),
      description: `Print Shop API (${stage.name})`,
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // Usage plans identify accounts by the key the authorizer returns (usageIdentifierKey).
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      binaryMediaTypes,
      // Access logs need the account-wide API Gateway logging role; retained because every
      // stage in the account shares it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: stage.name,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        // One line per request, also for those the gateway refuses itself (docs/platform.md): throttled
        // (`THROTTLED`, `QUOTA_EXCEEDED`), too large, WAF, resource policy, authorizer refusals, timeouts.
        accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Execution logs for errors only; data tracing would log request bodies (personal data).
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        throttlingRateLimit: stage.throttle.rateLimit,
        throttlingBurstLimit: stage.throttle.burstLimit,
      },
      defaultCorsPreflightOptions: preflight,
    });
    addGatewayResponses(this.restApi, corsOrigins);

    this.authorizerFunction = new ServiceFunction(this, 'AuthorizerFn', {
      ...functionProps,
      handler: 'functions/authorizer.ts',
      description: 'API key / customer token authorizer',
    });
    grantTable(this.authorizerFunction, props.targets.table, 'read');
    const authorizer = new apigw.RequestAuthorizer(this, 'Authorizer', {
      authorizerName: physicalName(stage.name, 'Authorizer'),
      handler: this.authorizerFunction,
      identitySources: [apigw.IdentitySource.header('Authorization')],
      // Revocation must take effect within 60 s (docs/platform.md: authorizer caching).
      resultsCacheTtl: Duration.seconds(60),
    });
    // CDK attaches an authorizer to its API when a method of that API uses it, and every method that
    // does is in a nested stack, on an imported API. Attached here, it names the API, and (cdk.json:
    // authorizerChangeDeploymentLogicalId) a changed authorizer still makes a new deployment.
    authorizer._attachToApi(this.restApi);
    // Methods in nested stacks take the authorizer by id (a parameter), not as the construct.
    const authorizerRef: apigw.IAuthorizer = { authorizerId: authorizer.authorizerId, authorizationType: apigw.AuthorizationType.CUSTOM };

    // The roles stay here, shared by the functions of all groups; the functions, their log groups,
    // invoke permissions and methods go to their group's nested stack (infra/route-stacks.ts).
    const roles = new RouteRoles(this, props.targets);
    this.routeStacks = new RouteStacks(this, stage);
    this.pathStacks = new PathStacks(this, this.restApi, stage, preflight);
    this.nestedMethods = new NestedMethods(this.restApi, this.pathStacks);
    for (const route of routes) {
      const routeStack = this.routeStacks.stackFor(route);
      const fn = new ServiceFunction(routeStack, functionId(route.id), {
        ...functionProps,
        role: roles.roleFor(route),
        handler: route.handler,
        description: `${route.id}: ${route.summary}`.slice(0, 256),
        // Long imports keep running past API Gateway's 29 s answer and still finish atomically.
        ...(route.timeoutSeconds ? { timeoutSeconds: route.timeoutSeconds } : {}),
      });
      this.functions.set(route.id, fn);
      // One integration per function; test invocations from the console need no extra permission.
      const integration = new NestedLambdaIntegration(fn, stage.name);
      const options: apigw.MethodOptions =
        route.auth === 'key'
          ? { authorizer: authorizerRef, authorizationType: apigw.AuthorizationType.CUSTOM, apiKeyRequired: true }
          : { authorizationType: apigw.AuthorizationType.NONE };
      for (const path of pathsOf(route)) {
        if (props.detachMethods) {
          // No method, but the permission it would have: the deployment the stage keeps still invokes the function.
          integration.allowInvoke(this.restApi, route.method, path);
          continue;
        }
        const method = this.nestedMethods.add(routeStack, {
          path,
          httpMethod: route.method,
          integration,
          options,
          fingerprint: {
            route: route.id,
            authorizationType: options.authorizationType,
            apiKeyRequired: options.apiKeyRequired ?? false,
            authorizer: options.authorizer ? authorizer.node.path : undefined,
            integration: integration.fingerprint,
          },
        });
        if (route.auth === 'none') {
          Validations.of(method).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `${route.id} is public by design (route table: auth none).`,
          });
        }
      }
    }
    if (props.detachMethods) {
      // The main stack's resources (the version prefixes) stay as they are; the path stacks, with every other resource, go.
      for (const path of routes.flatMap(pathsOf)) this.restApi.root.resourceForPath(versionPrefixOf(path));
      keepDeployment(this.restApi, props.detachMethods);
    } else {
      addMethodNotAllowed(this.nestedMethods, this.pathStacks, routes);
    }
    this.usagePlans = addUsagePlans(this, this.restApi, stage);
    this.suppressFindings();
  }

  private suppressFindings(): void {
    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Requests are validated in each handler with zod, which returns the project error envelope with field details.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: 'AmazonAPIGatewayPushToCloudWatchLogs is the AWS-maintained policy for the API Gateway logging role.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF web ACL by default (cost per request, rules are a per-deployment decision); traffic is bounded by stage throttling, the authorizer and per-account rate limits.',
      },
    );
    for (const method of [...this.restApi.methods, ...this.pathStacks.preflights, ...this.nestedMethods.all]) {
      const reason =
        method.httpMethod === 'OPTIONS'
          ? 'CORS preflight requests carry no credentials by definition.'
          : 'Authentication is the Lambda REQUEST authorizer (API keys and customer JWTs) or none by design, never Cognito.';
      Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason });
      if (method.httpMethod === 'OPTIONS') Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason });
    }
  }
}
