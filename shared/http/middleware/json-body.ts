import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/**
 * An empty body is treated as `{}` (so a missing body is a 422 naming required fields, not a 400);
 * a non-empty one must be JSON (malformed → 400, other content types → 415, see error-mapping).
 */
export const jsonBody = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const { body } = request.event;
      if (body === null || body === undefined || body.trim() === '') {
        (request.event as { body: unknown }).body = {};
        return;
      }
      await parser.before!(request as never);
    },
  };
};
