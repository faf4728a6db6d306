import { describe, expect, it } from 'vitest';
import { brandAt, brandFor, customerBrandOf } from './brand.js';

describe('brands', () => {
  const opts = { siteUrl: 'https://ed.example/', altLandingHost: 'aruba-card.example' };

  it('gives an order from the alternate landing host the alternate brand, any other the main one', () => {
    expect(brandFor('ARUBA-CARD.example', opts)).toMatchObject({
      key: 'alt',
      name: 'Aruba Card',
      siteUrl: 'https://aruba-card.example',
      supportEmail: 'support@aruba-card.example',
    });
    const main = brandFor('other.example', opts);
    expect(main).toMatchObject({ key: 'main', name: 'Aruba ED Card', supportEmail: 'support@ed.example' });
    expect(main.links.terms).toBe('https://ed.example/terms-and-conditions');
    expect(brandFor('aruba-card.example', { siteUrl: 'https://ed.example' }).key).toBe('main');
  });

  it('the customer page gets the same links plus home and apply; benefits on the main brand only', () => {
    const main = customerBrandOf(brandFor(null, opts));
    expect(main.links).toMatchObject({
      home: 'https://ed.example/',
      apply: 'https://ed.example/apply-now',
      benefits: 'https://ed.example/additional-benefits',
      contact: 'https://ed.example/contact-us',
    });
    expect(customerBrandOf(brandFor('aruba-card.example', opts)).links.benefits).toBeUndefined();
  });

  it('the fallback without a site has links relative to the page', () => {
    const fallback = customerBrandOf(brandAt('main', '', 'ed-card.test'));
    expect(fallback.links.home).toBe('/');
    expect(fallback.links.refund).toBe('/refund-policy');
    expect(fallback.supportEmail).toBe('support@ed-card.test');
  });

  it('SUPPORT_EMAIL replaces the address built from the site host, on every brand', () => {
    const set = { ...opts, supportEmail: 'help@ed-card.example' };
    expect(brandFor(null, set).supportEmail).toBe('help@ed-card.example');
    expect(brandFor('aruba-card.example', set).supportEmail).toBe('help@ed-card.example');
    expect(brandFor(null, opts).supportEmail).toBe('support@ed.example');
  });
});
