import type { selfServiceEn } from './en.js';

/** Papiamento messages of the track page's self-service. */
export const selfServicePap: Record<keyof typeof selfServiceEn, string> = {
  'check.dispute_risk': 'E kliente a duna e órden aki un 1 òf 2: un disputa por sigui.',
  'self.field.first_name': 'Nòmber',
  'self.field.last_name': 'Fam',
  'self.field.passport_number': 'Number di pasport',
  'self.field.passport_expiration': 'Fecha di vensimentu di pasport',
  'self.field.date_of_birth': 'Fecha di nasementu',
  'self.field.nationality': 'Nashonalidat',
  'self.field.arrival_date': 'Fecha di yegada',
  'self.field.departure_date': 'Fecha di salida',
  'self.field.flight_number': 'Number di vuelo',
  'self.field.phone_code': 'Código di pais',
  'self.field.telephone_number': 'Number di telefòn',
  'self.fieldInvalid': '{field}: e balor aki no ta válido.',
  'self.unknownField': 'No por kambia e kampo aki akinan.',
  'self.noChange': 'Kambia por lo ménos un kampo.',
  'self.editClosed':
    'Bo órden {orderId} a wòrdu entregá òf será kaba, p’esei no por kambi’é aki mas. Por fabor skirbi support na {supportEmail}.',
  'self.stale': 'Bo órden a kambia mientras tantu. Por fabor karga e página di nobo i purba atrobe.',
  'self.tooManyEdits':
    'Bo a korigí e órden aki hopi biaha awe. Por fabor purba atrobe mañan òf skirbi support.',
  'self.corrected': 'Bo datonan a wòrdu aktualisá.',
  'self.policy':
    'Si bo kansela promé ku nos tim kuminsá ku bo órden, nos ta debolbé {untouched}% di bo pago; ora nos tim a traha kaba riba dje, {workedOn}%. Un órden entregá na gobièrnu no por wòrdu kanselá mas.',
  'self.cancelClosed':
    'Bo órden {orderId} a wòrdu entregá na gobièrnu kaba i no por wòrdu kanselá mas. Por fabor skirbi support na {supportEmail}.',
  'self.providerError':
    'No por a hasi e debolbimentu awor, p’esei bo órden no a kambia. Por fabor purba atrobe den algun minüt òf skirbi support na {supportEmail}.',
  'self.cancelledRefunded': 'Bo órden {orderId} ta kanselá i {amount} a wòrdu debolbí.',
  'self.cancelledPending': 'Bo órden {orderId} ta kanselá. Nos tim lo debolbé {amount}.',
  'self.cancelMail.subject': 'Bo órden {orderId} ta kanselá',
  'self.cancelMail.body':
    'Stimá {name},\n\nbo órden {orderId} a wòrdu kanselá manera bo a pidi. E debolbimentu ta {amount}; e por tuma algun dia pa e aparesé riba bo estado di kuenta.\n\nSi bo tin pregunta, skirbi na {supportEmail}.',
  'self.rating.question': 'Kon nos a hasi?',
  'self.rating.mailSubject': 'Kon nos a hasi? Órden {orderId}',
  'self.rating.mailBody':
    'Stimá {name},\n\nbo karchi ED di Aruba pa órden {orderId} a wòrdu mandá. Kon nos a hasi? Skohe un punto di 1 (malu) te 5 (ekselente):',
  'self.rating.comment': 'Tin algu bo ke konta nos? (opshonal)',
  'self.rating.send': 'MANDA EVALUASHON',
  'self.rating.thanks': 'Danki pa bo evaluashon.',
  'self.rating.score': '{score} di 5',
  'self.rating.linkInvalid':
    'E link di evaluashon aki no ta válido. Por fabor sigui bo órden i evaluá riba e página.',
  'self.correct.open': 'Korigí mi datonan',
  'self.correct.save': 'WARDA KAMBIONAN',
  'self.correct.saving': 'WARDANDO…',
  'self.correct.changed': 'Kambiá: {fields}.',
  'self.cancel.open': 'Kansela mi órden',
  'self.cancel.reason': 'Dikon bo ta kansela?',
  'self.cancel.amount': 'Bo ta haña {amount} bèk.',
  'self.cancel.confirm': 'KONFIRMÁ KANSELASHON',
  'self.cancel.keep': 'Warda mi órden',
  'self.answers.heading': 'Kontesta riba preguntanan frekuente',
};
