import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminStatic } from '#local-aws/admin-static';

let server: Server;
let base: string;
const root = mkdtempSync(join(tmpdir(), 'admin-static-'));
const dist = join(root, 'dist');
const missing = join(root, 'not-built');

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>panel</title>');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  writeFileSync(join(root, 'outside.txt'), 'secret');
  const serve = adminStatic(dist);
  const unbuilt = adminStatic(missing);
  const withUploads = adminStatic(dist, { uploadOrigin: 'http://127.0.0.1:4569' });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = req.headers['x-unbuilt'] ? unbuilt : req.headers['x-uploads'] ? withUploads : serve;
    if (!handler(req, res, url)) {
      res.writeHead(418);
      res.end('not mine');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('local admin panel serving', () => {
  it('leaves every other path to the API routes', async () => {
    expect((await fetch(`${base}/v1/webhooks`)).status).toBe(418);
    expect((await fetch(`${base}/administrator`)).status).toBe(418);
  });

  it('redirects /admin to /admin/ and answers client routes with index.html', async () => {
    const redirect = await fetch(`${base}/admin?x=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/admin/?x=1');
    for (const path of ['/admin/', '/admin/settings/webhooks/3/deliveries/wh_abc']) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('content-security-policy')).toContain('frame-src blob:'); // invoice PDFs and labels, inline
      expect(await response.text()).toContain('<title>panel</title>');
    }
  });

  it('serves hashed assets for a year and 404s missing files', async () => {
    const asset = await fetch(`${base}/admin/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = asset.headers.get('etag')!;
    expect((await fetch(`${base}/admin/assets/index-abc123.js`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(`${base}/admin/assets/index-gone.js`)).status).toBe(404);
  });

  it('answers config.json with the origin the browser used', async () => {
    const response = await fetch(`${base}/admin/config.json`);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual({ apiUrl: base });
  });

  it('never leaves the build folder and accepts only GET and HEAD', async () => {
    for (const path of [
      '/admin/..%2foutside.txt',
      '/admin/assets/..%2f..%2foutside.txt',
      '/admin/%2e%2e%2foutside.txt',
      '/admin/..%5coutside.txt',
    ]) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('secret');
    }
    const post = await fetch(`${base}/admin/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('lets the panel connect to this gateway only, and to the S3 emulator when given (presigned uploads)', async () => {
    const connectSrc = async (headers: Record<string, string> = {}) =>
      /connect-src ([^;]*)/.exec((await fetch(`${base}/admin/`, { headers })).headers.get('content-security-policy') ?? '')?.[1];
    expect(await connectSrc()).toBe("'self'");
    expect(await connectSrc({ 'x-uploads': '1' })).toBe("'self' http://127.0.0.1:4569");
  });

  it('says how to build the panel when it is not built', async () => {
    const response = await fetch(`${base}/admin/`, { headers: { 'x-unbuilt': '1' } });
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run admin:build');
  });
});
