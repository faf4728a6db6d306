import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';

/** The budget: the JavaScript a phone loads for the track page, gzip. */
export const TRACK_PAGE_BUDGET_BYTES = 60 * 1024;

/** Preact stands in for React in the customer build only (docs/decisions/050). */
const PREACT_ALIASES = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // The page's messages are compiled ASTs (scripts/i18n-compile.mjs): intl-messageformat without its ICU
  // parser (docs/decisions/213).
  {
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: '@formatjs/icu-messageformat-parser/lib/no-parser.js',
  },
];

type Output = Rolldown.RolldownOutput;

/** Gzip size of the entry chunk of customer/index.html and every chunk it imports statically. */
export function trackPageScriptBytes(outputs: Output[], outDir: string): { bytes: number; files: string[] } {
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const out of outputs) {
    for (const item of out.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  }
  const entry = [...chunks.values()].find((c) => c.isEntry);
  if (!entry) throw new Error('customer build: no entry chunk');
  const files = new Set<string>();
  const visit = (name: string) => {
    if (files.has(name)) return;
    files.add(name);
    for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
  };
  visit(entry.fileName);
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length;
  return { bytes, files: [...files] };
}

/**
 * After the SPA build, builds the customer page (src/client/customer/index.html) into the same output
 * folder with Preact aliases, and fails the build when the track page's script exceeds its budget.
 */
export function customerBuild(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'edcard-customer-build',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const result = await build({
        configFile: false,
        root: config.root,
        base: config.base,
        mode: config.mode,
        logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel,
        publicDir: false,
        plugins: [react()],
        resolve: { alias: PREACT_ALIASES },
        build: {
          outDir,
          emptyOutDir: false,
          // Same maps as the SPA build (the size script reads them); no manifest: it would overwrite the SPA's.
          sourcemap: config.build.sourcemap,
          manifest: false,
          target: 'es2022',
          rolldownOptions: {
            input: path.join(config.root, 'customer', 'index.html'),
            output: {
              entryFileNames: 'assets/customer-[hash].js',
              chunkFileNames: 'assets/customer-[name]-[hash].js',
              assetFileNames: 'assets/customer-[name]-[hash][extname]',
            },
          },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Output[];
      const { bytes, files } = trackPageScriptBytes(outputs, outDir);
      const kb = (bytes / 1024).toFixed(1);
      if (bytes > TRACK_PAGE_BUDGET_BYTES) {
        throw new Error(
          `customer track page script is ${kb} KB gzip, over its ${TRACK_PAGE_BUDGET_BYTES / 1024} KB budget (${files.join(', ')})`,
        );
      }
      config.logger.info(`customer page: track page script ${kb} KB gzip (budget 60 KB)`);
    },
  };
}
