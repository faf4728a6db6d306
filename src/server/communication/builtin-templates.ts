import type { TemplateLanguage, TemplatePurpose } from '../../shared/contracts/communication.js';

/**
 * The templates the service starts with (drizzle/0028_builtin_mail_templates.sql inserts them; a test
 * keeps the two equal). The English texts of the built-in mails are today's texts, character for
 * character, so the text part and the subject of an English mail are what they were before templates
 * existed (docs/decisions/202).
 * One template serves both brands: the brand's name, site, links and support address are variables.
 */
export interface BuiltinTemplate {
  key: string;
  name: string;
  purpose: TemplatePurpose;
  texts: Record<TemplateLanguage, { subject: string; body: string }>;
}

const FOOTER_LINKS = {
  en: [
    'Terms & Conditions: {{terms_url}}',
    'Privacy Policy: {{privacy_url}}',
    'Contact Us: {{contact_url}}',
    'Refund Policy: {{refund_url}}',
  ],
  es: [
    'Términos y condiciones: {{terms_url}}',
    'Política de privacidad: {{privacy_url}}',
    'Contacto: {{contact_url}}',
    'Política de reembolso: {{refund_url}}',
  ],
  nl: [
    'Algemene voorwaarden: {{terms_url}}',
    'Privacybeleid: {{privacy_url}}',
    'Contact: {{contact_url}}',
    'Terugbetalingsbeleid: {{refund_url}}',
  ],
  pap: [
    'Términonan y condicionnan: {{terms_url}}',
    'Maneho di privacidad: {{privacy_url}}',
    'Contacto: {{contact_url}}',
    'Maneho di reembolso: {{refund_url}}',
  ],
  pt: [
    'Termos e condições: {{terms_url}}',
    'Política de privacidade: {{privacy_url}}',
    'Contato: {{contact_url}}',
    'Política de reembolso: {{refund_url}}',
  ],
} satisfies Record<TemplateLanguage, string[]>;

interface NoticeWords {
  dear: string;
  username: string;
  orderId: string;
  track: string;
  validity: string;
  help: string;
}

const NOTICE: Record<TemplateLanguage, NoticeWords> = {
  en: {
    dear: 'Dear {{full_name}},',
    username: 'Username: {{email}}',
    orderId: 'Order ID: {{order_id}}',
    track: 'Track your order and download the card: {{track_url}}',
    validity:
      'Your approved Embarkation/Disembarkation Card is valid for the trip in your application: one entry into ' +
      'Aruba and your departure. Keep a printed or digital copy with you and show it on arrival if asked.',
    help: 'Need help? Contact support: {{support_email}} ({{contact_url}})',
  },
  es: {
    dear: 'Estimado/a {{full_name}}:',
    username: 'Usuario: {{email}}',
    orderId: 'Número de pedido: {{order_id}}',
    track: 'Siga su pedido y descargue la tarjeta: {{track_url}}',
    validity:
      'Su tarjeta de embarque/desembarque aprobada es válida para el viaje indicado en su solicitud: una entrada en ' +
      'Aruba y su salida. Lleve consigo una copia impresa o digital y muéstrela a su llegada si se la piden.',
    help: '¿Necesita ayuda? Contacte con soporte: {{support_email}} ({{contact_url}})',
  },
  nl: {
    dear: 'Beste {{full_name}},',
    username: 'Gebruikersnaam: {{email}}',
    orderId: 'Bestelnummer: {{order_id}}',
    track: 'Volg uw bestelling en download de kaart: {{track_url}}',
    validity:
      'Uw goedgekeurde Embarkation/Disembarkation Card is geldig voor de reis in uw aanvraag: één keer inreizen in ' +
      'Aruba en uw vertrek. Houd een geprinte of digitale kopie bij de hand en laat die bij aankomst zien als daarom wordt gevraagd.',
    help: 'Hulp nodig? Neem contact op met support: {{support_email}} ({{contact_url}})',
  },
  pap: {
    dear: 'Estimado {{full_name}},',
    username: 'Nomber di usuario: {{email}}',
    orderId: 'Number di orden: {{order_id}}',
    track: 'Sigui bo orden y download e carchi: {{track_url}}',
    validity:
      'Bo carchi di Embarkation/Disembarkation aproba ta bal pa e biahe den bo aplicacion: un entrada na ' +
      'Aruba y bo salida. Tene un copia imprimi of digital cu bo y mustr\u00e9 na yegada si nan pidi p\u00e9.',
    help: 'Mester yudansa? Tuma contacto cu soporte: {{support_email}} ({{contact_url}})',
  },
  pt: {
    dear: 'Prezado(a) {{full_name}},',
    username: 'Usuário: {{email}}',
    orderId: 'Número do pedido: {{order_id}}',
    track: 'Acompanhe o seu pedido e baixe o cartão: {{track_url}}',
    validity:
      'O seu Cartão de Embarque/Desembarque aprovado é válido para a viagem indicada na sua solicitação: uma entrada em ' +
      'Aruba e a sua partida. Leve uma cópia impressa ou digital e apresente-a na chegada, se for pedida.',
    help: 'Precisa de ajuda? Fale com o suporte: {{support_email}} ({{contact_url}})',
  },
};

