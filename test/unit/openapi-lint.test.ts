/**
 * The OpenAPI document passes `redocly lint` with its recommended rules: no errors (a `nullable`
 * without `type`, an invalid schema), and no example that does not match its schema (a warning in
 * the recommended set, held to zero here). Runs the CLI of the `@redocly/cli` dev dependency on the
 * document the API serves (under a second: it is one bundled package, no network).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { declaredEvents } from '#shared/openapi/events';

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const cli = resolve(import.meta.dirname, '../../node_modules/@redocly/cli/bin/cli.js');

function lint(document: unknown): { totals: { errors: number; warnings: number }; problems: Problem[] } {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    });
    const start = run.stdout.indexOf('{');
    if (start < 0) throw new Error(`redocly printed no report (exit ${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout.slice(start));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const describeProblems = (problems: Problem[]) =>
  problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);

describe('the OpenAPI document', () => {
  const report = lint(buildOpenApiDocument('http://127.0.0.1:3000'));

  it('passes redocly lint (recommended rules) with no errors', () => {
    expect(describeProblems(report.problems.filter((problem) => problem.severity === 'error'))).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('references every webhook event component (no unused WebhookEvent.<kind>)', () => {
    const unused = report.problems.filter((problem) => problem.ruleId === 'no-unused-components');
    expect(describeProblems(unused.filter((problem) => /WebhookEvent/.test(problem.message)))).toEqual([]);
  });

  it('has no example that does not match its schema', () => {
    const examples = report.problems.filter((problem) => /example/i.test(problem.ruleId));
    expect(describeProblems(examples)).toEqual([]);
  });
});

describe('webhook deliveries in the OpenAPI document', () => {
  const document = buildOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { callbacks?: Record<string, Record<string, Record<string, unknown>>> }>>;
    components: { schemas: Record<string, { oneOf?: { $ref: string }[]; discriminator?: { propertyName: string } }> };
  };

  it('are the callbacks of POST /v1/webhooks: a POST of WebhookEvent to the registered url', () => {
    const callback = document.paths['/v1/webhooks']!.post!.callbacks!.delivery!['{$request.body#/url}']!.post as {
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
      security: unknown[];
    };
    expect(callback.requestBody.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/WebhookEvent' });
    expect(callback.security).toEqual([]);
  });

  it('WebhookEvent is one of every declared event body, told apart by `event`', () => {
    const union = document.components.schemas.WebhookEvent!;
    expect(union.discriminator?.propertyName).toBe('event');
    const kinds = declaredEvents.map((definition) => `#/components/schemas/WebhookEvent.${definition.kind}`);
    expect(union.oneOf!.map((member) => member.$ref).sort()).toEqual(kinds.sort());
  });
});

describe('nullable objects in the OpenAPI document', () => {
  const schemas = (
    buildOpenApiDocument() as unknown as {
      components: { schemas: Record<string, { nullable?: boolean; properties: Record<string, unknown> }> };
    }
  ).components.schemas;

  it('are a typed nullable reference, and no component itself is nullable', () => {
    const nullableRef = (id: string) => ({ type: 'object', nullable: true, allOf: [{ $ref: `#/components/schemas/${id}` }] });
    expect(schemas.Order!.properties.shipping_address).toEqual(nullableRef('OrderAddress'));
    expect(schemas.OrderUpdate!.properties.billing_address).toEqual(nullableRef('OrderAddressInput'));
    expect(Object.entries(schemas).filter(([, schema]) => schema.nullable)).toEqual([]);
  });
});
