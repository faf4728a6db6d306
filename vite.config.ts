import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { customerBuild } from './vite.customer.config.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Text files worth compressing; source maps are for the size script, never sent to browsers. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Brotli and gzip copies (x.js.br, x.js.gz) of every text file of the build, the customer page's
 * included: the server sends them to browsers that accept them (preCompressed in src/server/app.ts,
 * docs/decisions/284). Runs after the customer build, which writes into the same folder.
 */
function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'edcard-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        const files = (await readdir(outDir, { recursive: true })).filter((f) => COMPRESSIBLE.test(f));
        let written = 0;
        await Promise.all(
          files.map(async (file) => {
            const full = path.join(outDir, file);
            if (!(await stat(full)).isFile()) return;
            const raw = await readFile(full);
            if (raw.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(raw, {
                params: {
                  // Quality 9: within 2–6 % of the maximum (11) at an eighth of its time.
                  [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
                  [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
                },
              }),
              gzipAsync(raw, { level: 9 }),
            ]);
            // Only where it pays: already-compact files are sent as they are.
            if (br.length < raw.length * 0.9) {
              await writeFile(`${full}.br`, br);
              written++;
            }
            if (gz.length < raw.length * 0.9) await writeFile(`${full}.gz`, gz);
          }),
        );
        config.logger.info(`precompress: brotli and gzip copies of ${written} files`);
      },
    },
  };
}

export default defineConfig({
  root: 'src/client',
  plugins: [react(), customerBuild(), precompress()],
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
