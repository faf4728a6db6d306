import { describe, expect, it } from 'vitest';
import { senderAuthenticated } from './sender-authentication.js';

const ID = 'mx.ed-card.test';

describe('senderAuthenticated: our receiving server said the sender is who it claims', () => {
  it.each([
    ['dkim=pass for the domain', `${ID}; dkim=pass header.d=example.com header.s=sel`, 'example.com'],
    [
      'dkim=pass for a parent domain (relaxed alignment)',
      `${ID}; dkim=pass header.d=example.com`,
      'mail.example.com',
    ],
    [
      'dmarc=pass for the domain',
      `${ID}; spf=fail; dmarc=pass (p=reject) header.from=example.com`,
      'example.com',
    ],
    [
      'the authserv-id in another case, with a version',
      `MX.ED-Card.Test 1; dkim=pass header.d=example.com`,
      'example.com',
    ],
    [
      'quoted values, spaces around "=", trailing dot',
      `${ID};\r\n\tdkim = pass header.d = "Example.COM."`,
      'example.com',
    ],
    [
      'a comment in between',
      `${ID} (our server); dkim=pass (good signature) header.d=example.com`,
      'example.com',
    ],
  ])('%s', (_name, header, domain) => {
    expect(senderAuthenticated([header], ID, domain)).toBe(true);
  });

  it.each([
    ['no authserv-id configured', [`${ID}; dkim=pass header.d=example.com`], undefined, 'example.com'],
    ['an empty authserv-id configured', [`${ID}; dkim=pass header.d=example.com`], '', 'example.com'],
    ['another server wrote it', ['evil.example; dkim=pass header.d=example.com'], ID, 'example.com'],
    ['our id as a suffix of another', [`x${ID}; dkim=pass header.d=example.com`], ID, 'example.com'],
    ['dkim failed', [`${ID}; dkim=fail header.d=example.com`], ID, 'example.com'],
    ['dkim "passed" is no pass', [`${ID}; dkim=passed header.d=example.com`], ID, 'example.com'],
    ['dkim=pass for another domain', [`${ID}; dkim=pass header.d=attacker.example`], ID, 'example.com'],
    ['dkim=pass for a child domain only', [`${ID}; dkim=pass header.d=mail.example.com`], ID, 'example.com'],
    ['a look-alike suffix', [`${ID}; dkim=pass header.d=ample.com`], ID, 'example.com'],
    ['dkim=pass without header.d', [`${ID}; dkim=pass header.i=@example.com`], ID, 'example.com'],
    [
      'dmarc=pass for a parent is not strict alignment',
      [`${ID}; dmarc=pass header.from=example.com`],
      ID,
      'mail.example.com',
    ],
    ['spf=pass alone', [`${ID}; spf=pass smtp.mailfrom=example.com`], ID, 'example.com'],
    [
      'a pass hidden in a comment',
      [`${ID}; dkim=fail (dkim=pass header.d=example.com) header.d=x.test`],
      ID,
      'example.com',
    ],
    [
      'a pass hidden in a quoted reason with ";"',
      [`${ID}; dkim=fail reason="x; dkim=pass header.d=example.com"`],
      ID,
      'example.com',
    ],
    ['a pass in the authserv-id segment', [`${ID} dkim=pass header.d=example.com`], ID, 'example.com'],
    ['an unterminated comment', [`${ID}; dkim=fail (; dkim=pass header.d=example.com`], ID, 'example.com'],
    [
      'an unterminated quote',
      [`${ID}; dkim=fail reason="; dkim=pass header.d=example.com`],
      ID,
      'example.com',
    ],
    ['a NUL in the domain', [`${ID}; dkim=pass header.d=example.com\u0000.attacker`], ID, 'example.com'],
    ['a TLD as header.d', [`${ID}; dkim=pass header.d=com`], ID, 'example.com'],
    ['an empty domain asked', [`${ID}; dkim=pass header.d=example.com`], ID, ''],
    ['no header', [], ID, 'example.com'],
    ['an empty header', [''], ID, 'example.com'],
    ['none', [`${ID}; none`], ID, 'example.com'],
  ] as const)('%s: not authenticated', (_name, headers, id, domain) => {
    expect(senderAuthenticated(headers, id, domain)).toBe(false);
  });

  it('reads every header: one of another server and then ours', () => {
    expect(
      senderAuthenticated(
        ['evil.example; dkim=fail header.d=example.com', `${ID}; dkim=pass header.d=example.com`],
        ID,
        'example.com',
      ),
    ).toBe(true);
  });

  it('hostile sizes answer at once', () => {
    const started = performance.now();
    const spaces = `${ID}; dkim=pass${' '.repeat(16_000)}= x header.d=example.org`;
    const parens = `${ID}; ${'('.repeat(16_000)}dkim=pass header.d=example.com`;
    const huge = `${ID}; dkim=pass header.d=example.com ${'a'.repeat(100_000)}`;
    const many = Array.from({ length: 200 }, () => `${ID}; ${'dkim=fail header.d=x.test; '.repeat(300)}`);
    expect(senderAuthenticated([spaces, parens, huge, ...many], ID, 'example.com')).toBe(false);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
