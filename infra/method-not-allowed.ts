/**
 * API Gateway answers a known path with an unrouted method as "Missing Authentication Token".
 * An `ANY` method with a mock integration on every routed resource turns that into the API's
 * 405 `method_not_allowed` with an `Allow` header — explicit methods always win over `ANY`,
 * so this only catches what no route serves. No Lambda runs for it.
 *
 * A path's `ANY` method lives with its resource, in the path's stack (infra/path-stacks.ts), not in
 * a route group's: a path's `Allow` header lists the methods of every group on it, and a method must
 * never move between stacks (API Gateway refuses to create a method its resource still has, and the
 * old stack deletes it only after the new one created it). Beside its resource, adding a route of
 * another group to a path only changes the header. (The root and the version prefixes are the main
 * stack's: should a route ever be on one of them, its 405 is there too, and CDK's own deployment
 * hash follows it.)
 */
import { NestedStack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { pathsOf, type RouteDefinition } from '#shared/routes';
import type { NestedMethods } from './nested-methods';
import type { PathStacks } from './path-stacks';

export function addMethodNotAllowed(methods: NestedMethods, paths: PathStacks, routes: readonly RouteDefinition[]): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    for (const path of pathsOf(route)) {
      const allowed = methodsByPath.get(path) ?? new Set<string>();
      allowed.add(route.method);
      methodsByPath.set(path, allowed);
    }
  }
  for (const [path, allowed] of methodsByPath) {
    const allow = [...allowed].join(', ');
    const body = `{"success":false,"error":{"code":"method_not_allowed","message":"$context.httpMethod is not allowed on ${path}; allowed: ${allow}","request_id":"$context.requestId"}}`;
    // Plain data both, so that they are the method's fingerprint too (infra/nested-methods.ts).
    const integrationOptions: apigw.IntegrationOptions = {
      passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_TEMPLATES,
      requestTemplates: { 'application/json': '{"statusCode": 405}' },
      integrationResponses: [
        {
          // The only (default) integration response: whatever the mock says, the answer is 405.
          statusCode: '405',
          responseTemplates: { 'application/json': body },
          responseParameters: {
            'method.response.header.Allow': `'${allow}'`,
            'method.response.header.X-Request-Id': 'context.requestId',
            'method.response.header.Content-Type': "'application/json'",
          },
        },
      ],
    };
    const options: apigw.MethodOptions = {
      authorizationType: apigw.AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode: '405',
          responseParameters: {
            'method.response.header.Allow': true,
            'method.response.header.X-Request-Id': true,
            'method.response.header.Content-Type': true,
          },
        },
      ],
    };
    const integration = new apigw.MockIntegration(integrationOptions);
    const owner = paths.ownerOf(path);
    const method = NestedStack.isNestedStack(owner)
      ? methods.add(owner, {
          path,
          httpMethod: 'ANY',
          integration,
          options,
          fingerprint: { integration: { type: 'MOCK', ...integrationOptions }, options },
        })
      : paths.resourceIn(owner, path).addMethod('ANY', integration, options);
    Validations.of(method).acknowledge(
      { id: 'AwsSolutions-APIG4', reason: 'Mock 405 answer for unrouted methods: no data, no backend.' },
      { id: 'AwsSolutions-COG4', reason: 'Mock 405 answer for unrouted methods: no data, no backend.' },
    );
  }
}
