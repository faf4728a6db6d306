#!/usr/bin/env node
// `npm run licences`: fails when a production dependency is licensed only under a strong copyleft or
// source-available licence (AGPL, GPL, SSPL). LGPL and permissive licences pass; a dual licence passes
// when one alternative of an OR passes. Reads the installed production tree (`npm query .prod`) of this
// project, or of the folder given as the first argument.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));

/** Licence ids refused in production: AGPL, GPL (any version, -only/-or-later, with exceptions), SSPL. */
export function isForbiddenId(id) {
  const bare = id.replace(/\+$/, '').toUpperCase();
  return /^(AGPL|GPL|SSPL)\b/.test(bare) || /^AFFERO/.test(bare);
}

/**
 * Whether an SPDX expression is acceptable: OR passes when one side does, AND when both do.
 * `GPL-2.0 WITH Classpath-exception-2.0` is still GPL and fails.
 */
export function expressionAllowed(expression) {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let pos = 0;
  const peek = () => tokens[pos]?.toUpperCase();
  const orExpr = () => {
    let ok = andExpr();
    while (peek() === 'OR') {
      pos++;
      ok = andExpr() || ok;
    }
    return ok;
  };
  const andExpr = () => {
    let ok = unit();
    while (peek() === 'AND') {
      pos++;
      ok = unit() && ok;
    }
    return ok;
  };
  const unit = () => {
    const token = tokens[pos++];
    if (token === undefined) throw new Error(`incomplete licence expression "${expression}"`);
    if (token === '(') {
      const ok = orExpr();
      if (tokens[pos++] !== ')') throw new Error(`unbalanced licence expression "${expression}"`);
      return ok;
    }
    if (peek() === 'WITH') pos += 2;
    return !isForbiddenId(token);
  };
  const ok = orExpr();
  if (pos !== tokens.length) throw new Error(`unreadable licence expression "${expression}"`);
  return ok;
}

/** The licence of a package as declared: `license` (string or legacy object) or legacy `licenses`. */
function declaredLicence(pkg) {
  if (typeof pkg.license === 'string' && pkg.license.trim() !== '') return pkg.license.trim();
  if (pkg.license && typeof pkg.license.type === 'string') return pkg.license.type;
  if (Array.isArray(pkg.licenses) && pkg.licenses.length > 0) {
    return `(${pkg.licenses.map((l) => (typeof l === 'string' ? l : l.type)).join(' OR ')})`;
  }
  return null;
}

/** Without a declared licence, the LICENSE file decides: copyleft wording fails, none at all fails. */
function licenceFromFile(dir) {
  const file = existsSync(dir) && readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!file) return { ok: false, licence: 'no licence declared and no LICENSE file' };
  const text = readFileSync(path.join(dir, file), 'utf8');
  if (/GNU AFFERO|GNU GENERAL PUBLIC LICENSE|Server Side Public License/i.test(text)) {
    if (!/GNU LESSER GENERAL PUBLIC/i.test(text)) return { ok: false, licence: `copyleft text in ${file}` };
  }
  return { ok: true, licence: `undeclared, ${file}: ${text.trim().split('\n')[0].slice(0, 60)}` };
}

function main() {
  const out = execFileSync('npm', ['query', '.prod'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const packages = JSON.parse(out).filter((p) => p.path && path.resolve(p.path) !== root);
  const refused = [];
  const notes = [];
  for (const pkg of packages) {
    const name = `${pkg.name}@${pkg.version}`;
    const declared = declaredLicence(pkg);
    if (declared === null) {
      const found = licenceFromFile(pkg.path);
      (found.ok ? notes : refused).push(`${name}: ${found.licence}`);
      continue;
    }
    let ok;
    try {
      ok = expressionAllowed(declared);
    } catch (err) {
      refused.push(`${name}: ${err.message}`);
      continue;
    }
    if (!ok) refused.push(`${name}: ${declared}`);
    else if (/LGPL/i.test(declared)) notes.push(`${name}: ${declared} (allowed: weak copyleft)`);
  }
  for (const note of notes) console.log(`note  ${note}`);
  for (const r of refused) console.error(`REFUSED  ${r}`);
  if (refused.length > 0) {
    console.error(`${refused.length} production dependencies under AGPL/GPL/SSPL or no licence.`);
    process.exit(1);
  }
  console.log(`licences: ${packages.length} production packages, none under AGPL, GPL or SSPL.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