function notice(language: TemplateLanguage, intro: string): string {
  const w = NOTICE[language];
  return [
    w.dear,
    '',
    intro,
    '',
    w.username,
    w.orderId,
    w.track,
    '',
    w.validity,
    '',
    w.help,
    '',
    ...FOOTER_LINKS[language],
    '',
    '{{brand_name}}',
  ].join('\n');
}

const letter = (dear: string, ...paragraphs: string[]) =>
  [dear, ...paragraphs, '{{brand_name}}'].join('\n\n');

export const BUILTIN_TEMPLATES: BuiltinTemplate[] = [
  {
    key: 'approval-notice',
    name: 'Approval notice',
    purpose: 'approval',
    texts: {
      en: {
        subject: 'Your Aruba ED Card has been approved (order {{order_id}})',
        body: notice(
          'en',
          'Good news: your Aruba Embarkation Disembarkation Card application has been approved. The approved card is attached to this e-mail.',
        ),
      },
      es: {
        subject: 'Su Aruba ED Card ha sido aprobada (pedido {{order_id}})',
        body: notice(
          'es',
          'Buenas noticias: su solicitud de la tarjeta de embarque y desembarque de Aruba ha sido aprobada. La tarjeta aprobada va adjunta a este correo.',
        ),
      },
      nl: {
        subject: 'Uw Aruba ED Card is goedgekeurd (bestelling {{order_id}})',
        body: notice(
          'nl',
          'Goed nieuws: uw aanvraag voor de Aruba Embarkation Disembarkation Card is goedgekeurd. De goedgekeurde kaart zit als bijlage bij deze e-mail.',
        ),
      },
      pap: {
        subject: 'Bo Aruba ED Card a wordo aproba (orden {{order_id}})',
        body: notice(
          'pap',
          'Bon notisia: bo aplicacion pa e Aruba Embarkation Disembarkation Card a wordo aproba. E carchi aproba ta adhunto na e e-mail aki.',
        ),
      },
      pt: {
        subject: 'O seu Aruba ED Card foi aprovado (pedido {{order_id}})',
        body: notice(
          'pt',
          'Boas notícias: a sua solicitação do Cartão de Embarque e Desembarque de Aruba foi aprovada. O cartão aprovado está anexado a este e-mail.',
        ),
      },
    },
  },
  {
    key: 'approval-reminder',
    name: 'Reminder: card not downloaded',
    purpose: 'reminder',
    texts: {
      en: {
        subject: 'Reminder: your Aruba ED Card is ready to download (order {{order_id}})',
        body: notice(
          'en',
          'Your application was approved, but the card has not been downloaded yet. Please download it before you travel.',
        ),
      },
      es: {
        subject: 'Recordatorio: su Aruba ED Card está lista para descargar (pedido {{order_id}})',
        body: notice(
          'es',
          'Su solicitud fue aprobada, pero todavía no ha descargado la tarjeta. Descárguela antes de viajar.',
        ),
      },
      nl: {
        subject: 'Herinnering: uw Aruba ED Card staat klaar om te downloaden (bestelling {{order_id}})',
        body: notice(
          'nl',
          'Uw aanvraag is goedgekeurd, maar de kaart is nog niet gedownload. Download hem alstublieft voordat u reist.',
        ),
      },
      pap: {
        subject: 'Recordatorio: bo Aruba ED Card ta cla pa download (orden {{order_id}})',
        body: notice(
          'pap',
          'Bo aplicacion a wordo aproba, pero bo no a download e carchi ainda. Por fabor download\u00e9 promer cu bo biaha.',
        ),
      },
      pt: {
        subject: 'Lembrete: o seu Aruba ED Card está pronto para baixar (pedido {{order_id}})',
        body: notice(
          'pt',
          'A sua solicitação foi aprovada, mas o cartão ainda não foi baixado. Baixe-o antes de viajar.',
        ),
      },
    },
  },
  {
    key: 'refund-confirmation',
    name: 'Refund confirmation',
    purpose: 'refund',
    texts: {
      en: {
        subject: 'Your refund for order {{order_id}} has been processed',
        body: letter(
          'Dear {{full_name}},',
          'Your refund of {{amount}} {{currency}} for order {{order_id}} has been processed. Depending on your bank it can take 5 to 10 business days to appear on your statement.',
          'Questions? {{support_email}}',
        ),
      },
      es: {
        subject: 'Se ha procesado el reembolso de su pedido {{order_id}}',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Se ha procesado el reembolso de {{amount}} {{currency}} de su pedido {{order_id}}. Según su banco, puede tardar de 5 a 10 días hábiles en aparecer en su extracto.',
          '¿Preguntas? {{support_email}}',
        ),
      },
      nl: {
        subject: 'Uw terugbetaling voor bestelling {{order_id}} is verwerkt',
        body: letter(
          'Beste {{full_name}},',
          'Uw terugbetaling van {{amount}} {{currency}} voor bestelling {{order_id}} is verwerkt. Afhankelijk van uw bank kan het 5 tot 10 werkdagen duren voordat die op uw afschrift staat.',
          'Vragen? {{support_email}}',
        ),
      },
      pap: {
        subject: 'Bo reembolso pa orden {{order_id}} a wordo procesa',
        body: letter(
          'Estimado {{full_name}},',
          'Bo reembolso di {{amount}} {{currency}} pa orden {{order_id}} a wordo procesa. Dependiendo di bo banco, e por tuma 5 pa 10 dia di trabou promer cu e ta aparece riba bo estado di cuenta.',
          'Pregunta? {{support_email}}',
        ),
      },
      pt: {
        subject: 'O reembolso do pedido {{order_id}} foi processado',
        body: letter(
          'Prezado(a) {{full_name}},',
          'O reembolso de {{amount}} {{currency}} do pedido {{order_id}} foi processado. Dependendo do seu banco, pode levar de 5 a 10 dias úteis para aparecer no seu extrato.',
          'Dúvidas? {{support_email}}',
        ),
      },
    },
  },
  {
    key: 'invoice',
    name: 'Invoice',
    purpose: 'invoice',
    texts: {
      en: {
        subject: 'Invoice {{invoice_number}} for your order {{order_id}}',
        body: letter(
          'Dear {{full_name}},',
          'Please find attached the invoice for your Aruba ED Card order {{order_id}}.\nTrack your order: {{track_url}}',
        ),
      },
      es: {
        subject: 'Factura {{invoice_number}} de su pedido {{order_id}}',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Adjuntamos la factura de su pedido de Aruba ED Card {{order_id}}.\nSiga su pedido: {{track_url}}',
        ),
      },
      nl: {
        subject: 'Factuur {{invoice_number}} voor uw bestelling {{order_id}}',
        body: letter(
          'Beste {{full_name}},',
          'In de bijlage vindt u de factuur voor uw Aruba ED Card-bestelling {{order_id}}.\nVolg uw bestelling: {{track_url}}',
        ),
      },
      pap: {
        subject: 'Factura {{invoice_number}} pa bo orden {{order_id}}',
        body: letter(
          'Estimado {{full_name}},',
          'Adhunto bo ta haya e factura pa bo orden di Aruba ED Card {{order_id}}.\nSigui bo orden: {{track_url}}',
        ),
      },
      pt: {
        subject: 'Fatura {{invoice_number}} do seu pedido {{order_id}}',
        body: letter(
          'Prezado(a) {{full_name}},',
          'Segue em anexo a fatura do seu pedido de Aruba ED Card {{order_id}}.\nAcompanhe o seu pedido: {{track_url}}',
        ),
      },
    },
  },
  {
    key: 'awaiting-customer',
    name: 'We need something from you',
    purpose: 'customer',
    texts: {
      en: {
        subject: 'We need something from you for order {{order_id}}',
        body: letter(
          'Dear {{full_name}},',
          'We are working on your Aruba ED Card application (order {{order_id}}) and need something from you before we can continue. Please check the tracking page for what is missing, or reply to this e-mail.',
          'Track your order: {{track_url}}',
          'Questions? {{support_email}}',
        ),
      },
      es: {
        subject: 'Necesitamos algo de usted para el pedido {{order_id}}',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Estamos tramitando su solicitud de Aruba ED Card (pedido {{order_id}}) y necesitamos algo de usted para continuar. Consulte la página de seguimiento para ver qué falta o responda a este correo.',
          'Siga su pedido: {{track_url}}',
          '¿Preguntas? {{support_email}}',
        ),
      },
      nl: {
        subject: 'We hebben iets van u nodig voor bestelling {{order_id}}',
        body: letter(
          'Beste {{full_name}},',
          'We werken aan uw aanvraag voor de Aruba ED Card (bestelling {{order_id}}) en hebben iets van u nodig voordat we verder kunnen. Kijk op de volgpagina wat er ontbreekt, of beantwoord deze e-mail.',
          'Volg uw bestelling: {{track_url}}',
          'Vragen? {{support_email}}',
        ),
      },
      pap: {
        subject: 'Nos mester algo di bo pa orden {{order_id}}',
        body: letter(
          'Estimado {{full_name}},',
          'Nos ta trahando riba bo aplicacion pa e Aruba ED Card (orden {{order_id}}) y nos mester algo di bo promer cu nos por sigui. Por fabor wak e pagina di seguimento pa sa kiko ta falta, of contesta e e-mail aki.',
          'Sigui bo orden: {{track_url}}',
          'Pregunta? {{support_email}}',
        ),
      },
      pt: {
        subject: 'Precisamos de algo seu para o pedido {{order_id}}',
        body: letter(
          'Prezado(a) {{full_name}},',
          'Estamos a tratar da sua solicitação de Aruba ED Card (pedido {{order_id}}) e precisamos de algo seu para continuar. Consulte a página de acompanhamento para ver o que falta ou responda a este e-mail.',
          'Acompanhe o seu pedido: {{track_url}}',
          'Dúvidas? {{support_email}}',
        ),
      },
    },
  },
  {
    key: 'contact-customer',
    name: 'Please contact us',
    purpose: 'customer',
    texts: {
      en: {
        subject: 'Please contact us about order {{order_id}}',
        body: letter(
          'Dear {{full_name}},',
          'We need to speak with you about your Aruba ED Card application (order {{order_id}}). Please reply to this e-mail or write to {{support_email}}, and we will get back to you quickly.',
          'Track your order: {{track_url}}',
        ),
      },
      es: {
        subject: 'Póngase en contacto con nosotros sobre el pedido {{order_id}}',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Necesitamos hablar con usted sobre su solicitud de Aruba ED Card (pedido {{order_id}}). Responda a este correo o escriba a {{support_email}} y le contestaremos enseguida.',
          'Siga su pedido: {{track_url}}',
        ),
      },
      nl: {
        subject: 'Neem contact met ons op over bestelling {{order_id}}',
        body: letter(
          'Beste {{full_name}},',
          'We willen u graag spreken over uw aanvraag voor de Aruba ED Card (bestelling {{order_id}}). Beantwoord deze e-mail of schrijf naar {{support_email}}, dan nemen we snel contact met u op.',
          'Volg uw bestelling: {{track_url}}',
        ),
      },
      pap: {
        subject: 'Por fabor tuma contacto cu nos tocante orden {{order_id}}',
        body: letter(
          'Estimado {{full_name}},',
          'Nos mester papia cu bo tocante bo aplicacion pa e Aruba ED Card (orden {{order_id}}). Por fabor contesta e e-mail aki of skirbi na {{support_email}}, y nos lo contesta bo lihe.',
          'Sigui bo orden: {{track_url}}',
        ),
      },
      pt: {
        subject: 'Entre em contato conosco sobre o pedido {{order_id}}',
        body: letter(
          'Prezado(a) {{full_name}},',
          'Precisamos falar com você sobre a sua solicitação de Aruba ED Card (pedido {{order_id}}). Responda a este e-mail ou escreva para {{support_email}} e retornaremos rapidamente.',
          'Acompanhe o seu pedido: {{track_url}}',
        ),
      },
    },
  },
  {
    key: 'sent-to-government',
    name: 'Sent to the government',
    purpose: 'customer',
    texts: {
      en: {
        subject: 'Your application {{order_id}} is with the government',
        body: letter(
          'Dear {{full_name}},',
          'We have checked your Aruba ED Card application (order {{order_id}}) and submitted it to the government of Aruba. We will e-mail you the approved card as soon as it arrives.',
          'Track your order: {{track_url}}',
        ),
      },
      es: {
        subject: 'Su solicitud {{order_id}} está en manos del gobierno',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Hemos revisado su solicitud de Aruba ED Card (pedido {{order_id}}) y la hemos presentado al gobierno de Aruba. Le enviaremos la tarjeta aprobada por correo en cuanto llegue.',
          'Siga su pedido: {{track_url}}',
        ),
      },
      nl: {
        subject: 'Uw aanvraag {{order_id}} ligt bij de overheid',
        body: letter(
          'Beste {{full_name}},',
          'We hebben uw aanvraag voor de Aruba ED Card (bestelling {{order_id}}) gecontroleerd en ingediend bij de overheid van Aruba. We mailen u de goedgekeurde kaart zodra die binnen is.',
          'Volg uw bestelling: {{track_url}}',
        ),
      },
      pap: {
        subject: 'Bo aplicacion {{order_id}} ta cerca gobierno',
        body: letter(
          'Estimado {{full_name}},',
          'Nos a chequea bo aplicacion pa e Aruba ED Card (orden {{order_id}}) y nos a entreg\u00e9 na gobierno di Aruba. Nos lo manda bo e carchi aproba pa e-mail asina cu e yega.',
          'Sigui bo orden: {{track_url}}',
        ),
      },
      pt: {
        subject: 'A sua solicitação {{order_id}} está com o governo',
        body: letter(
          'Prezado(a) {{full_name}},',
          'Verificamos a sua solicitação de Aruba ED Card (pedido {{order_id}}) e enviamo-la ao governo de Aruba. Enviaremos o cartão aprovado por e-mail assim que chegar.',
          'Acompanhe o seu pedido: {{track_url}}',
        ),
      },
    },
  },
  {
    key: 'passport-photo',
    name: 'Clearer passport photo needed',
    purpose: 'customer',
    texts: {
      en: {
        subject: 'Please send a clearer passport photo (order {{order_id}})',
        body: letter(
          'Dear {{full_name}},',
          'The passport photo in your Aruba ED Card application (order {{order_id}}) is not clear enough for the government to accept. Please reply to this e-mail with a sharp photo of the photo page of your passport: all four corners visible, no glare, every letter readable.',
          'Track your order: {{track_url}}',
        ),
      },
      es: {
        subject: 'Envíenos una foto del pasaporte más nítida (pedido {{order_id}})',
        body: letter(
          'Estimado/a {{full_name}}:',
          'La foto del pasaporte de su solicitud de Aruba ED Card (pedido {{order_id}}) no es lo bastante nítida para que el gobierno la acepte. Responda a este correo con una foto nítida de la página de datos de su pasaporte: las cuatro esquinas visibles, sin reflejos y con todas las letras legibles.',
          'Siga su pedido: {{track_url}}',
        ),
      },
      nl: {
        subject: 'Stuur ons een duidelijkere pasfoto (bestelling {{order_id}})',
        body: letter(
          'Beste {{full_name}},',
          'De paspoortfoto in uw aanvraag voor de Aruba ED Card (bestelling {{order_id}}) is niet duidelijk genoeg voor de overheid. Beantwoord deze e-mail met een scherpe foto van de fotopagina van uw paspoort: alle vier de hoeken zichtbaar, geen schittering, elke letter leesbaar.',
          'Volg uw bestelling: {{track_url}}',
        ),
      },
      pap: {
        subject: 'Por fabor manda un potret di paspoort mas cla (orden {{order_id}})',
        body: letter(
          'Estimado {{full_name}},',
          'E potret di paspoort den bo aplicacion pa e Aruba ED Card (orden {{order_id}}) no ta cla suficiente pa gobierno acept\u00e9. Por fabor contesta e e-mail aki cu un potret cla di e pagina di potret di bo paspoort: tur cuater esquina visibel, sin reflecho, tur letter leibel.',
          'Sigui bo orden: {{track_url}}',
        ),
      },
      pt: {
        subject: 'Envie uma foto do passaporte mais nítida (pedido {{order_id}})',
        body: letter(
          'Prezado(a) {{full_name}},',
          'A foto do passaporte da sua solicitação de Aruba ED Card (pedido {{order_id}}) não está nítida o suficiente para ser aceita pelo governo. Responda a este e-mail com uma foto nítida da página de dados do seu passaporte: os quatro cantos visíveis, sem reflexos e com todas as letras legíveis.',
          'Acompanhe o seu pedido: {{track_url}}',
        ),
      },
    },
  },
  {
    key: 'order-completed',
    name: 'Order completed',
    purpose: 'customer',
    texts: {
      en: {
        subject: 'Your Aruba ED Card order {{order_id}} is complete',
        body: letter(
          'Dear {{full_name}},',
          'Your order {{order_id}} is complete. You can download the approved card on the tracking page at any time.',
          'Track your order and download the card: {{track_url}}',
          'Questions? {{support_email}}',
        ),
      },
      es: {
        subject: 'Su pedido de Aruba ED Card {{order_id}} está completo',
        body: letter(
          'Estimado/a {{full_name}}:',
          'Su pedido {{order_id}} está completo. Puede descargar la tarjeta aprobada en la página de seguimiento cuando quiera.',
          'Siga su pedido y descargue la tarjeta: {{track_url}}',
          '¿Preguntas? {{support_email}}',
        ),
      },
      nl: {
        subject: 'Uw Aruba ED Card-bestelling {{order_id}} is afgerond',
        body: letter(
          'Beste {{full_name}},',
          'Uw bestelling {{order_id}} is afgerond. U kunt de goedgekeurde kaart op elk moment downloaden op de volgpagina.',
          'Volg uw bestelling en download de kaart: {{track_url}}',
          'Vragen? {{support_email}}',
        ),
      },
      pap: {
        subject: 'Bo orden di Aruba ED Card {{order_id}} ta completo',
        body: letter(
          'Estimado {{full_name}},',
          'Bo orden {{order_id}} ta completo. Bo por download e carchi aproba riba e pagina di seguimento na cualkier momento.',
          'Sigui bo orden y download e carchi: {{track_url}}',
          'Pregunta? {{support_email}}',
        ),
      },
      pt: {
        subject: 'O seu pedido de Aruba ED Card {{order_id}} está concluído',
        body: letter(
          'Prezado(a) {{full_name}},',
          'O seu pedido {{order_id}} está concluído. Pode baixar o cartão aprovado na página de acompanhamento a qualquer momento.',
          'Acompanhe o seu pedido e baixe o cartão: {{track_url}}',
          'Dúvidas? {{support_email}}',
        ),
      },
    },
  },
];

/** The template key of each built-in mail kind. */
export const KIND_TEMPLATE_KEYS = {
  approval: 'approval-notice',
  resend: 'approval-notice',
  reminder: 'approval-reminder',
  refund: 'refund-confirmation',
  invoice: 'invoice',
} as const;
