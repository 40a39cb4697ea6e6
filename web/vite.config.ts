import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './build-plugins/compress-assets';

// The API runs on :8080 (server/); in dev and preview the browser talks to Vite, which forwards /api.
const apiProxy = { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } };

// Each contracts module that defines zod schemas, and zod itself, is a chunk of its own. Left to
// Rollup, a module reached from the entry (messages.ts re-exports a text of auth.ts) would sit in the
// entry chunk with every schema a later screen uses from it, and zod with them: the public area's
// first load would carry all of zod (SPEC's budget: 110 KB gzip, measured by bench/pages).
function chooseChunk(moduleId: string): string | undefined {
  if (/[\\/]node_modules[\\/]zod[\\/]/.test(moduleId)) return 'zod';
  const contractsModule = /[\\/]packages[\\/]contracts[\\/]src[\\/](.+)\.ts$/.exec(moduleId)?.[1];
  if (contractsModule && contractsModule !== 'messages' && contractsModule !== 'paging') {
    return `contracts-${contractsModule.replace(/[\\/]/g, '-')}`;
  }
  return undefined;
}

export default defineConfig({
  plugins: [react(), compressAssets()],
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each route loads, for the first-load budgets (bench/pages).
    manifest: true,
    // Every browser the app supports has <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: { manualChunks: chooseChunk },
      // The contracts only declare schemas and constants: importing one for a text must not load the
      // rest (the package has no "sideEffects": false to say so, being TypeScript read in place).
      treeshake: { moduleSideEffects: (moduleId) => !/[\\/]packages[\\/]contracts[\\/]/.test(moduleId) },
    },
  },
});
