/**
 * The names of the order checks (docs/product.md, "Order checks") without their logic: what the
 * contracts and the screens need, apart from the libraries the checks themselves use.
 */

export const CHECK_SEVERITIES = ['block', 'warn', 'info'] as const;
export type CheckSeverity = (typeof CHECK_SEVERITIES)[number];

export const CHECK_CODES = [
  'passport_expired',
  'passport_expires_during_trip',
  'passport_validity_short',
  'arrival_past',
  'departure_before_arrival',
  'birth_date_future',
  'age_over_120',
  'minor',
  'email_mismatch',
  'email_typo',
  'phone_impossible',
  'country_unknown',
  'name_characters',
  'flight_number_shape',
  'passport_number_shape',
  /** Raised by the server's duplicate search (an undecided possible duplicate). */
  'possible_duplicate',
  /** Raised from the order flag of the same name (a card network's early fraud warning). */
  'early_fraud_warning',
  /** Raised from the order flag of the same name (the customer rated the order 1 or 2). */
  'dispute_risk',
  /** A fraud warning on an order already submitted or completed: refund now or keep (decision 372). */
  'fraud_warning',
  /** The payment's risk is elevated or highest: no submission until a Manager clears it (decision 372). */
  'risk_hold',
  /** Raised by the card check (docs/product.md, "Card check"): the card differs from the order. */
  'card_mismatch',
  /** The same card file is stored on another order. */
  'card_duplicate',
  /** No text and no QR code could be read from the card (information only). */
  'card_unreadable',
  /** The passport scan's machine-readable zone differs from the order. */
  'passport_scan_mismatch',
  /** The passport scan's machine-readable zone could not be read or its check digits fail. */
  'passport_scan_unreadable',
  /** An order in Awaiting Govt without the government's reference (moved there without one). */
  'government_reference_missing',
  /** Raised from the order flag of the same name: the government's card arrived and was not sent yet. */
  'card_arrived_unsent',
  /** Raised from the order flag of the same name: a machine's submission failed (the job API). */
  'submission_failed',
] as const;
export type CheckCode = (typeof CHECK_CODES)[number];

/**
 * Statuses of an order still on its way to the government: only these need attention (the stored
 * `needs_attention` column of migration 0047 lists the same; order-checks.test.ts keeps them equal).
 */
export const ATTENTION_STATUSES = [
  'New',
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
] as const;

/** Order flags other parts of the service raise; each becomes the check of the same code. */
export const CHECK_FLAGS = [
  'early_fraud_warning',
  'dispute_risk',
  'fraud_warning',
  'risk_hold',
  'card_mismatch',
  'card_duplicate',
  'card_unreadable',
  'passport_scan_mismatch',
  'passport_scan_unreadable',
  'card_arrived_unsent',
  'submission_failed',
] as const;
export type CheckFlag = (typeof CHECK_FLAGS)[number];

export const DUPLICATE_DECISIONS = ['duplicate', 'not_duplicate'] as const;
export type DuplicateDecision = (typeof DUPLICATE_DECISIONS)[number];
