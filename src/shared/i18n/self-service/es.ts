import type { selfServiceEn } from './en.js';

/** Spanish messages of the track page's self-service. */
export const selfServiceEs: Record<keyof typeof selfServiceEn, string> = {
  'check.dispute_risk': 'El cliente valoró este pedido con 1 o 2: puede seguir una disputa.',
  'self.field.first_name': 'Nombre',
  'self.field.last_name': 'Apellido',
  'self.field.passport_number': 'Número de pasaporte',
  'self.field.passport_expiration': 'Fecha de vencimiento del pasaporte',
  'self.field.date_of_birth': 'Fecha de nacimiento',
  'self.field.nationality': 'Nacionalidad',
  'self.field.arrival_date': 'Fecha de llegada',
  'self.field.departure_date': 'Fecha de salida',
  'self.field.flight_number': 'Número de vuelo',
  'self.field.phone_code': 'Código de país',
  'self.field.telephone_number': 'Número de teléfono',
  'self.fieldInvalid': '{field}: este valor no es válido.',
  'self.unknownField': 'Este campo no se puede cambiar aquí.',
  'self.noChange': 'Cambie al menos un campo.',
  'self.editClosed':
    'Su pedido {orderId} ya fue presentado o cerrado, por lo que ya no se puede cambiar aquí. Escriba a soporte en {supportEmail}.',
  'self.stale': 'Su pedido ha cambiado mientras tanto. Recargue la página e inténtelo de nuevo.',
  'self.tooManyEdits':
    'Ha corregido este pedido demasiadas veces hoy. Inténtelo de nuevo mañana o escriba a soporte.',
  'self.corrected': 'Sus datos han sido actualizados.',
  'self.policy':
    'Si cancela antes de que nuestro equipo empiece con su pedido, le reembolsamos el {untouched}% de su pago; una vez que nuestro equipo haya trabajado en él, el {workedOn}%. Un pedido presentado al gobierno ya no se puede cancelar.',
  'self.cancelClosed':
    'Su pedido {orderId} ya fue presentado al gobierno y ya no se puede cancelar. Escriba a soporte en {supportEmail}.',
  'self.providerError':
    'No se pudo hacer el reembolso en este momento, así que su pedido no ha cambiado. Inténtelo de nuevo en unos minutos o escriba a soporte en {supportEmail}.',
  'self.cancelledRefunded': 'Su pedido {orderId} está cancelado y se han reembolsado {amount}.',
  'self.cancelledPending': 'Su pedido {orderId} está cancelado. Nuestro equipo reembolsará {amount}.',
  'self.cancelMail.subject': 'Su pedido {orderId} está cancelado',
  'self.cancelMail.body':
    'Estimado/a {name}:\n\nsu pedido {orderId} ha sido cancelado como lo pidió. El reembolso es de {amount}; puede tardar unos días en aparecer en su estado de cuenta.\n\nSi tiene preguntas, escriba a {supportEmail}.',
  'self.rating.question': '¿Qué tal lo hicimos?',
  'self.rating.mailSubject': '¿Qué tal lo hicimos? Pedido {orderId}',
  'self.rating.mailBody':
    'Estimado/a {name}:\n\nsu tarjeta ED de Aruba del pedido {orderId} ha sido enviada. ¿Qué tal lo hicimos? Elija una puntuación de 1 (mal) a 5 (excelente):',
  'self.rating.comment': '¿Algo que quiera contarnos? (opcional)',
  'self.rating.send': 'ENVIAR VALORACIÓN',
  'self.rating.thanks': 'Gracias por su valoración.',
  'self.rating.score': '{score} de 5',
  'self.rating.linkInvalid':
    'Este enlace de valoración no es válido. Consulte su pedido y valórelo en la página.',
  'self.correct.open': 'Corregir mis datos',
  'self.correct.save': 'GUARDAR CAMBIOS',
  'self.correct.saving': 'GUARDANDO…',
  'self.correct.changed': 'Cambiado: {fields}.',
  'self.cancel.open': 'Cancelar mi pedido',
  'self.cancel.reason': '¿Por qué cancela?',
  'self.cancel.amount': 'Le devolveremos {amount}.',
  'self.cancel.confirm': 'CONFIRMAR CANCELACIÓN',
  'self.cancel.keep': 'Mantener mi pedido',
  'self.answers.heading': 'Respuestas a preguntas frecuentes',
};
