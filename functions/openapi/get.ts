import { definePublicHandler } from '#shared/http/public-handler';
import { ok } from '#shared/http/envelope';
import { buildOpenApiDocument, serverUrlOf } from '#shared/openapi/document';
import { allOperations } from '#shared/openapi/contracts';

const operation = allOperations.find((candidate) => candidate.route.id === 'openapi.get')!;
let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/**
 * The document is the raw OpenAPI JSON (no envelope), built once per instance; only `servers`
 * is per request — the base URL this caller used (scheme, host, stage), never a previous caller's.
 */
export const handler = definePublicHandler(operation, async ({ headers, event }) => {
  document ??= buildOpenApiDocument();
  const url = serverUrlOf(headers, event.path, event.requestContext);
  return { ...ok(null), body: url ? { ...document, servers: [{ url }] } : document };
});
