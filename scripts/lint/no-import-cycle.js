// @ts-check
/**
 * ESLint rule `project/no-import-cycle`: fails on any import cycle among the modules that run in
 * a Lambda (functions/, events/, shared/). The import graph is read from disk once per lint run
 * (static `import`/`export … from` of values; `import type` creates no runtime edge), its strongly
 * connected components are found (Tarjan), and a module in a component of more than one module —
 * or one that imports itself — is reported at each import that leads back into its component.
 *
 * Folders too: the same graph with each folder of shared/ as one node (`shared/orders`), so two
 * domains that import each other through different modules — no module cycle, but a tangle all
 * the same — are reported at each import from one folder into another of its folder cycle.
 *
 * Written here rather than taken from eslint-plugin-import-x: that plugin's resolver is a native
 * package whose platform builds the project's registry does not all serve, which breaks `npm ci`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const sourceRoots = ['functions', 'events', 'shared'];
const subpaths = /** @type {Record<string, string>} */ (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports ?? {});

// `import x from 'y'`, `import { a, type B } from 'y'`, `export { a } from 'y'`, `import 'y'` — not `import type`/`export type`.
const importPattern = /^[ \t]*(?:import|export)[ \t]+(?!type[ \t{])(?:[^'";]*?[ \t\n]from[ \t]+)?['"]([^'"]+)['"]/gm;

/** @param {string} folder @returns {string[]} */
function sources(folder) {
  const absolute = join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(folder, name);
    return statSync(join(root, path)).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The project file an import specifier names, relative to the root, or undefined for packages. */
export function resolveSpecifier(/** @type {string} */ from, /** @type {string} */ specifier) {
  let target;
  if (specifier.startsWith('#')) {
    for (const [pattern, replacement] of Object.entries(subpaths)) {
      const prefix = pattern.replace(/\*$/, '');
      if (pattern.endsWith('*') && specifier.startsWith(prefix)) target = replacement.replace('*', specifier.slice(prefix.length));
      else if (pattern === specifier) target = replacement;
    }
    if (!target) return undefined;
    target = relative(root, resolve(root, target));
  } else if (specifier.startsWith('.')) {
    const base = relative(root, resolve(root, dirname(from), specifier));
    target = [base, `${base}.ts`, join(base, 'index.ts')].find(
      (candidate) => existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile(),
    );
  }
  return target && existsSync(join(root, target)) ? target : undefined;
}

/**
 * @typedef {Map<string, string[]>} Edges
 * @typedef {{ edges: Edges, component: Edges, folderEdges: Edges, folderComponent: Edges }} Graph
 * @type {Graph | undefined}
 */
let graph;

/** The folder of shared/ a module is in (`shared/orders`), or undefined for the others (shared/*.ts, functions/, events/). */
export const folderOf = (/** @type {string} */ file) => {
  const parts = file.split('/');
  return parts[0] === 'shared' && parts.length > 2 ? `shared/${parts[1]}` : undefined;
};

function buildGraph() {
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  for (const file of sourceRoots.flatMap(sources)) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = [...text.matchAll(importPattern)]
      .map((match) => resolveSpecifier(file, /** @type {string} */ (match[1])))
      .filter((target) => target !== undefined);
    edges.set(file, [...new Set(targets)]);
  }
  const folderEdges = foldersOf(edges);
  return { edges, component: components(edges), folderEdges, folderComponent: components(folderEdges) };
}

/** The module graph with each folder of shared/ as one node: which folders each imports from. */
export function foldersOf(/** @type {Map<string, string[]>} */ edges) {
  /** @type {Map<string, Set<string>>} */
  const folders = new Map();
  for (const [file, targets] of edges) {
    const from = folderOf(file);
    if (!from) continue;
    const into = folders.get(from) ?? new Set();
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) into.add(to);
    }
    folders.set(from, into);
  }
  return new Map([...folders].map(([folder, into]) => [folder, [...into]]));
}

/** Tarjan's strongly connected components of a graph: each node's component. */
export function components(/** @type {Map<string, string[]>} */ edges) {
  /** @type {Map<string, string[]>} */
  const component = new Map();
  const index = new Map();
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  let counter = 0;
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      /** @type {string[]} */
      const members = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      for (const each of members) component.set(each, members);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return component;
}

/** A shortest path of imports from `start` back to `goal` inside one component. */
function pathBack(
  /** @type {Map<string, string[]>} */ edges,
  /** @type {Set<string>} */ members,
  /** @type {string} */ start,
  /** @type {string} */ goal,
) {
  const previous = new Map([[start, start]]);
  const queue = [start];
  while (queue.length) {
    const node = /** @type {string} */ (queue.shift());
    if (node === goal) break;
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next) || previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  const path = [goal];
  while (path[0] !== start) path.unshift(previous.get(path[0]));
  return path;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: { type: 'problem', docs: { description: 'Forbids import cycles among the modules that run in a Lambda' }, schema: [] },
  create(context) {
    const file = relative(root, context.filename);
    graph ??= buildGraph();
    const { edges, component, folderEdges, folderComponent } = graph;
    const members = new Set(component.get(file) ?? []);
    const selfImport = (edges.get(file) ?? []).includes(file);
    const folder = folderOf(file);
    const folderMembers = new Set((folder && folderComponent.get(folder)) ?? []);
    if (members.size <= 1 && !selfImport && folderMembers.size <= 1) return {};
    /**
     * @param {import('estree').ImportDeclaration | import('estree').ExportNamedDeclaration | import('estree').ExportAllDeclaration} node
     */
    const check = (node) => {
      if (!node.source || ('importKind' in node && node.importKind === 'type') || ('exportKind' in node && node.exportKind === 'type'))
        return;
      const target = resolveSpecifier(file, String(node.source.value));
      if (!target) return;
      if (members.has(target)) {
        const cycle = target === file ? [file, file] : [file, ...pathBack(edges, members, target, file)];
        context.report({ node, message: `Import cycle: ${cycle.join(' → ')}` });
        return;
      }
      const into = folderOf(target);
      if (folder && into && into !== folder && folderMembers.has(into)) {
        const cycle = [folder, ...pathBack(folderEdges, folderMembers, into, folder)];
        context.report({ node, message: `Folder import cycle: ${cycle.join(' → ')} (move what spans them into shared/fulfilment)` });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
