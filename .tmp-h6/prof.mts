import { runOrderChecks, emailSuggestion, isKnownCountry } from '../src/shared/order-checks.ts';
const o = { email: 'ana.lee7@gmail.com', re_enter_email: 'ana.lee7@gmail.com', arrival_date: '2026-12-10', departure_date: '2026-12-17', passport_number: 'A12345678', passport_expiration: '2030-01-01', first_name: 'Ana', last_name: 'Lee', nationality: 'United States of America', date_of_birth: '1985-04-12', country_of_birth: 'United States of America', country_of_departure: 'United States of America', country_of_residence: 'USA', flight_number: 'B6 1234', phone_code: '1', telephone_number: '2125550100' };
for (const [name, f] of [['all', () => runOrderChecks(o, { today: '2026-11-25' })], ['mail', () => emailSuggestion(o.email)], ['country', () => isKnownCountry('United States of America')]] as const) {
  f();
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) f();
  console.log(name, ((performance.now() - t0) / 1000).toFixed(3), 'ms each');
}
