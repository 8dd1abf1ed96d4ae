/**
 * API Gateway answers a known path with an unrouted method as "Missing Authentication Token".
 * An `ANY` method with a mock integration on every routed resource turns that into the API's
 * 405 `method_not_allowed` with an `Allow` header — explicit methods always win over `ANY`,
 * so this only catches what no route serves. No Lambda runs for it.
 */
import { Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { pathsOf, type RouteDefinition } from '#shared/routes';

export function addMethodNotAllowed(api: apigw.RestApi, routes: readonly RouteDefinition[]): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    for (const path of pathsOf(route)) {
      const methods = methodsByPath.get(path) ?? new Set<string>();
      methods.add(route.method);
      methodsByPath.set(path, methods);
    }
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].join(', ');
    const body = `{"success":false,"error":{"code":"method_not_allowed","message":"$context.httpMethod is not allowed on ${path}; allowed: ${allow}","request_id":"$context.requestId"}}`;
    const integration = new apigw.MockIntegration({
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
    });
    const method = api.root.resourceForPath(path).addMethod('ANY', integration, {
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
    });
    Validations.of(method).acknowledge(
      { id: 'AwsSolutions-APIG4', reason: 'Mock 405 answer for unrouted methods: no data, no backend.' },
      { id: 'AwsSolutions-COG4', reason: 'Mock 405 answer for unrouted methods: no data, no backend.' },
    );
  }
}
