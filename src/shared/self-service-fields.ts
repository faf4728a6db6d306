/**
 * The fields a traveller may change on the track page (a subset of what staff may correct). Kept apart
 * from the contracts, without zod: the customer page imports it (docs/decisions/050, the page's size).
 */
export const CUSTOMER_EDITABLE_FIELDS = [
  'first_name',
  'last_name',
  'passport_number',
  'passport_expiration',
  'date_of_birth',
  'nationality',
  'arrival_date',
  'departure_date',
  'flight_number',
  'phone_code',
  'telephone_number',
] as const;
export type CustomerEditableField = (typeof CUSTOMER_EDITABLE_FIELDS)[number];
