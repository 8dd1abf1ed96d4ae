/**
 * Every answer an integration test receives through `call()` (./http.ts) is checked against the
 * OpenAPI document the API serves (`buildOpenApiDocument`): the operation is found by method and
 * path template (the route table's paths and aliases, a literal segment winning over a `{param}`),
 * and its status must be declared for it, its content type one the response declares, its JSON
 * body valid against that response's schema (Ajv, OpenAPI 3.0 `nullable` included), and every
 * header the response declares as required present. A mismatch throws, which fails the test with
 * the operation, the status and what differs. A path no route has (a test asking for a 404 on
 * purpose) must still answer the common error body.
 *
 * Each operation reached is recorded in the directory the global setup names
 * (`fixtures.calledOperationsDir`), so that its teardown can list the operations no test called.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { inject } from 'vitest';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { pathsOf, routes } from '#shared/routes';
import { ErrorSchema } from '#shared/schemas/common';

interface DocumentResponse {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, unknown>;
}
interface DocumentOperation {
  operationId: string;
  responses: Record<string, DocumentResponse>;
}
type Document = { paths: Record<string, Record<string, DocumentOperation>> };

const document = buildOpenApiDocument() as unknown as Document;
const DOCUMENT_ID = 'openapi.json';

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: null, or what the rest says. Read literally, the
 * document's nullable reference `{ type: 'object', nullable: true, allOf: [{ $ref }] }` would
 * refuse null through its `allOf`; every OpenAPI 3.0 tool reads it as "null or the reference".
 */
function asJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonSchema);
  if (typeof value !== 'object' || value === null) return value;
  const converted = Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [name, /^examples?$/.test(name) ? inner : asJsonSchema(inner)]),
  );
  if (converted.nullable !== true) return converted;
  const { nullable: _nullable, ...rest } = converted;
  return { anyOf: [{ type: 'null' }, rest] };
}

// OpenAPI 3.0 schemas are a dialect of JSON Schema draft 4/5: not strict (example, x-… keywords).
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// Bytes of a document (a PDF): nothing for JSON Schema to check.
ajv.addFormat('binary', true);
ajv.addSchema(asJsonSchema(document) as object, DOCUMENT_ID);

const validators = new Map<string, ValidateFunction>();
const pointer = (...segments: string[]) => segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
function validatorOf(path: string, method: string, status: string, contentType: string): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer('paths', path, method, 'responses', status, 'content', contentType, 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate;
}

/** Each documented path as segments, the more literal first (a literal route wins over a parameter). */
const templates = routes
  .flatMap((route) => pathsOf(route).map((path) => ({ method: route.method, path, segments: path.split('/') })))
  .sort((a, b) => b.segments.filter((segment) => !segment.startsWith('{')).length - a.segments.filter((s) => !s.startsWith('{')).length);

/** The documented path template a concrete call reaches, or undefined (no route has it). */
export function templateOf(method: string, concretePath: string): string | undefined {
  const segments = concretePath.split('?')[0]!.split('/');
  const fits = (template: string[]) =>
    template.length === segments.length &&
    template.every((part, index) => (part.startsWith('{') ? segments[index] !== '' : part === segments[index]));
  return templates.find((template) => template.method === method.toUpperCase() && fits(template.segments))?.path;
}

const recorded = new Set<string>();
function record(operationId: string): void {
  if (recorded.has(operationId)) return;
  recorded.add(operationId);
  appendFileSync(join(inject('fixtures').calledOperationsDir, `${process.pid}.txt`), `${operationId}\n`);
}

const mediaType = (headers: Headers) => headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();

/** The differences between an answer and the document, empty when it matches. */
export function contractDifferences(method: string, path: string, status: number, headers: Headers, body: unknown): string[] {
  const template = templateOf(method, path);
  if (!template) {
    // No such route: the gateway's own answer, which must still be the common error body.
    const parsed = ErrorSchema.safeParse(body);
    return parsed.success ? [] : [`the error body of an unknown path: ${parsed.error.message}`];
  }
  const operation = document.paths[template]![method.toLowerCase()]!;
  record(operation.operationId);
  const declared = operation.responses[String(status)];
  if (!declared) return [`status ${status} is not declared (declared: ${Object.keys(operation.responses).join(', ')})`];
  const differences: string[] = [];
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    if (header.required && !headers.has(name)) differences.push(`the declared header ${name} is missing`);
  }
  const content = declared.content ?? {};
  const type = mediaType(headers);
  if (Object.keys(content).length === 0) {
    if (body !== undefined) differences.push(`a body, where the response declares none (content type ${type ?? 'none'})`);
    return differences;
  }
  if (!type || !(type in content)) {
    differences.push(`content type ${type ?? 'none'} is not declared (declared: ${Object.keys(content).join(', ')})`);
    return differences;
  }
  if (type === 'application/json') {
    const validate = validatorOf(template, method.toLowerCase(), String(status), type);
    if (!validate(body)) {
      differences.push(
        ...(validate.errors ?? []).slice(0, 10).map((error) => `body${error.instancePath} ${error.message} (${error.schemaPath})`),
      );
    }
  }
  return differences;
}

/** Throws when the answer does not match the document: the test that called fails with what differs. */
export function checkAgainstContract(method: string, path: string, status: number, headers: Headers, body: unknown): void {
  const differences = contractDifferences(method, path, status, headers, body);
  if (differences.length === 0) return;
  const template = templateOf(method, path);
  const operation = template
    ? `${document.paths[template]![method.toLowerCase()]!.operationId} (${method} ${template})`
    : `${method} ${path}`;
  throw new Error(`The answer of ${operation} does not match the OpenAPI document: ${status}: ${differences.join('; ')}`);
}
