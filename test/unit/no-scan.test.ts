import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = join(folder, name);
    return statSync(join(root, path)).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('request paths', () => {
  it('never scan the table (handlers, domain code, event pipeline)', () => {
    for (const file of ['functions', 'shared', 'events'].flatMap(sources)) {
      expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/ScanCommand|new Scan\(|\.scan\(/);
    }
  });
});
