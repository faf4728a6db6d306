// Size limits of the source under src/ (decision 419), part of `npm run validate`: no file over 400 lines
// and no function over 120 lines, so that each file holds one intent and each function reads as named steps.
// Exempt: the database schema and the built-in templates (long lists of declarations) from the file limit;
// route registration (a function named `...Routes`, the Fastify plugin, and the handlers inside it) and the
// seeding (src/server/db/seed*.ts) from the function limit. Tests are not checked.
// Reads the files through the TypeScript compiler API, so a function is measured from its first to its last line.
// Usage: node scripts/check-sizes.mjs   (exit 1 and one line per file or function over its limit)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;

/** Files allowed over the file limit, and why. */
const FILE_EXCEPTIONS = {
  'src/server/db/schema.ts': 'the tables, one declaration each; splitting them would scatter the schema',
  'src/server/communication/builtin-templates.ts':
    'the texts of the built-in templates, data rather than code',
};
/** Files whose functions are not measured: the seeding, long lists of demo rows. */
const SEED_FILE = /^src\/server\/db\/seed[^/]*\.ts$/;
/** A route plugin: the functions inside it are the handlers it registers. */
const ROUTES_NAME = /Routes$/;

const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel);

const root = fileURLToPath(new URL('..', import.meta.url));
const files = execFileSync('git', ['ls-files', '-z', 'src'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((rel) => /\.tsx?$/.test(rel) && !isTest(rel));

/** The name of a property, variable or function when it is written plainly. */
function plainName(name) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** The name a function goes by: its own, or that of the variable, property or call it is given to. */
function functionName(node, source) {
  const own = plainName(node.name);
  if (own) return own;
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.initializer === node
  ) {
    return plainName(parent.name) ?? '<anonymous>';
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node)) {
    return `${parent.expression.getText(source).replace(/\s+/g, '')}(...) callback`;
  }
  if (ts.isExportAssignment(parent)) return 'default export';
  return '<anonymous>';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

const lineOf = (source, pos) => source.getLineAndCharacterOfPosition(pos).line + 1;

const offenders = [];
for (const rel of files) {
  const text = readFileSync(path.join(root, rel), 'utf8');
  const source = ts.createSourceFile(
    rel,
    text,
    ts.ScriptTarget.Latest,
    true,
    rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const fileLines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  if (fileLines > MAX_FILE_LINES && !FILE_EXCEPTIONS[rel]) {
    offenders.push(`${rel}:1 file (${fileLines} lines)`);
  }
  if (SEED_FILE.test(rel)) continue;
  const visit = (node, inRoutes) => {
    let inside = inRoutes;
    if (isFunction(node) && node.body) {
      const name = functionName(node, source);
      if (ROUTES_NAME.test(name)) inside = true;
      if (!inside) {
        const start = lineOf(source, node.getStart(source));
        const lines = lineOf(source, node.getEnd()) - start + 1;
        if (lines > MAX_FUNCTION_LINES) offenders.push(`${rel}:${start} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, false);
}

if (offenders.length) {
  for (const o of offenders) console.error(o);
  console.error(
    `\n${offenders.length} over the size limits (files ${MAX_FILE_LINES} lines, functions ${MAX_FUNCTION_LINES} lines): split them into named steps or files by intent; see docs/decisions/419-file-and-function-size-limits.md`,
  );
  process.exit(1);
}
console.log(
  `${files.length} files within the size limits (files ${MAX_FILE_LINES} lines, functions ${MAX_FUNCTION_LINES} lines)`,
);
