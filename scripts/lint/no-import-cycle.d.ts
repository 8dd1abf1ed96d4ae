/** Types of the lint rule module's pure helpers (no-import-cycle.js), for the tests that try them. */
import type { Rule } from 'eslint';

/** The folder of shared/ a module is in (`shared/orders`), or undefined for the others. */
export function folderOf(file: string): string | undefined;
/** The module graph with each folder of shared/ as one node. */
export function foldersOf(edges: Map<string, string[]>): Map<string, string[]>;
/** Tarjan's strongly connected components of a graph: each node's component. */
export function components(edges: Map<string, string[]>): Map<string, string[]>;
export function resolveSpecifier(from: string, specifier: string): string | undefined;
export const noImportCycle: Rule.RuleModule;
declare const plugin: { rules: { 'no-import-cycle': Rule.RuleModule } };
export default plugin;
