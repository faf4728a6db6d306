import type { selfServiceEn } from './en.js';

/** Portuguese messages of the track page's self-service. */
export const selfServicePt: Record<keyof typeof selfServiceEn, string> = {
  'check.dispute_risk': 'O cliente avaliou este pedido com 1 ou 2: pode seguir-se uma disputa.',
  'self.field.first_name': 'Nome',
  'self.field.last_name': 'Sobrenome',
  'self.field.passport_number': 'Número do passaporte',
  'self.field.passport_expiration': 'Data de validade do passaporte',
  'self.field.date_of_birth': 'Data de nascimento',
  'self.field.nationality': 'Nacionalidade',
  'self.field.arrival_date': 'Data de chegada',
  'self.field.departure_date': 'Data de partida',
  'self.field.flight_number': 'Número do voo',
  'self.field.phone_code': 'Código do país',
  'self.field.telephone_number': 'Número de telefone',
  'self.fieldInvalid': '{field}: este valor não é válido.',
  'self.unknownField': 'Este campo não pode ser alterado aqui.',
  'self.noChange': 'Altere pelo menos um campo.',
  'self.editClosed':
    'O seu pedido {orderId} já foi enviado ou encerrado e não pode mais ser alterado aqui. Escreva ao suporte em {supportEmail}.',
  'self.stale': 'O seu pedido mudou entretanto. Recarregue a página e tente novamente.',
  'self.tooManyEdits':
    'Você corrigiu este pedido vezes demais hoje. Tente novamente amanhã ou escreva ao suporte.',
  'self.corrected': 'Os seus dados foram atualizados.',
  'self.policy':
    'Se cancelar antes de a nossa equipe começar o seu pedido, reembolsamos {untouched}% do seu pagamento; depois que a nossa equipe trabalhou nele, {workedOn}%. Um pedido enviado ao governo não pode mais ser cancelado.',
  'self.cancelClosed':
    'O seu pedido {orderId} já foi enviado ao governo e não pode mais ser cancelado. Escreva ao suporte em {supportEmail}.',
  'self.providerError':
    'Não foi possível fazer o reembolso agora, por isso o seu pedido não foi alterado. Tente novamente em alguns minutos ou escreva ao suporte em {supportEmail}.',
  'self.cancelledRefunded': 'O seu pedido {orderId} foi cancelado e {amount} foi reembolsado.',
  'self.cancelledPending': 'O seu pedido {orderId} foi cancelado. A nossa equipe vai reembolsar {amount}.',
  'self.cancelMail.subject': 'O seu pedido {orderId} foi cancelado',
  'self.cancelMail.body':
    'Prezado(a) {name},\n\no seu pedido {orderId} foi cancelado como pediu. O reembolso é de {amount}; pode levar alguns dias para aparecer no seu extrato.\n\nSe tiver dúvidas, escreva para {supportEmail}.',
  'self.rating.question': 'Como nos saímos?',
  'self.rating.mailSubject': 'Como nos saímos? Pedido {orderId}',
  'self.rating.mailBody':
    'Prezado(a) {name},\n\no seu cartão ED de Aruba do pedido {orderId} foi enviado. Como nos saímos? Escolha uma nota de 1 (ruim) a 5 (excelente):',
  'self.rating.comment': 'Algo que queira nos contar? (opcional)',
  'self.rating.send': 'ENVIAR AVALIAÇÃO',
  'self.rating.thanks': 'Obrigado pela sua avaliação.',
  'self.rating.score': '{score} de 5',
  'self.rating.linkInvalid':
    'Este link de avaliação não é válido. Acompanhe o seu pedido e avalie-o na página.',
  'self.correct.open': 'Corrigir os meus dados',
  'self.correct.save': 'SALVAR ALTERAÇÕES',
  'self.correct.saving': 'SALVANDO…',
  'self.correct.changed': 'Alterado: {fields}.',
  'self.cancel.open': 'Cancelar o meu pedido',
  'self.cancel.reason': 'Por que cancela?',
  'self.cancel.amount': 'Você receberá {amount} de volta.',
  'self.cancel.confirm': 'CONFIRMAR CANCELAMENTO',
  'self.cancel.keep': 'Manter o meu pedido',
  'self.answers.heading': 'Respostas a perguntas frequentes',
};
