import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './build-plugins/compress-assets';

// The API runs on :8080 (server/); in dev and preview the browser talks to Vite, which forwards /api.
const apiProxy = { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } };

export default defineConfig({
  plugins: [react(), compressAssets()],
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: { outDir: 'dist', emptyOutDir: true },
});
