import { definePublicHandler } from '#shared/http/public-handler';
import { ok } from '#shared/http/envelope';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { allOperations } from '#shared/openapi/contracts';

const operation = allOperations.find((candidate) => candidate.route === 'openapi.get')!;
let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The document is the raw OpenAPI JSON (no envelope), built once per instance. */
export const handler = definePublicHandler(operation, async ({ headers }) => {
  const host = headers.host;
  document ??= buildOpenApiDocument(host ? `${headers['x-forwarded-proto'] ?? 'https'}://${host}` : undefined);
  return { ...ok(null), body: document };
});
