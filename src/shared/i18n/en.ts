import { selfServiceEn } from './self-service/en.js';
/**
 * English messages of the customer pages and stage messages (ICU MessageFormat). English is the source:
 * these are the texts the pages showed before they were translated, and every other catalog falls back
 * to them key by key (docs/decisions/213). Rich text uses tags: `<b>…</b>` is bold.
 */
const en = {
  'page.trackTitle': 'Download your Aruba Embarkation Disembarkation Card',
  'page.detailsTitle': 'Your Aruba ED Card',
  'layout.skip': 'Skip to content',
  'layout.openMenu': 'Open menu',
  'layout.closeMenu': 'Close menu',
  'layout.mainNav': 'Main',
  'layout.footer': '© 2025 {brand}. All rights reserved.',
  'nav.home': 'Home',
  'nav.apply': 'Apply Now',
  'nav.benefits': 'Additional Benefits',
  'nav.terms': 'Terms & Conditions',
  'nav.privacy': 'Privacy Policy',
  'nav.refund': 'Refund Policy',
  'nav.contact': 'Contact Us',
  'language.label': 'Language',
  'common.loading': 'Loading…',
  'common.close': 'Close',
  'notFound.title': 'Page not found',
  'notFound.track': 'Track your order',
  'chunk.failed': 'Loading chunk order-details failed',
  'track.orderId': 'Order ID',
  'track.email': 'Email ID',
  'track.submit': 'TRACK ORDER',
  'track.submitting': 'TRACKING…',
  'track.help': 'Need Help? Contact Support',
  'track.cancelledTitle': 'This order was cancelled',
  'details.loading': 'Loading your order…',
  'details.doneTitle': 'Your application has been completed successfully',
  'details.doneText':
    'Dear {firstName} {lastName}, your Aruba Embarkation Disembarkation Card for order <b>{orderId}</b> is approved and ready to download.',
  'details.download': 'Download Now',
  'details.pendingTitle': 'Your application is being processed',
  'details.pendingText':
    'Dear {firstName} {lastName}, your approved card for order <b>{orderId}</b> is not available yet. We will e-mail you as soon as it is ready.',
  'history.caption': 'Downloaded History',
  'history.orderId': 'Order ID',
  'history.dateTime': 'Date & Time (EST)',
  'history.ip': 'Device IP Address',
  'history.device': 'Device',
  'history.deviceType': 'Device Type',
  'history.browser': 'Browser',
  'history.os': 'OS',
  'history.location': 'Device Location',
  'history.desktop': 'Desktop computer',
  'history.unknown': 'Unknown',
  'notice.open': 'View approval e-mail',
  'notice.title': 'Approval e-mail',
  'stage.heading': 'Order progress',
  'stage.request': 'Message from our team:',
  'stage.requestNote': 'Written by our team in their own words.',
  'stage.contactSupport': 'Contact Support',
  'stage.received': 'Received',
  'stage.in_review': 'In review',
  'stage.action_needed': 'Action needed',
  'stage.answered': 'Answer received',
  'stage.answered.message':
    'Thank you, we received your answer. Our team is checking it and will continue with your application; we will e-mail you if we need anything else.',
  'stage.with_government': 'With the government',
  'stage.approved': 'Approved',
  'stage.refunded': 'Refunded',
  'stage.cancelled': 'Cancelled',
  'stage.received.message':
    'We have received your order and payment. Our team will check your application soon; you do not need to do anything.',
  'stage.in_review.message':
    'Our team is checking your application. We will contact you if anything is missing.',
  'stage.action_needed.message':
    'We need something from you before we can continue. Please read our request below and answer it on this page or by replying to our e-mail.',
  'stage.with_government.message':
    'Your application has been submitted to the government of Aruba. We will e-mail you as soon as your card is approved.',
  'stage.submittedOn': 'Submitted to the government on {date}.',
  'stage.approved.message': 'Your card is approved. You can download it on this page.',
  'stage.refund_requested.message':
    'Your refund request has been received and is being processed. We will e-mail you when the money has been returned.',
  'stage.refunded.message':
    'Your payment has been refunded. It may take a few days to appear on your statement.',
  'stage.chargeback.message':
    'Your payment has been disputed with your bank, so this order is on hold. Please contact support at {supportEmail}.',
  'stage.cancelled.message':
    'Order {orderId} was cancelled. If you have questions, please contact support at {supportEmail}.',
  // Messages of the server and of the track form's checks, shown as they come (looked up by their English text).
  'server.trackFailed': 'No order matches this Order ID and e-mail address.',
  'server.trackSuccess': 'Your order has been found.',
  'server.sessionExpired': 'Your session has expired. Please track your order again.',
  'server.downloadRecorded': 'Your download will start shortly.',
  'server.noDocument': 'Your approved card is not available yet.',
  'server.linkExpired': 'This download link has expired or is invalid. Please start the download again.',
  'server.linkUsed': 'This download link has already been used. Please start the download again.',
  'server.orderCancelled': 'This order was cancelled.',
  'server.networkError': 'Network Error',
  'server.noRecord': 'No record found',
  'form.orderIdRequired': 'Please enter your orderId',
  'form.orderIdInvalid': 'Order ID must be 6 to 15 digits',
  'form.emailRequired': 'Please enter your email',
  'form.emailInvalid': 'Invalid email address',
  'form.controlCharacters': 'must not contain control characters',
  // Data checks of an order (src/shared/order-checks.ts): the staff panel and the confirm-details mail.
  'check.passport_expired': 'The passport expired on {expiry}.',
  'check.passport_expires_during_trip':
    'The passport expires on {expiry}, before the departure on {departure}.',
  'check.passport_validity_short':
    'The passport expires on {expiry}, less than {days} days after the departure.',
  'check.arrival_past': 'The arrival date {arrival} has already passed.',
  'check.departure_before_arrival': 'The departure date is before the arrival date.',
  'check.birth_date_future': 'The date of birth is in the future.',
  'check.age_over_120': 'The date of birth gives an age over 120 years.',
  'check.minor': 'The traveller is a minor ({age} years old).',
  'check.email_mismatch': 'The e-mail address and the re-entered e-mail address differ.',
  'check.email_typo': 'The e-mail address may be mistyped: did you mean {suggestion}?',
  'check.phone_impossible': 'The phone number cannot exist for its country code.',
  'check.country_unknown': 'A country is not a known country.',
  'check.name_characters': 'A name contains digits or control characters.',
  'check.flight_number_shape': 'The flight number is not an airline code followed by digits.',
  'check.passport_number_shape':
    'The passport number does not look like a passport number of the nationality.',
  'check.possible_duplicate': 'This order may be a duplicate of another order.',
  'check.early_fraud_warning': 'The card issuer warned that this payment may be fraudulent.',
  'check.fraud_warning':
    'The card issuer warned that this payment may be fraudulent: refund it now, or keep it with a reason.',
  'check.risk_hold': "The payment's risk is elevated: a Manager reviews it before the order is submitted.",
  'check.card_mismatch': 'The approved card does not match the order: see the card check before it is sent.',
  'check.card_duplicate':
    'The same card file is stored on another order: it may belong to another traveller.',
  'check.card_unreadable': 'The approved card could not be read (no text, no QR code): check it by eye.',
  'check.passport_scan_mismatch': "The passport scan differs from the order: see the scan's values.",
  'check.passport_scan_unreadable': "The passport scan's machine-readable zone could not be read.",
  'check.submission_failed':
    "A machine's submission to the government failed: {error}. See its screenshot with the order's files, then submit again.",
  'check.card_arrived_unsent': 'The government sent the approved card: check it and send it to the customer.',
  'check.government_reference_missing':
    'Submitted to the government without its reference: add the reference.',
  'reply.title': 'Send us your answer',
  'reply.titleMore': 'Send us more',
  'reply.message': 'Your message',
  'reply.files': 'Photos or documents (up to 5)',
  'reply.send': 'SEND ANSWER',
  'reply.sending': 'SENDING…',
  'reply.received': 'Thank you. We have received your answer and will continue with your application.',
  'reply.failed': 'Your answer could not be sent. Please try again.',
  'reply.tooMany': 'Send at most 5 files.',
  ...selfServiceEn,
} as const;

export type MessageKey = keyof typeof en;
export type Catalog = Partial<Record<MessageKey, string>>;
export default en as Record<MessageKey, string>;
