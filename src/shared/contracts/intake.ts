import { z } from 'zod';
import { PROCESSING_MODES } from '../constants.js';
import { isoDate, multilineText, text as t } from './common.js';

/** A payment's risk levels as providers score them (Stripe Radar's outcome.risk_level). */
export const RISK_LEVELS = ['normal', 'elevated', 'highest', 'not_assessed', 'unknown'] as const;

const opt = (max = 200) => t(max).nullish();

/** The largest passport picture the intake takes (decoded bytes). */
export const INTAKE_PASSPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Picture types the passport scan reads. */
export const INTAKE_PASSPORT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

/** The passport's data page sent with an order (base64; its type is checked against its bytes too). */
export const intakePassportScan = z
  .object({
    file_name: t(200).min(1),
    mime_type: z.enum(INTAKE_PASSPORT_TYPES, { error: `must be one of ${INTAKE_PASSPORT_TYPES.join(', ')}` }),
    content_base64: z
      .string()
      .min(8, 'is required')
      .max(Math.ceil(INTAKE_PASSPORT_MAX_BYTES / 3) * 4 + 4, 'must be at most 5 MB')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  })
  .strict();
export type IntakePassportScan = z.infer<typeof intakePassportScan>;
const optDate = isoDate.nullish();

/**
 * Intake body (docs/product.md, "Orders"): every order field by its snake_case name (order_id and
 * process_status are assigned by the server), plus processing_date, amount, currency, client_reference.
 */
export const intakeOrderBody = z
  .object({
    client_reference: t(120).min(1),
    transaction_id: opt(120),
    merchant_name: opt(120),
    email: z.email().max(254),
    re_enter_email: z.email().max(254).nullish(),
    processing_mode: z.enum(PROCESSING_MODES),
    landing_domain: opt(253),
    arrival_date: isoDate,
    resident_check: opt(20),
    passport_number: t(40).min(1),
    passport_expiration: optDate,
    last_name: t(100).min(1),
    first_name: t(100).min(1),
    nationality: t(100).min(1),
    date_of_birth: optDate,
    sex: opt(20),
    country_of_birth: opt(100),
    country_of_departure: opt(100),
    travel_mode: opt(40),
    airline: opt(100),
    flight_number: opt(20),
    departure_date: optDate,
    vessel_name: opt(100),
    country_of_residence: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter country code')
      .transform((v) => v.toUpperCase())
      .nullish(),
    zip_code: opt(20),
    state: opt(100),
    city: opt(100),
    address: multilineText(300).nullish(),
    residence_number: opt(40),
    occupation: opt(100),
    purpose_of_visit: opt(100),
    dual_citizenship: opt(20),
    phone_code: z
      .string()
      .trim()
      .regex(/^\+?\d{1,4}$/, 'digits only')
      .transform((v) => v.replace(/^\+/, ''))
      .nullish(),
    telephone_number: z
      .string()
      .trim()
      .regex(/^[\d ()-]{4,20}$/, 'digits only')
      .nullish(),
    prior_visits: opt(20),
    place_of_stay: opt(100),
    name_of_place_of_stay: opt(200),
    other_hotel_name: opt(200),
    local_address: multilineText(300).nullish(),
    house_number: opt(40),
    processing_date: isoDate,
    amount: z.coerce.number().nonnegative().max(100_000),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter code')
      .transform((v) => v.toUpperCase()),
    /** The card network of the payment where the site knows it (visa, mastercard, amex, …). */
    card_brand: z
      .string()
      .trim()
      .regex(/^[A-Za-z_ ]{1,40}$/, 'must be a card network name (letters)')
      .transform((v) => v.toLowerCase())
      .nullish(),
    /** The payment's risk as the provider scored it; elevated or highest hold the order (decision 372). */
    risk_level: z.enum(RISK_LEVELS, { error: `must be one of ${RISK_LEVELS.join(', ')}` }).nullish(),
    /** A photo or scan of the passport's data page, when the site asks for one: read at intake (MRZ). */
    passport_scan: intakePassportScan.nullish(),
  })
  .strict();
export type IntakeOrderBody = z.infer<typeof intakeOrderBody>;
