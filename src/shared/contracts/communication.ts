import { z } from 'zod';
import { MOVABLE_STATUSES, ORDER_STATUSES, type OrderStatus } from '../constants.js';
import { CONTROL_CHARACTERS_MESSAGE, MULTI_LINE_PATTERN } from '../control-characters.js';
import { CUSTOMER_LANGUAGES } from '../languages.js';
import { multilineText, orderIdField, text } from './common.js';

/**
 * Talking to customers: mail templates (with versions), status notifications and macros
 * (docs/decisions/200–205).
 */

/** Languages a template can be written in (the customer languages). English is the fallback. */
export const TEMPLATE_LANGUAGES = CUSTOMER_LANGUAGES;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];
export const TEMPLATE_LANGUAGE_NAMES: Record<TemplateLanguage, string> = {
  en: 'English',
  es: 'Spanish',
  nl: 'Dutch',
  pap: 'Papiamento',
  pt: 'Portuguese',
};

/**
 * What a template is for. The built-in mails use theirs (approval notice and resend, reminder, refund
 * confirmation, invoice, with their attachments); `customer` templates are sent by macros and status
 * notifications.
 */
export const TEMPLATE_PURPOSES = ['approval', 'reminder', 'refund', 'invoice', 'customer'] as const;
export type TemplatePurpose = (typeof TEMPLATE_PURPOSES)[number];

/**
 * The variables a template may use, `{{name}}`. `url` ones become links in the HTML part, `email` ones
 * mailto links; every value is escaped.
 */
export const TEMPLATE_VARIABLES = {
  first_name: { kind: 'text', label: 'First name' },
  last_name: { kind: 'text', label: 'Last name' },
  full_name: { kind: 'text', label: 'First and last name' },
  email: { kind: 'text', label: "The customer's e-mail address" },
  order_id: { kind: 'text', label: 'Order id' },
  arrival_date: { kind: 'text', label: 'Arrival date (YYYY-MM-DD)' },
  amount: { kind: 'text', label: 'Amount paid' },
  currency: { kind: 'text', label: 'Currency' },
  invoice_number: { kind: 'text', label: 'Invoice number' },
  status: { kind: 'text', label: "The order's status" },
  remark: { kind: 'text', label: 'The latest remark on the order' },
  brand_name: { kind: 'text', label: 'Brand name' },
  track_url: { kind: 'url', label: 'Link to the order on the tracking page' },
  site_url: { kind: 'url', label: 'Brand site' },
  terms_url: { kind: 'url', label: 'Terms & Conditions' },
  privacy_url: { kind: 'url', label: 'Privacy Policy' },
  contact_url: { kind: 'url', label: 'Contact page' },
  refund_url: { kind: 'url', label: 'Refund Policy' },
  support_email: { kind: 'email', label: 'Support e-mail address' },
  failing_checks: {
    kind: 'text',
    label: "The order's failing data checks in the customer's language, one per line",
  },
} as const satisfies Record<string, { kind: 'text' | 'url' | 'email'; label: string }>;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;
export const TEMPLATE_VARIABLE_NAMES = Object.keys(TEMPLATE_VARIABLES) as TemplateVariable[];

/** A known variable: an own name of the table, never one inherited (`constructor`, `__proto__`, `toString`). */
export function isTemplateVariable(name: string): name is TemplateVariable {
  return Object.hasOwn(TEMPLATE_VARIABLES, name);
}

export const MAX_TEMPLATE_BODY = 20_000;
export const MAX_TEMPLATE_SUBJECT = 200;

/** `{{ name }}` occurrences in a text. */
export const VARIABLE_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The problems of a template text: unknown variables (named) and unbalanced braces. */
export function templateTextProblems(value: string): string[] {
  const problems: string[] = [];
  for (const m of value.matchAll(VARIABLE_PATTERN)) {
    const name = m[1] ?? '';
    if (!isTemplateVariable(name)) problems.push(`uses the unknown variable {{${name}}}`);
  }
  const rest = value.replace(VARIABLE_PATTERN, '');
  if (rest.includes('{{') || rest.includes('}}')) problems.push('has a {{ without its }} (or the reverse)');
  return [...new Set(problems)];
}

/** Private-use characters are the renderer's placeholders: refused in template text. */
const PRIVATE_USE = /[\uE000-\uF8FF]/;

const templateText = <T extends z.ZodType<string, string>>(schema: T) =>
  schema
    .refine((v) => !PRIVATE_USE.test(v), 'must not contain private-use characters')
    .superRefine((v, ctx) => {
      for (const message of templateTextProblems(v)) ctx.addIssue({ code: 'custom', message });
    });

export const templateKeyField = z
  .string()
  .trim()
  .min(2, 'must be 2 to 60 characters')
  .max(60, 'must be 2 to 60 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes');

export const templateLanguageField = z.enum(TEMPLATE_LANGUAGES, {
  error: `must be one of ${TEMPLATE_LANGUAGES.join(', ')}`,
});

