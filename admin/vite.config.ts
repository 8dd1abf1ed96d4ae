/**
 * The admin panel's build: a static single-page app under /admin/ (the same path locally and on
 * CloudFront). `npm run admin:build` writes admin/dist; `npm run admin:dev` serves it with hot
 * reload and forwards the API (and the runtime config) to `npm start` on port 3000.
 */
import { defineConfig } from 'vite';

const api = process.env.ADMIN_DEV_API ?? 'http://localhost:3000';

export default defineConfig({
  base: '/admin/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle; no source maps shipped to browsers.
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    strictPort: true,
    // The gateway answers /admin/config.json with the origin it was asked on, i.e. this server,
    // so the panel's API calls come back here and are forwarded too.
    proxy: { '/v1': { target: api }, '/admin/config.json': { target: api, changeOrigin: false } },
  },
});
