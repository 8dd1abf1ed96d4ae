/**
 * `npm run sdk`: generates the SDK's typed client (sdk/src/generated/: the operations, their
 * request and answer types, the webhook event types, and the fetch client they run on) with
 * @hey-api/openapi-ts from the OpenAPI document the API serves — built by the same generator as
 * GET /v1/openapi.json, in process, so no stack has to run. The output is a build product, not
 * committed (.gitignore): `npm run typecheck`, `npm test` and `.ci/run` regenerate it first, so it is
 * never stale. The hand-written parts (sdk/src/*.ts) only import from it.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { buildOpenApiDocument } from '#shared/openapi/document';

const output = fileURLToPath(new URL('./src/generated', import.meta.url));

rmSync(output, { recursive: true, force: true });
await createClient({
  input: { path: buildOpenApiDocument() as unknown as Record<string, unknown> },
  output: { path: output },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { level: 'silent' },
});
console.log('sdk/src/generated written from the served OpenAPI document');
