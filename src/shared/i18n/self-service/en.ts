/**
 * English messages of the track page's self-service (docs/product.md, "Customers help themselves"),
 * spread into the English catalog: correcting details, cancelling, rating, the answers of a stage.
 */
export const selfServiceEn = {
  'check.dispute_risk': 'The customer rated this order 1 or 2: a dispute may follow.',
  'self.field.first_name': 'First name',
  'self.field.last_name': 'Last name',
  'self.field.passport_number': 'Passport number',
  'self.field.passport_expiration': 'Passport expiry date',
  'self.field.date_of_birth': 'Date of birth',
  'self.field.nationality': 'Nationality',
  'self.field.arrival_date': 'Arrival date',
  'self.field.departure_date': 'Departure date',
  'self.field.flight_number': 'Flight number',
  'self.field.phone_code': 'Country calling code',
  'self.field.telephone_number': 'Phone number',
  'self.fieldInvalid': '{field}: this value is not valid.',
  'self.unknownField': 'This field cannot be changed here.',
  'self.noChange': 'Change at least one field.',
  'self.editClosed':
    'Your order {orderId} has already been submitted or closed, so it can no longer be changed here. Please write to support at {supportEmail}.',
  'self.stale': 'Your order has changed meanwhile. Please reload the page and try again.',
  'self.tooManyEdits':
    'You have corrected this order too often today. Please try again tomorrow or write to support.',
  'self.corrected': 'Your details have been updated.',
  'self.policy':
    'If you cancel before our team has started on your order, we refund {untouched}% of your payment; once our team has worked on it, {workedOn}%. An order submitted to the government can no longer be cancelled.',
  'self.cancelClosed':
    'Your order {orderId} has already been submitted to the government and can no longer be cancelled. Please write to support at {supportEmail}.',
  'self.providerError':
    'The refund could not be made just now, so your order has not been changed. Please try again in a few minutes or write to support at {supportEmail}.',
  'self.cancelledRefunded': 'Your order {orderId} is cancelled and {amount} has been refunded.',
  'self.cancelledPending': 'Your order {orderId} is cancelled. Our team will refund {amount}.',
  'self.cancelMail.subject': 'Your order {orderId} is cancelled',
  'self.cancelMail.body':
    'Dear {name},\n\nyour order {orderId} has been cancelled as you asked. The refund is {amount}; it may take a few days to appear on your statement.\n\nIf you have questions, write to {supportEmail}.',
  'self.rating.question': 'How did we do?',
  'self.rating.mailSubject': 'How did we do? Order {orderId}',
  'self.rating.mailBody':
    'Dear {name},\n\nyour Aruba ED card for order {orderId} has been sent. How did we do? Choose a score from 1 (poor) to 5 (excellent):',
  'self.rating.comment': 'Anything you want to tell us? (optional)',
  'self.rating.send': 'SEND RATING',
  'self.rating.thanks': 'Thank you for your rating.',
  'self.rating.score': '{score} of 5',
  'self.rating.linkInvalid':
    'This rating link is not valid. Please track your order and rate it on the page.',
  'self.correct.open': 'Correct my details',
  'self.correct.save': 'SAVE CHANGES',
  'self.correct.saving': 'SAVING…',
  'self.correct.changed': 'Changed: {fields}.',
  'self.cancel.open': 'Cancel my order',
  'self.cancel.reason': 'Why do you cancel?',
  'self.cancel.amount': 'You will get back {amount}.',
  'self.cancel.confirm': 'CONFIRM CANCELLATION',
  'self.cancel.keep': 'Keep my order',
  'self.answers.heading': 'Answers to common questions',
} as const;
