/**
 * The OpenAPI document's request schemas are as strict as the server: a body the server refuses
 * as empty has `minProperties: 1`, and the date bounds of list queries carry the format the server
 * parses (`date`, `date-time`, or either). Checked against the contracts' own zod schemas and with
 * Ajv, as a client validating its requests against the document would.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { allOperations } from '#shared/openapi/contracts';
import { buildOpenApiDocument } from '#shared/openapi/document';

type Schema = Record<string, unknown> & { $ref?: string; minProperties?: number; format?: string; oneOf?: Schema[] };
interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
const resolve = (schema: Schema): Schema => (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!]! : schema);
const jsonBodyOf = (operation: Operation) => operation.requestBody?.content['application/json']?.schema;

describe('request bodies in the OpenAPI document', () => {
  const nonEmpty = operations
    .filter((operation) => {
      const body = jsonBodyOf(operation);
      return body !== undefined && resolve(body).minProperties === 1;
    })
    .map((operation) => operation.operationId)
    .sort();

  it('say minProperties: 1 on exactly the update bodies the server refuses as empty', () => {
    expect(nonEmpty).toEqual([
      'account.update',
      'auth.meUpdate',
      'cart.updateItem',
      'carts.updateItem',
      'jobs.update',
      'machines.update',
      'orders.update',
      'quotes.update',
    ]);
  });

  it('and the server refuses each of those bodies when empty, with the message naming what to send', () => {
    for (const id of nonEmpty) {
      const operation = allOperations.find((candidate) => candidate.route.id === id)!;
      const result = operation.body!.safeParse({});
      expect(result.success, id).toBe(false);
      expect(result.error!.issues.map((issue) => issue.message).join(), id).toMatch(/^send /);
    }
  });

  it('no other body refuses {} as a whole (a new one would be documented, or this list is wrong)', () => {
    const refusing = allOperations
      .filter((operation) => {
        const result = operation.body?.safeParse({});
        return result && !result.success && result.error.issues.some((issue) => issue.path.length === 0);
      })
      .map((operation) => operation.route.id)
      .sort();
    expect(refusing).toEqual(nonEmpty);
  });
});

describe('date bounds of list queries in the OpenAPI document', () => {
  const queryParameters = operations.flatMap((operation) =>
    (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => ({ ...parameter, operation })),
  );
  const named = (name: string) => queryParameters.filter((parameter) => parameter.name === name);
  const ajv = new Ajv({ strict: false, validateFormats: true });
  addFormats(ajv);

  it('document created_from and created_to as a date or a date-time, as the server parses them', () => {
    const bounds = [...named('created_from'), ...named('created_to')];
    expect(bounds.map((parameter) => parameter.operation.operationId).sort()).toEqual(
      [
        ...['orders.list', 'customers.orders', 'quotes.list', 'customers.quotes', 'events.list'],
        ...['orders.list', 'customers.orders', 'quotes.list', 'customers.quotes', 'events.list'],
      ].sort(),
    );
    for (const bound of bounds) {
      const validate = ajv.compile(bound.schema);
      expect(bound.schema.oneOf, bound.operation.operationId).toEqual([{ format: 'date' }, { format: 'date-time' }]);
      for (const accepted of ['2026-11-01', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00.123+01:00']) {
        expect(validate(accepted), `${bound.operation.operationId} ${bound.name} ${accepted}`).toBe(true);
      }
      for (const refused of ['yesterday', '2026-13-01', '01/11/2026']) {
        expect(validate(refused), `${bound.operation.operationId} ${bound.name} ${refused}`).toBe(false);
      }
    }
  });

  it('document due_before as a date, and the audit log bounds as date-times', () => {
    expect(named('due_before').map((parameter) => [parameter.operation.operationId, parameter.schema.format])).toEqual([
      ['invoices.list', 'date'],
      ['jobs.list', 'date'],
    ]);
    expect([...named('from'), ...named('to')].map((parameter) => [parameter.operation.operationId, parameter.schema.format])).toEqual([
      ['audit.list', 'date-time'],
      ['audit.list', 'date-time'],
    ]);
  });

  it('leave no date or time bound without a format', () => {
    const bounds = queryParameters.filter(
      (parameter) => /(^|_)(from|to|before|after|since|until)$/.test(parameter.name) && parameter.name !== 'starting_after',
    );
    const unformatted = bounds.filter((parameter) => !parameter.schema.format && !parameter.schema.oneOf);
    expect(unformatted.map((parameter) => `${parameter.operation.operationId} ${parameter.name}`)).toEqual([]);
  });
});
