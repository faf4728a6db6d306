import { describe, expect, it } from 'vitest';
import { serviceToday } from './dates.js';
import {
  ageOn,
  type CheckedOrder,
  checkLevel,
  isKnownCountry,
  passportOfFormat,
  runOrderChecks,
} from './order-checks.js';

const TODAY = '2026-11-25';
const good: CheckedOrder = {
  email: 'ana@gmail.com',
  re_enter_email: 'ana@gmail.com',
  arrival_date: '2026-12-10',
  departure_date: '2026-12-17',
  passport_number: '123456789',
  passport_expiration: '2030-01-01',
  first_name: 'Ana María',
  last_name: "O'Neil-Pérez",
  nationality: 'United States of America',
  date_of_birth: '1985-04-12',
  country_of_birth: 'United States of America',
  country_of_departure: 'USA',
  country_of_residence: 'USA',
  flight_number: 'B6 1234',
  phone_code: '1',
  telephone_number: '2125550100',
};
const codes = (o: Partial<CheckedOrder>, opts: Partial<Parameters<typeof runOrderChecks>[1]> = {}) =>
  runOrderChecks({ ...good, ...o }, { today: TODAY, ...opts }).map((c) => c.code);

describe('order checks', () => {
  it('a good order passes every check', () => {
    expect(runOrderChecks(good, { today: TODAY })).toEqual([]);
  });

  it('passport expiry against today and the departure day (the departure day itself is still valid)', () => {
    expect(codes({ passport_expiration: '2026-11-24' })).toEqual(['passport_expired']);
    expect(codes({ passport_expiration: TODAY })).toEqual(['passport_expires_during_trip']);
    expect(codes({ passport_expiration: '2026-12-16' })).toEqual(['passport_expires_during_trip']);
    expect(codes({ passport_expiration: '2026-12-17' })).toEqual([]);
    const [check] = runOrderChecks({ ...good, passport_expiration: '2026-12-16' }, { today: TODAY });
    expect(check).toMatchObject({
      severity: 'block',
      fields: ['passport_expiration', 'departure_date'],
      params: { expiry: '2026-12-16', departure: '2026-12-17' },
    });
    // Without a departure date the trip ends on the arrival day.
    expect(codes({ departure_date: null, passport_expiration: '2026-12-09' })).toEqual([
      'passport_expires_during_trip',
    ]);
  });

  it('a configurable minimum validity after departure', () => {
    const opts = { minPassportValidityDays: 90 };
    expect(codes({ passport_expiration: '2027-03-16' }, opts)).toEqual(['passport_validity_short']);
    expect(codes({ passport_expiration: '2027-03-17' }, opts)).toEqual([]);
    expect(codes({ passport_expiration: '2026-12-17' }, opts)).toEqual(['passport_validity_short']);
  });

  it('an arrival in the past only for an open order', () => {
    expect(codes({ arrival_date: '2026-11-24', departure_date: '2026-12-01' })).toEqual(['arrival_past']);
    expect(codes({ arrival_date: TODAY })).toEqual([]);
    expect(codes({ arrival_date: '2026-11-24', departure_date: '2026-12-01' }, { open: false })).toEqual([]);
  });

  it('service day, not UTC: 23:30 in New York is still the 25th', () => {
    const today = serviceToday(new Date('2026-11-26T04:30:00Z'));
    expect(today).toBe('2026-11-25');
    expect(codes({ arrival_date: '2026-11-25', departure_date: '2026-11-30' }, { today })).toEqual([]);
    // Daylight saving time: 23:30 EDT on 1 July is 03:30 UTC on 2 July.
    expect(serviceToday(new Date('2026-07-02T03:30:00Z'))).toBe('2026-07-01');
  });

  it('departure before arrival', () => {
    expect(codes({ departure_date: '2026-12-09' })).toEqual(['departure_before_arrival']);
    expect(codes({ departure_date: '2026-12-10' })).toEqual([]);
  });

  it('date of birth in the future, an age over 120, a minor (info)', () => {
    expect(codes({ date_of_birth: '2026-11-26' })).toEqual(['birth_date_future']);
    expect(codes({ date_of_birth: TODAY })).toEqual(['minor']);
    expect(codes({ date_of_birth: '1905-11-26' })).toEqual([]); // 120 until tomorrow
    expect(codes({ date_of_birth: '1905-11-25' })).toEqual(['age_over_120']); // 121 today
    // 18 on the arrival day is no longer a minor; the day before is.
    expect(codes({ date_of_birth: '2008-12-10' })).toEqual([]);
    expect(codes({ date_of_birth: '2008-12-11' })).toEqual(['minor']);
    expect(runOrderChecks({ ...good, date_of_birth: '2010-01-01' }, { today: TODAY })[0]).toMatchObject({
      severity: 'info',
      params: { age: '16' },
    });
    expect(checkLevel(runOrderChecks({ ...good, date_of_birth: '2010-01-01' }, { today: TODAY }))).toBe(0);
  });

  it('leap years: born on 29 February turns a year older on 1 March in common years', () => {
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
    expect(ageOn('2008-02-29', '2028-02-29')).toBe(20);
    expect(
      codes(
        { date_of_birth: '2008-02-29', arrival_date: '2026-02-28', departure_date: '2026-03-02' },
        { today: '2026-02-01' },
      ),
    ).toEqual(['minor']);
    expect(
      codes(
        { date_of_birth: '2008-02-29', arrival_date: '2026-03-01', departure_date: '2026-03-02' },
        { today: '2026-02-01' },
      ),
    ).toEqual([]);
    // A passport expiring on 29 February of a leap year, departure 1 March.
    expect(
      codes({ arrival_date: '2028-02-20', departure_date: '2028-03-01', passport_expiration: '2028-02-29' }),
    ).toEqual(['passport_expires_during_trip']);
    // 2026-02-29 does not exist: the field is not a date and is not compared.
    expect(ageOn('2008-02-29', '2026-02-29')).toBeNull();
  });

  it('e-mail and re-entered e-mail differ (case and spaces aside)', () => {
    expect(codes({ re_enter_email: ' ANA@gmail.com ' })).toEqual([]);
    expect(codes({ re_enter_email: 'ana@gmail.co' })).toEqual(['email_mismatch']);
    expect(codes({ re_enter_email: null })).toEqual([]);
  });

  it('a likely mistyped e-mail domain, with the suggestion', () => {
    const [typo] = runOrderChecks(
      { ...good, email: 'ana@gmial.com', re_enter_email: null },
      { today: TODAY },
    );
    expect(typo).toEqual({
      code: 'email_typo',
      severity: 'warn',
      fields: ['email'],
      params: { suggestion: 'ana@gmail.com' },
    });
    expect(codes({ email: 'ana@hotmial.com', re_enter_email: null })).toEqual(['email_typo']);
    expect(codes({ email: 'ana@yahooo.com', re_enter_email: null })).toEqual(['email_typo']);
    expect(codes({ email: 'ana@example.com', re_enter_email: null })).toEqual([]);
    expect(codes({ email: 'ana@gmail.con', re_enter_email: null })).toEqual(['email_typo']);
    for (const email of [
      'ana@bureau-aruba.aw',
      'ana@setarnet.aw',
      'ana@yahoo.com.br',
      'ana@uol.com.br',
      'ana@ziggo.nl',
    ])
      expect(codes({ email, re_enter_email: null })).toEqual([]);
  });

  it('a phone number impossible for its country code', () => {
    expect(codes({ telephone_number: '212555' })).toEqual(['phone_impossible']);
    expect(codes({ phone_code: '297', telephone_number: '5821234' })).toEqual([]);
    expect(codes({ phone_code: '297', telephone_number: '58212345678' })).toEqual(['phone_impossible']);
    expect(codes({ phone_code: '44', telephone_number: '20 7946 0958' })).toEqual([]);
    expect(codes({ telephone_number: null })).toEqual([]);
  });

  it('a country field that is not a known country', () => {
    expect(isKnownCountry('Netherlands')).toBe(true);
    expect(isKnownCountry('NLD')).toBe(true);
    expect(isKnownCountry('UK')).toBe(true);
    expect(isKnownCountry('Narnia')).toBe(false);
    const [check] = runOrderChecks(
      { ...good, nationality: 'Narnia', country_of_residence: 'XYZ' },
      { today: TODAY },
    );
    expect(check).toMatchObject({ code: 'country_unknown', fields: ['nationality', 'country_of_residence'] });
  });

  it('digits or control characters in a name', () => {
    expect(codes({ first_name: 'Ana2' })).toEqual(['name_characters']);
    expect(codes({ last_name: 'Lee\u0007' })).toEqual(['name_characters']);
    expect(codes({ first_name: 'Zoë', last_name: 'Nguyễn' })).toEqual([]);
  });

  it('a flight number is an airline code and digits', () => {
    for (const ok of ['B6 1234', 'KL765', 'AA-1', 'U2 8123', 'KLM765', '2K 45'])
      expect(codes({ flight_number: ok })).toEqual([]);
    for (const bad of ['1234', 'JetBlue', 'B6', '12 345', 'AA 12345'])
      expect(codes({ flight_number: bad })).toEqual(['flight_number_shape']);
  });

  it('passport number shapes: the nationality’s format where known, a plausible one for all', () => {
    expect(codes({ passport_number: 'A1234567' })).toEqual(['passport_number_shape']); // US: 9 characters
    expect(codes({ passport_number: 'A12345678' })).toEqual([]);
    expect(
      codes({ nationality: 'Netherlands', country_of_birth: 'Netherlands', passport_number: 'NW-K9 2R3 F1' }),
    ).toEqual([]);
    expect(
      codes({ nationality: 'Netherlands', country_of_birth: 'Netherlands', passport_number: 'NO1234567' }),
    ).toEqual(['passport_number_shape']);
    expect(codes({ nationality: 'Aruba', country_of_birth: 'Aruba', passport_number: 'P-12' })).toEqual([
      'passport_number_shape',
    ]);
    expect(codes({ nationality: 'Aruba', country_of_birth: 'Aruba', passport_number: 'P12345' })).toEqual([]);
  });

  it('passportOfFormat makes a number every known format accepts', () => {
    for (const nationality of [
      'USA',
      'Canada',
      'United Kingdom',
      'Netherlands',
      'Germany',
      'France',
      'India',
      'Brazil',
      'Colombia',
      'Venezuela',
      'Aruba',
    ]) {
      const passport_number = passportOfFormat(nationality, 'o', '12345678');
      expect(codes({ nationality, country_of_birth: nationality, passport_number }), nationality).toEqual([]);
    }
  });

  it('a raised flag becomes its check; blocking checks come first', () => {
    const checks = runOrderChecks(
      { ...good, date_of_birth: '2015-01-01', flight_number: 'x' },
      { today: TODAY, flags: ['early_fraud_warning'] },
    );
    expect(checks.map((c) => [c.code, c.severity])).toEqual([
      ['early_fraud_warning', 'block'],
      ['flight_number_shape', 'warn'],
      ['minor', 'info'],
    ]);
    expect(checkLevel(checks)).toBe(2);
  });
});
