/** Like node-http.ts for `node:https`: required, not imported, so its ESM facade (and node:tls's) is not built at cold start. */
import type * as NodeHttps from 'node:https';
import { createRequire } from 'node:module';

const https = createRequire(import.meta.url)('node:https') as typeof NodeHttps;

export const { Agent, request, globalAgent } = https;
export default https;
