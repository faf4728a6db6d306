/**
 * Whether a message's sender is authenticated for a domain by our own receiving server
 * (docs/product.md, "Submitting to the government"): some Authentication-Results value whose
 * authserv-id (its first token before `;`, case aside) equals `authservId` says `dkim=pass` with
 * `header.d` equal to `domain` or a parent of it, or `dmarc=pass` with `header.from` equal to `domain`.
 * Results added by any other server (another authserv-id, or a header the sender wrote) are ignored;
 * without an authserv-id configured nothing is authenticated.
 */
export function senderAuthenticated(
  authResults: readonly string[],
  authservId: string | undefined,
  domain: string,
): boolean {
  const ours = authservId?.trim().toLowerCase();
  const sender = normaliseDomain(domain);
  if (!ours || !sender) return false;
  for (const value of authResults) {
    const parts = stripComments(value).split(';');
    const head = parts[0]?.trim().split(/\s+/)[0]?.toLowerCase();
    if (head !== ours) continue;
    for (const resinfo of parts.slice(1)) {
      const props = properties(resinfo);
      if (props.get('dkim') === 'pass') {
        const d = normaliseDomain(props.get('header.d') ?? '');
        if (d?.includes('.') && (d === sender || sender.endsWith(`.${d}`))) return true;
      }
      if (props.get('dmarc') === 'pass' && normaliseDomain(props.get('header.from') ?? '') === sender)
        return true;
    }
  }
  return false;
}

/** RFC 8601 comments, `(…)`, nested or not, removed. */
function stripComments(value: string): string {
  let out = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** `method=result ptype.property=value …` as a map of lower-case names to lower-case values. */
function properties(resinfo: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of resinfo.matchAll(/([A-Za-z0-9._-]+)\s*=\s*("([^"]*)"|[^\s;]+)/g)) {
    const name = m[1]!.toLowerCase();
    if (!map.has(name)) map.set(name, (m[3] ?? m[2]!).toLowerCase());
  }
  return map;
}

function normaliseDomain(value: string): string | null {
  const d = value.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(d) ? d : null;
}
