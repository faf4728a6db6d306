import { formatDate } from '../../shared/dates';

/** Labels of the order fields, as the detail sections name them. */
export const LABELS: Record<string, string> = {
  email: 'Email',
  re_enter_email: 'Re-entered Email',
  first_name: 'First Name',
  last_name: 'Last Name',
  date_of_birth: 'Date of Birth',
  nationality: 'Nationality',
  country_of_birth: 'Country of Birth',
  passport_number: 'Passport Number',
  passport_expiration: 'Passport Expiration',
  arrival_date: 'Arrival Date',
  departure_date: 'Departure Date',
  country_of_departure: 'Country of Departure',
  country_of_residence: 'Country of Residence',
  flight_number: 'Flight Number',
  phone_code: 'Phone Code',
  telephone_number: 'Telephone Number',
};
export const fieldLabel = (field: string): string =>
  LABELS[field] ?? field.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** The order's date fields (stored YYYY-MM-DD, shown and typed day first). */
export const DATE_FIELDS = new Set([
  'date_of_birth',
  'passport_expiration',
  'arrival_date',
  'departure_date',
]);

/** A field's value as the detail page shows it: dates day first, the rest as stored. */
export const fieldValue = (field: string, value: string | null): string =>
  value === null || value === '' ? '-' : DATE_FIELDS.has(field) ? formatDate(value) || value : value;
