import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { customerBuild } from './vite.customer.config.js';

export default defineConfig({
  root: 'src/client',
  plugins: [react(), customerBuild()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
