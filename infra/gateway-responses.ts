/**
 * Errors API Gateway answers by itself (before or instead of a handler) use the project's error
 * envelope and carry X-Request-Id, so clients parse one error shape whoever produced it.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';

interface GatewayError {
  type: apigw.ResponseType;
  /** Omitted: keep the status API Gateway chose (DEFAULT_4XX / DEFAULT_5XX cover several). */
  status?: string;
  code: string;
  /** A JSON string literal, or `$context.error.messageString` (already quoted). */
  message: string;
}

const quoted = (text: string): string => JSON.stringify(text);

export const gatewayErrors: GatewayError[] = [
  { type: apigw.ResponseType.UNAUTHORIZED, status: '401', code: 'unauthorized', message: quoted('Missing or invalid credentials') },
  { type: apigw.ResponseType.ACCESS_DENIED, status: '403', code: 'forbidden', message: quoted('Access denied') },
  // API Gateway answers an unknown path (and an unknown method on a known path) with
  // "Missing Authentication Token"; for a client that is simply "no such endpoint".
  {
    type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: quoted('No endpoint matches this method and path'),
  },
  { type: apigw.ResponseType.THROTTLED, status: '429', code: 'rate_limited', message: quoted('Too many requests') },
  { type: apigw.ResponseType.QUOTA_EXCEEDED, status: '429', code: 'rate_limited', message: quoted('Request quota exceeded') },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'payload_too_large', message: quoted('Request body too large') },
  {
    type: apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: '415',
    code: 'unsupported_media_type',
    message: quoted('Unsupported media type'),
  },
  { type: apigw.ResponseType.WAF_FILTERED, status: '403', code: 'forbidden', message: quoted('Request blocked by the firewall') },
  // API Gateway stops waiting for a function after 29 s (a long import goes on and finishes on its own).
  {
    type: apigw.ResponseType.INTEGRATION_TIMEOUT,
    status: '504',
    code: 'timeout',
    message: quoted('Timed out; the request may or may not have taken effect'),
  },
  { type: apigw.ResponseType.DEFAULT_4XX, code: 'bad_request', message: '$context.error.messageString' },
  { type: apigw.ResponseType.DEFAULT_5XX, code: 'internal_error', message: quoted('Internal error') },
];

export function addGatewayResponses(api: apigw.RestApi, corsOrigins: string[]): void {
  // A browser only reads an error body that carries the CORS header; it can be static only for one origin.
  const corsHeader: Record<string, string> = corsOrigins.length === 1 ? { 'Access-Control-Allow-Origin': `'${corsOrigins[0]}'` } : {};
  for (const error of gatewayErrors) {
    const body = `{"success":false,"error":{"code":"${error.code}","message":${error.message},"request_id":"$context.requestId"}}`;
    api.addGatewayResponse(error.type.responseType, {
      type: error.type,
      statusCode: error.status,
      responseHeaders: { 'Content-Type': "'application/json'", 'X-Request-Id': 'context.requestId', ...corsHeader },
      templates: { 'application/json': body },
    });
  }
}
