/**
 * Stands in for `node:http` inside Lambda bundles (esbuild alias in infra/bundling.ts). An ES
 * module import of a builtin makes Node build its ESM facade, which reads every export — and
 * node:http's lazy `WebSocket`/`MessageEvent` getters load all of undici (the fetch engine),
 * about 15 ms of every cold start for nothing. Loading node:http through `require` skips the
 * facade. Only what the bundled code imports from node:http is re-exported.
 */
import type * as NodeHttp from 'node:http';
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;

export const { Agent, STATUS_CODES, request, globalAgent } = http;
export default http;
