/**
 * Whether our receiving server authenticated a message's sender (RFC 8601 `Authentication-Results`).
 * Only a header whose authserv-id is ours (`INBOUND_AUTHSERV_ID`) counts: any other was written by
 * someone we do not trust (the receiving server removes incoming ones carrying its own id).
 * The sender is authenticated for `domain` by `dkim=pass` with `header.d` equal to it or to a parent of
 * it (DMARC relaxed alignment), or by `dmarc=pass` with `header.from` equal to it.
 */
export function senderAuthenticated(
  authResults: readonly string[],
  authservId: string | undefined,
  domain: string,
): boolean {
  const ours = authservId?.trim().toLowerCase();
  const wanted = normalDomain(domain);
  if (!ours || !wanted) return false;
  for (const value of authResults) {
    if (typeof value !== 'string' || value.length > 16_384) continue;
    const [head, ...results] = segments(value);
    if (!head || tokensOf(head)[0]?.toLowerCase() !== ours) continue;
    for (const result of results) if (passes(tokensOf(result), wanted)) return true;
  }
  return false;
}

/** A domain as compared: lower case, no trailing dot; null for anything that is no domain name. */
function normalDomain(value: string | undefined): string | null {
  const d = value?.trim().toLowerCase().replace(/\.$/, '');
  return d && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(d) ? d : null;
}

/** One method's result (`dkim=pass header.d=…`): does it authenticate `domain`? */
function passes(tokens: string[], domain: string): boolean {
  const pairs = tokens.map((t) => {
    const i = t.indexOf('=');
    return i < 0 ? null : { key: t.slice(0, i).trim().toLowerCase(), value: unquote(t.slice(i + 1)) };
  });
  const first = pairs[0];
  if (first?.value.toLowerCase() !== 'pass') return false;
  const property = (key: string) => {
    const found = pairs.find((p) => p?.key === key);
    return found ? normalDomain(found.value) : null;
  };
  if (first.key === 'dkim') {
    const d = property('header.d');
    return d !== null && (d === domain || domain.endsWith(`.${d}`));
  }
  if (first.key === 'dmarc') return property('header.from') === domain;
  return false;
}

const unquote = (v: string) => {
  const t = v.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t;
};

/**
 * The header split at `;` outside quoted strings and comments, comments removed: a `;` inside
 * `reason="…"` or `(…)` never starts a result of its own.
 */
function segments(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && (quoted || depth > 0)) {
      if (depth === 0) current += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (depth > 0) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
      if (depth === 0) current += ' ';
      continue;
    }
    if (quoted) {
      current += c;
      if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') {
      quoted = true;
      current += c;
    } else if (c === '(') depth = 1;
    else if (c === ';') {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((s) => s.trim());
}

const NON_SPACE = /\S/g;

/** A segment's tokens, split at white space outside quoted strings. */
function tokensOf(segment: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (quoted && c === '\\') {
      current += c + (segment[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && /\s/.test(c)) {
      // `header.d = example.com`: white space around "=" joins the property and its value.
      NON_SPACE.lastIndex = i;
      const next = NON_SPACE.exec(segment);
      if (current.endsWith('=') || next?.[0] === '=') {
        i = (next?.index ?? segment.length) - 1;
        continue;
      }
      if (current) out.push(current);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}
