/** Writes openapi.json at the project root from the same generator the API serves. */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '#shared/openapi/document';

const document = buildOpenApiDocument();
writeFileSync(new URL('../openapi.json', import.meta.url), JSON.stringify(document, null, 2) + '\n');
console.log(`openapi.json written: ${Object.keys(document.paths ?? {}).length} paths`);
