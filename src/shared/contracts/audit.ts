import { z } from 'zod';

/**
 * Every action the audit log records, with the label the audit screen shows. To add an action, add one
 * line here: `recordAudit` accepts exactly these names (its AuditAction type is derived from this table),
 * the audit-log filter accepts them, and the screen lists them. Names are lower-case, `area.verb` where
 * there is an area; sign-in actions start with `login.` (a Manager does not see those of Admin accounts).
 */
export const AUDIT_ACTIONS = {
  'login.success': 'Sign-in',
  'login.failure': 'Sign-in failed',
  'login.throttled': 'Sign-in throttled',
  'password.change': 'Password changed',
  'team.add': 'Team member added',
  'team.update': 'Team member changed',
  'team.delete': 'Team member deleted',
  'gateway.activate': 'Payment gateway switched',
  'export.csv': 'CSV export',
  'document.withdraw': 'Document withdrawn',
  'card-check.release': 'Blocked card released',
  'order.restore': 'Order restored',
  'order.takeover': 'Order taken over',
  'order.force-complete': 'Order completed without a card',
  'order.payment-reference': 'Payment reference corrected',
  logout: 'Sign-out',
  'session.end': 'Session ended',
  'two-factor.enable': 'Two-factor sign-in turned on',
  'two-factor.disable': 'Two-factor sign-in turned off',
  'two-factor.reset': 'Two-factor sign-in reset',
  'settings.update': 'Settings changed',
  'due-time-policy.update': 'Due-time policy changed',
  'order.erase': 'Personal data erased',
  'template.create': 'Mail template added',
  'template.update': 'Mail template changed',
  'template.delete': 'Mail template deleted',
  'macro.create': 'Macro added',
  'macro.update': 'Macro changed',
  'macro.delete': 'Macro deleted',
  'notifications.update': 'Status notifications changed',
  'view.create': 'List view saved',
  'view.update': 'List view changed',
  'view.delete': 'List view deleted',
  'order.correct': 'Order data corrected',
  'order.duplicate-decision': 'Duplicate decision',
  'shift.note': 'Shift note written',
  'waiting-policy.update': 'Waiting policy changed',
  'waiting-policy.switch': 'Waiting policy switched on or off',
  'order.customer-cancel': 'Order cancelled by the customer',
  'order.rating': 'Order rated by the customer',
  'cancellation-policy.update': 'Cancellation policy changed',
  'feedback-policy.update': 'Feedback policy changed',
  'track-page-answers.update': 'Track page answers changed',
  'payment-policy.update': 'Payment policy changed',
  'order.risk-hold-clear': 'Risk hold cleared',
  'order.fraud-warning-keep': 'Fraud warning kept',
  'order.fraud-warning-refund': 'Refunded on a fraud warning',
  'routing-policy.update': 'Routing policy changed',
  'team.availability': 'Available/Away switched',
  'working-hours.update': 'Working hours changed',
  'order.submitted': 'Submitted to the government',
  'order.force-submit': 'Submitted before the submission window opened',
  'submission-policy.update': 'Submission policy changed',
  'api-key.create': 'API key created',
  'api-key.revoke': 'API key revoked',
} as const satisfies Record<string, string>;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** Prefix of the sign-in actions. */
export const SIGN_IN_ACTION_PREFIX = 'login.';

export const AUDIT_PAGE_SIZE = 50;
/** Highest page the audit list serves (50 × 10,000 = half a million entries back). */
export const MAX_AUDIT_PAGE = 10_000;

export const AUDIT_MSG = {
  dateInvalid: 'must be a date (YYYY-MM-DD)',
  toBeforeFrom: 'The To date must be on or after the From date.',
  actorInvalid: 'must be an e-mail address or a staff id without control characters',
  pageInvalid: `must be a whole number from 1 to ${MAX_AUDIT_PAGE}`,
} as const;

const optionalDay = z
  .string()
  .max(10, AUDIT_MSG.dateInvalid)
  .pipe(z.iso.date({ error: AUDIT_MSG.dateInvalid }))
  .optional();

/** `?actor&action&from&to&page`: actor is a staff id or an e-mail (exact, any case); days in service time. */
export const auditLogQuery = z
  .object({
    actor: z
      .string()
      .trim()
      .max(254, AUDIT_MSG.actorInvalid)
      .regex(/^[^\p{Cc}\p{Cf}\p{Cs}]*$/u, AUDIT_MSG.actorInvalid)
      .optional(),
    action: z.enum(AUDIT_ACTION_NAMES, { error: 'is not a known action' }).optional(),
    from: optionalDay,
    to: optionalDay,
    page: z.coerce
      .number({ error: AUDIT_MSG.pageInvalid })
      .int(AUDIT_MSG.pageInvalid)
      .min(1, AUDIT_MSG.pageInvalid)
      .max(MAX_AUDIT_PAGE, AUDIT_MSG.pageInvalid)
      .default(1),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.to < v.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: AUDIT_MSG.toBeforeFrom });
  });
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

/** `GET /api/admin/audit-log/export?actor&action&from&to`: the filters of the list, without a page. */
export const auditExportQuery = z
  .object({
    actor: auditLogQuery.shape.actor,
    action: auditLogQuery.shape.action,
    from: optionalDay,
    to: optionalDay,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.to < v.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: AUDIT_MSG.toBeforeFrom });
  });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

export const auditEntry = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  from: z.unknown(),
  to: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditLogPage = z.object({
  entries: z.array(auditEntry),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;

/** The screens whose CSV export carries personal data. */
export const EXPORT_SCREENS = ['orders', 'audit-log', 'insights'] as const;

/** Body of POST /api/admin/audit/export-event, sent before the browser builds the file. */
export const exportEventBody = z
  .object({
    screen: z.enum(EXPORT_SCREENS, { error: 'is not a known screen' }),
    rows: z.number().int().min(0).max(1_000_000),
    /** What was exported (folder, filters), as shown on the screen. */
    detail: z
      .string()
      .max(500, 'at most 500 characters')
      .regex(/^[^\p{Cc}\p{Cf}\p{Cs}]*$/u, 'must not contain control characters')
      .default(''),
  })
  .strict();
export type ExportEventBody = z.infer<typeof exportEventBody>;

/** One gateway switch for the Gateway Setting screen. */
export const gatewayChange = z.object({
  createdAt: z.string(),
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  from: z.array(z.string()),
  to: z.array(z.string()),
});
export type GatewayChange = z.infer<typeof gatewayChange>;
