/**
 * Serves the built admin panel (admin/dist) under /admin on the local gateway, as CloudFront does
 * on AWS: static files, index.html for client-side routes, and /admin/config.json generated per
 * request with the origin the browser used, so the panel calls this same gateway (no CORS).
 *
 * Hashed assets are cached for a year; index.html and config.json are revalidated every time.
 * The same security headers as the CloudFront response headers policy (infra/admin.ts) apply.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

export const ADMIN_PATH = '/admin';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Scripts and styles from the panel only; API calls to this origin only (the gateway itself), uploads to the S3
 * emulator's (presigned: docs/files.md), as CloudFront allows S3's domains of the region.
 */
function localSecurityHeaders(uploadOrigin?: string): Record<string, string> {
  const connect = ["'self'", ...(uploadOrigin ? [uploadOrigin] : [])].join(' ');
  return {
    'Content-Security-Policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${connect}; font-src 'self'; frame-src blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

export type AdminHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

/**
 * A request handler for /admin and everything below it; returns false for other paths so the
 * gateway goes on with route matching. `uploadOrigin`: the S3 emulator's, which presigned uploads go to.
 */
export function adminStatic(distDir: string, options: { uploadOrigin?: string } = {}): AdminHandler {
  const root = resolve(distDir);
  const securityHeaders = localSecurityHeaders(options.uploadOrigin);
  return (req, res, url) => {
    const { pathname } = url;
    if (pathname !== ADMIN_PATH && !pathname.startsWith(`${ADMIN_PATH}/`)) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return true;
    }
    if (pathname === ADMIN_PATH) {
      res.writeHead(308, { Location: `${ADMIN_PATH}/${url.search}` });
      res.end();
      return true;
    }
    if (pathname === `${ADMIN_PATH}/config.json`) {
      const body = JSON.stringify({ apiUrl: originOf(req) });
      res.writeHead(200, { 'Content-Type': contentTypes['.json']!, 'Cache-Control': 'no-cache', ...securityHeaders });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    }
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' });
      res.end('The admin panel is not built yet: run `npm run admin:build` (npm start builds it when it is missing).\n');
      return true;
    }
    const file = fileFor(root, pathname.slice(ADMIN_PATH.length + 1));
    // A path with a file extension that does not exist is a missing asset, not a client route.
    if (!file && extname(pathname)) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
      return true;
    }
    send(req, res, file ?? index, method, securityHeaders);
    return true;
  };
}

/** The file under root for a request path, or undefined (also for anything escaping root). */
function fileFor(root: string, relative: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const candidate = resolve(root, normalize(decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
}

function send(req: IncomingMessage, res: ServerResponse, file: string, method: string, securityHeaders: Record<string, string>): void {
  const stat = statSync(file);
  const immutable = file.includes(`${sep}assets${sep}`);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: etag,
    ...securityHeaders,
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': String(stat.size) });
  if (method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

/** The origin the browser used to reach this gateway (Host header), so config.json points back here. */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return `http://${/^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : 'localhost'}`;
}
