/**
 * `multipart/form-data` request bodies (file uploads), parsed by middy's multipart parser (busboy)
 * from the body API Gateway passes base64-encoded (the type is one of the API's binary media
 * types). Its refusals become the API's errors: not multipart → 415, a part beyond `maxFileBytes`
 * → 413, a malformed body → 422. Only the routes that take files use it (their bundles alone carry busboy).
 */
import type middy from '@middy/core';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DomainError } from '#shared/errors';

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

export function multipartBody(options: { maxFileBytes: number; tooLarge: string }): Middleware {
  const parser = httpMultipartBodyParser({
    busboy: { limits: { files: 1, fileSize: options.maxFileBytes, fields: 10, parts: 11, fieldSize: 1024 } },
  }) as Middleware;
  return {
    before: async (request) => {
      try {
        await parser.before!(request);
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 413) throw new DomainError('payload_too_large', options.tooLarge);
        if (status === 415) throw new DomainError('unsupported_media_type', 'Send the file as multipart/form-data, in the field `file`');
        throw new DomainError('validation_failed', 'The multipart/form-data body is malformed', [
          { field: '(body)', message: 'not a valid multipart/form-data body' },
        ]);
      }
    },
  };
}
