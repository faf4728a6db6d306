import { describe, expect, it } from 'vitest';
import { senderAuthenticated } from './sender-authentication.js';

const OURS = 'mx.edcard.test';

describe('senderAuthenticated', () => {
  it.each([
    ['dkim=pass for the domain', [`${OURS}; dkim=pass header.d=gov.aw header.s=s1`], 'gov.aw', true],
    ['dkim=pass for a parent domain', [`${OURS}; dkim=pass header.d=gov.aw`], 'mail.gov.aw', true],
    ['dmarc=pass for the domain', [`${OURS}; spf=fail; dmarc=pass header.from=gov.aw`], 'gov.aw', true],
    [
      'the authserv-id in another case, with a version',
      [`MX.EDCARD.TEST 1; dkim=pass header.d=GOV.AW`],
      'gov.aw',
      true,
    ],
    ['a comment and quotes', [`${OURS} (our mx); dkim=pass (good sig) header.d="gov.aw"`], 'gov.aw', true],
    [
      'a second header of ours',
      ['other.example; dkim=pass header.d=gov.aw', `${OURS}; dkim=pass header.d=gov.aw`],
      'gov.aw',
      true,
    ],
    ['another authserv-id', ['mx.attacker.example; dkim=pass header.d=gov.aw'], 'gov.aw', false],
    ['dkim=fail', [`${OURS}; dkim=fail header.d=gov.aw`], 'gov.aw', false],
    [
      'dkim for another domain (spoofed From)',
      [`${OURS}; dkim=pass header.d=attacker.example`],
      'gov.aw',
      false,
    ],
    ['dkim for a child, not a parent', [`${OURS}; dkim=pass header.d=mail.gov.aw`], 'gov.aw', false],
    ['dkim for a look-alike', [`${OURS}; dkim=pass header.d=evilgov.aw`], 'gov.aw', false],
    ['dkim for the top-level domain alone', [`${OURS}; dkim=pass header.d=aw`], 'gov.aw', false],
    ['dmarc=pass for a parent only', [`${OURS}; dmarc=pass header.from=gov.aw`], 'mail.gov.aw', false],
    ['no header at all', [], 'gov.aw', false],
    ['a result hidden in a comment', [`${OURS}; none (dkim=pass header.d=gov.aw)`], 'gov.aw', false],
  ])('%s → %s', (_name, results, domain, expected) => {
    expect(senderAuthenticated(results, OURS, domain)).toBe(expected);
  });

  it('authenticates nothing without an authserv-id', () => {
    expect(senderAuthenticated([`${OURS}; dkim=pass header.d=gov.aw`], undefined, 'gov.aw')).toBe(false);
    expect(senderAuthenticated([`; dkim=pass header.d=gov.aw`], '', 'gov.aw')).toBe(false);
  });
});
