import type { selfServiceEn } from './en.js';

/** Dutch messages of the track page's self-service. */
export const selfServiceNl: Record<keyof typeof selfServiceEn, string> = {
  'check.dispute_risk': 'De klant gaf deze bestelling een 1 of 2: er kan een geschil volgen.',
  'self.field.first_name': 'Voornaam',
  'self.field.last_name': 'Achternaam',
  'self.field.passport_number': 'Paspoortnummer',
  'self.field.passport_expiration': 'Vervaldatum van het paspoort',
  'self.field.date_of_birth': 'Geboortedatum',
  'self.field.nationality': 'Nationaliteit',
  'self.field.arrival_date': 'Aankomstdatum',
  'self.field.departure_date': 'Vertrekdatum',
  'self.field.flight_number': 'Vluchtnummer',
  'self.field.phone_code': 'Landnummer',
  'self.field.telephone_number': 'Telefoonnummer',
  'self.fieldInvalid': '{field}: deze waarde is niet geldig.',
  'self.unknownField': 'Dit veld kan hier niet worden gewijzigd.',
  'self.noChange': 'Wijzig ten minste één veld.',
  'self.editClosed':
    'Uw bestelling {orderId} is al ingediend of afgesloten en kan hier niet meer worden gewijzigd. Schrijf naar support via {supportEmail}.',
  'self.stale': 'Uw bestelling is intussen gewijzigd. Laad de pagina opnieuw en probeer het nog eens.',
  'self.tooManyEdits':
    'U hebt deze bestelling vandaag te vaak gecorrigeerd. Probeer het morgen opnieuw of schrijf naar support.',
  'self.corrected': 'Uw gegevens zijn bijgewerkt.',
  'self.policy':
    'Annuleert u voordat ons team met uw bestelling is begonnen, dan betalen we {untouched}% van uw betaling terug; zodra ons team eraan heeft gewerkt {workedOn}%. Een bij de overheid ingediende bestelling kan niet meer worden geannuleerd.',
  'self.cancelClosed':
    'Uw bestelling {orderId} is al bij de overheid ingediend en kan niet meer worden geannuleerd. Schrijf naar support via {supportEmail}.',
  'self.providerError':
    'De terugbetaling kon nu niet worden gedaan, dus uw bestelling is niet gewijzigd. Probeer het over een paar minuten opnieuw of schrijf naar support via {supportEmail}.',
  'self.cancelledRefunded': 'Uw bestelling {orderId} is geannuleerd en {amount} is terugbetaald.',
  'self.cancelledPending': 'Uw bestelling {orderId} is geannuleerd. Ons team betaalt {amount} terug.',
  'self.cancelMail.subject': 'Uw bestelling {orderId} is geannuleerd',
  'self.cancelMail.body':
    'Beste {name},\n\nuw bestelling {orderId} is op uw verzoek geannuleerd. De terugbetaling is {amount}; het kan een paar dagen duren voordat die op uw afschrift staat.\n\nHebt u vragen, schrijf dan naar {supportEmail}.',
  'self.rating.question': 'Hoe hebben we het gedaan?',
  'self.rating.mailSubject': 'Hoe hebben we het gedaan? Bestelling {orderId}',
  'self.rating.mailBody':
    'Beste {name},\n\nuw Aruba ED-kaart voor bestelling {orderId} is verzonden. Hoe hebben we het gedaan? Kies een score van 1 (slecht) tot 5 (uitstekend):',
  'self.rating.comment': 'Wilt u ons nog iets vertellen? (optioneel)',
  'self.rating.send': 'BEOORDELING VERSTUREN',
  'self.rating.thanks': 'Bedankt voor uw beoordeling.',
  'self.rating.score': '{score} van 5',
  'self.rating.linkInvalid':
    'Deze beoordelingslink is niet geldig. Volg uw bestelling en beoordeel haar op de pagina.',
  'self.correct.open': 'Mijn gegevens corrigeren',
  'self.correct.save': 'WIJZIGINGEN OPSLAAN',
  'self.correct.saving': 'OPSLAAN…',
  'self.correct.changed': 'Gewijzigd: {fields}.',
  'self.cancel.open': 'Mijn bestelling annuleren',
  'self.cancel.reason': 'Waarom annuleert u?',
  'self.cancel.amount': 'U krijgt {amount} terug.',
  'self.cancel.confirm': 'ANNULERING BEVESTIGEN',
  'self.cancel.keep': 'Mijn bestelling behouden',
  'self.answers.heading': 'Antwoorden op veelgestelde vragen',
};
