import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser UI of `adk serve`, built into dist/web at package build time.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: { outDir: '../../dist/web', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1000 },
  logLevel: 'warn',
});
