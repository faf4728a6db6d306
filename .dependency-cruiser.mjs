// Import rules checked by `npm run cycles` (part of `npm run validate`): no module reaches itself again
// through its imports, type-only imports included (docs/decisions/338).
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: move what both sides need into a module of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