export const mailTemplateBody = z
  .object({
    /**
     * Templates of one key are the translations of one mail. Optional: a new template without one gets
     * a new key made from its name; a saved one keeps its own.
     */
    key: templateKeyField.optional(),
    name: text(120).pipe(z.string().min(1, 'is required')),
    language: templateLanguageField,
    purpose: z
      .enum(TEMPLATE_PURPOSES, { error: `must be one of ${TEMPLATE_PURPOSES.join(', ')}` })
      .default('customer'),
    subject: templateText(text(MAX_TEMPLATE_SUBJECT).pipe(z.string().min(1, 'is required'))),
    body: templateText(
      z
        .string()
        .max(MAX_TEMPLATE_BODY, `at most ${MAX_TEMPLATE_BODY} characters`)
        .regex(MULTI_LINE_PATTERN, CONTROL_CHARACTERS_MESSAGE)
        .transform((v) => v.replace(/\r\n?/g, '\n').trim())
        .pipe(z.string().min(1, 'is required')),
    ),
  })
  .strict();
export type MailTemplateBody = z.infer<typeof mailTemplateBody>;

export const idParams = z.object({
  id: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .positive('must be positive')
    .max(2_147_483_647, 'is too large'),
});

export const mailTemplateVersion = z.object({
  version: z.number().int(),
  subject: z.string(),
  body: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

export const mailTemplate = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  language: z.string(),
  purpose: z.string(),
  version: z.number().int(),
  subject: z.string(),
  body: z.string(),
  updatedAt: z.string(),
  /** Newest first (only on the single-template answers). */
  versions: z.array(mailTemplateVersion).optional(),
});
export type MailTemplate = z.infer<typeof mailTemplate>;

export const templatePreviewBody = z
  .object({
    orderId: orderIdField,
    subject: z.string().max(MAX_TEMPLATE_SUBJECT * 2, 'is too long'),
    body: z.string().max(MAX_TEMPLATE_BODY, `at most ${MAX_TEMPLATE_BODY} characters`),
  })
  .strict();

export const renderedMail = z.object({ subject: z.string(), html: z.string(), text: z.string() });

/** Statuses that can notify the customer on entry (every status but New and Deleted). */
export type NotifiableStatus = Exclude<OrderStatus, 'New' | 'Deleted'>;
export const NOTIFIABLE_STATUSES = ORDER_STATUSES.filter(
  (s): s is NotifiableStatus => s !== 'New' && s !== 'Deleted',
) as [NotifiableStatus, ...NotifiableStatus[]];

export const statusNotification = z.object({
  status: z.enum(NOTIFIABLE_STATUSES),
  enabled: z.boolean(),
  templateKey: z.string().nullable(),
});
export type StatusNotification = z.infer<typeof statusNotification>;

export const statusNotificationsBody = z
  .object({
    settings: z
      .array(
        z
          .object({
            status: z.enum(NOTIFIABLE_STATUSES, { error: 'is not a status that can notify the customer' }),
            enabled: z.boolean({ error: 'must be true or false' }),
            templateKey: templateKeyField.nullable(),
          })
          .strict(),
      )
      .min(1, 'is required')
      .max(NOTIFIABLE_STATUSES.length, 'has too many entries'),
  })
  .strict();

/** Statuses a macro may move an order to (the detail screen's moves, Deleted excepted). */
export type MacroStatus = Exclude<(typeof MOVABLE_STATUSES)[number], 'Deleted'>;
export const MACRO_STATUSES = MOVABLE_STATUSES.filter((s): s is MacroStatus => s !== 'Deleted') as [
  MacroStatus,
  ...MacroStatus[],
];

export const macroBody = z
  .object({
    name: text(120).pipe(z.string().min(1, 'is required')),
    remark: multilineText(2000).nullable().default(null),
    moveTo: z
      .enum(MACRO_STATUSES, { error: `must be one of ${MACRO_STATUSES.join(', ')}` })
      .nullable()
      .default(null),
    templateKey: templateKeyField.nullable().default(null),
    whatsappText: templateText(multilineText(1000)).nullable().default(null),
    requiresDocument: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export type MacroBody = z.infer<typeof macroBody>;

export const macro = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string().nullable(),
  moveTo: z.string().nullable(),
  templateKey: z.string().nullable(),
  whatsappText: z.string().nullable(),
  requiresDocument: z.boolean(),
  updatedAt: z.string(),
});
export type Macro = z.infer<typeof macro>;

export const MAX_MACRO_ORDERS = 500;

export const applyMacroBody = z
  .object({
    macroId: idParams.shape.id,
    orderIds: z
      .array(orderIdField)
      .min(1, 'must name at least one order')
      .max(MAX_MACRO_ORDERS, `can name at most ${MAX_MACRO_ORDERS} orders`),
    /** Admin and Manager: take over orders someone else holds. */
    takeOver: z.boolean().optional(),
    /** Continue although someone else moved an order seconds ago. */
    confirmRecent: z.boolean().optional(),
  })
  .strict();

export const macroOutcome = z.object({
  orderId: z.number(),
  result: z.enum(['done', 'refused']),
  /** What happened (done) or why not (refused). */
  message: z.string(),
  processStatus: z.string().nullable(),
  /** The macro's WhatsApp text for this order, values filled in (null when it has none). */
  whatsappText: z.string().nullable(),
  /** Someone else moved the order seconds ago (refused until confirmed): who, and where to. */
  recentMove: z.object({ by: z.string(), to: z.string().nullable() }).optional(),
  /** The customer mail queued for this order, held for a few seconds (it can be cancelled). */
  mailHeld: z.boolean().optional(),
});
export type MacroOutcome = z.infer<typeof macroOutcome>;
