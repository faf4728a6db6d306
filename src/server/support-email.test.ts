import { describe, expect, it } from 'vitest';
import { brandFor } from '../shared/brand.js';
import { fallbackSupportEmail, loadConfig } from './config.js';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), PUBLIC_SITE_URL: 'http://127.0.0.1:3000' };

describe('the support address without SUPPORT_EMAIL (decision 361)', () => {
  it("is MAIL_FROM's sender address, never an address at the site's IP address or localhost", () => {
    const config = loadConfig({ ...base, MAIL_FROM: 'ED-Card <help@ed-card.example>' });
    expect(config.SUPPORT_EMAIL).toBe('help@ed-card.example');
    const brand = brandFor(null, { siteUrl: config.PUBLIC_SITE_URL, supportEmail: config.SUPPORT_EMAIL });
    expect(brand.supportEmail).toBe('help@ed-card.example');
    expect(loadConfig({ ...base, MAIL_FROM: 'care@aruba-card.example' }).SUPPORT_EMAIL).toBe(
      'care@aruba-card.example',
    );
    // The default MAIL_FROM: its domain, not the site host 127.0.0.1.
    expect(loadConfig(base).SUPPORT_EMAIL).toBe('no-reply@ed-card.test');
    expect(loadConfig({ ...base, SUPPORT_EMAIL: 'desk@ed-card.example' }).SUPPORT_EMAIL).toBe(
      'desk@ed-card.example',
    );
  });

  it('a sender at an IP address or localhost falls back to APP_MAIL_DOMAIN', () => {
    expect(fallbackSupportEmail('App <no-reply@127.0.0.1>', 'mail.ed-card.example')).toBe(
      'support@mail.ed-card.example',
    );
    expect(fallbackSupportEmail('no-reply@localhost', 'ed-card.example')).toBe('support@ed-card.example');
    expect(fallbackSupportEmail('x@[::1]', 'localhost')).toBe('support@ed-card.test');
    expect(fallbackSupportEmail('not an address', '10.0.0.1')).toBe('support@ed-card.test');
  });
});
