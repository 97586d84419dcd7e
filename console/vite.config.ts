import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The control plane serves `dist/` at `/` (SPA fallback for non-/v1 paths).
// `npm run dev` proxies the API so the browser stays same-origin, exactly as
// in production: the client only ever uses relative URLs.
const API_TARGET = process.env.STRATA_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      // The schema package registers zod-to-openapi's `.openapi()` at import
      // time. The browser only needs the zod schemas, not the OpenAPI
      // generator (and its YAML writer); a tiny shim keeps the bundle small.
      '@asteasolutions/zod-to-openapi': fileURLToPath(new URL('./src/lib/zod-openapi-shim.ts', import.meta.url)),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/v1': { target: API_TARGET, changeOrigin: false },
      '/healthz': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 300,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod ships comments Rollup cannot place; harmless noise.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/zod/')) return;
        warn(warning);
      },
    },
  },
});
