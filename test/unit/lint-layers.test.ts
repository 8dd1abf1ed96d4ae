import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components, foldersOf } from '../../scripts/lint/no-import-cycle.js';

/**
 * The lint rules that keep the layers one way (eslint.config.js), tried on code that breaks them:
 * a rule that never fires would let the structure drift unnoticed.
 */
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

async function messagesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the layer rules', () => {
  it('refuse an upward import: storage importing a domain, a domain importing HTTP, the core importing the pipeline', async () => {
    const upward = [
      ['shared/db/probe.ts', "import { createOrder } from '#shared/orders/service';\nexport const x = createOrder;\n"],
      ['shared/files/probe.ts', "import { parseOrThrow } from '#shared/http/validation';\nexport const x = parseOrThrow;\n"],
      ['shared/events/probe.ts', "import { handler } from '#events/router';\nexport const x = handler;\n"],
    ] as const;
    for (const [file, code] of upward) {
      const messages = await messagesFor(file, code);
      expect(
        messages.some((message) => message.startsWith('no-restricted-imports') && message.includes('dependencies point down')),
        file,
      ).toBe(true);
    }
  });

  it('refuse a Scan, a ../ chain and tooling in code that runs in a Lambda', async () => {
    const scan = await messagesFor(
      'shared/orders/probe.ts',
      "import { ScanCommand } from '@aws-sdk/lib-dynamodb';\nexport const x = ScanCommand;\n",
    );
    expect(scan.some((message) => message.includes('No request path or worker may scan'))).toBe(true);
    const chain = await messagesFor('shared/orders/probe.ts', "import { x as y } from '../files/detect';\nexport const x = y;\n");
    expect(chain.some((message) => message.includes('subpath import'))).toBe(true);
    const tooling = await messagesFor('functions/orders/probe.ts', "import { call } from '#test/support/http';\nexport const x = call;\n");
    expect(tooling.some((message) => message.includes('never imports tooling'))).toBe(true);
  });

  it('let a module import its own layer and the layers below', async () => {
    const down = await messagesFor(
      'shared/files/probe.ts',
      "import { getMany } from '#shared/db/collections';\nimport { readOrder } from '#shared/orders/repository';\nexport const x = [getMany, readOrder];\n",
    );
    expect(down.filter((message) => message.startsWith('no-restricted-imports'))).toEqual([]);
  });

  it("keep the order's writes to shared/orders: another folder building an order key or taking orders' item builders is refused", async () => {
    const key = await messagesFor(
      'shared/production/probe.ts',
      "import { tenantKeys } from '#shared/db/keys';\nexport const x = (t: never) => tenantKeys.order(t, 1);\n",
    );
    expect(
      key.some((message) => message.startsWith('no-restricted-syntax') && message.includes("Only shared/orders builds an order's keys")),
    ).toBe(true);
    const builder = await messagesFor(
      'shared/shipments/probe.ts',
      "import { orderUpdate } from '#shared/orders/stored';\nexport const x = orderUpdate;\n",
    );
    expect(builder.some((message) => message.includes("Orders' item builders are orders' own"))).toBe(true);
    const own = await messagesFor(
      'shared/orders/probe.ts',
      "import { tenantKeys } from '#shared/db/keys';\nexport const x = (t: never) => tenantKeys.order(t, 1);\n",
    );
    expect(own.filter((message) => message.startsWith('no-restricted-syntax'))).toEqual([]);
  });

  it('see folders: two folders of shared/ importing each other through different modules are one cycle', () => {
    const edges = new Map([
      ['shared/orders/offers.ts', ['shared/files/line-files.ts']],
      ['shared/files/line-files.ts', []],
      ['shared/files/service.ts', ['shared/orders/repository.ts']],
      ['shared/orders/repository.ts', ['shared/db/keys.ts']],
      ['shared/db/keys.ts', []],
    ]);
    expect(components(edges).get('shared/orders/offers.ts')).toEqual(['shared/orders/offers.ts']); // no module cycle
    const folders = foldersOf(edges);
    expect(folders.get('shared/orders')).toEqual(['shared/files', 'shared/db']);
    expect([...components(folders).get('shared/orders')!].sort()).toEqual(['shared/files', 'shared/orders']);
    expect(components(folders).get('shared/db')).toEqual(['shared/db']);
  });
});
