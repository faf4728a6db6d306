import { z } from 'zod';
import {
  CALL_BACK_MAX_DAYS,
  CONTACT_CHANNELS,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOMES,
  MAIL_PROVIDERS,
  MOVABLE_STATUSES,
} from '../constants.js';
import { templateKeyField } from './communication.js';

export { CUSTOMER_REPLY_MAX_FILES } from '../constants.js';
import { envelope, expectedVersionField, multilineText, orderIdField, takeOverField } from './common.js';

/** One file that came with a customer's message. */
export const conversationAttachment = z.object({
  id: z.number(),
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number(),
  /** Kept with the order's documents ("Save as document"), never the approved card. */
  savedAt: z.string().nullable(),
});

/** A file a message brought that was not kept, and why. */
export const refusedAttachment = z.object({ name: z.string(), reason: z.string() });

/** One entry of an order's conversation: a mail we sent, or a message that came in. */
export const conversationItem = z.discriminatedUnion('direction', [
  z.object({
    direction: z.literal('out'),
    id: z.number(),
    at: z.string(),
    kind: z.string(),
    to: z.string(),
    status: z.string(),
    provider: z.string(),
    bouncedAt: z.string().nullable(),
    bounceReason: z.string().nullable(),
    /** What the mail said: a staff member's own words, or its template as rendered. */
    text: z.string().nullable().optional(),
    /** The subject it went out with and its Message-ID (what an answer's In-Reply-To names); null before it went. */
    subject: z.string().nullable(),
    messageId: z.string().nullable(),
    /** The staff member who sent it; null: the system (a status mail of a move is the mover's). */
    author: z.string().nullable().optional(),
  }),
  z.object({
    direction: z.literal('in'),
    id: z.number(),
    at: z.string(),
    source: z.enum(['mail', 'track']),
    disposition: z.enum(['attached', 'unmatched', 'auto-reply', 'bounce']),
    from: z.string().nullable(),
    fromName: z.string().nullable(),
    subject: z.string().nullable(),
    text: z.string(),
    quoted: z.string(),
    unread: z.boolean(),
    attachments: z.array(conversationAttachment),
    refused: z.array(refusedAttachment),
    /**
     * False: matched by its sender alone, whom our receiving server did not authenticate; shown as
     * "sender not verified", it moved nothing.
     */
    senderVerified: z.boolean(),
    /** Government mail for the order (matched_by 'government'): shown as "Government wrote". */
    government: z.boolean(),
  }),
  z.object({
    /** A call or WhatsApp contact the Telecaller logged, with its outcome. */
    direction: z.literal('contact'),
    id: z.number(),
    at: z.string(),
    kind: z.enum(CONTACT_CHANNELS),
    outcome: z.enum(CONTACT_OUTCOMES),
    callBackAt: z.string().nullable(),
    staffName: z.string().nullable(),
    note: z.string(),
  }),
]);
export type ConversationItem = z.infer<typeof conversationItem>;

export const conversationResponse = envelope(
  z.object({ orderId: z.number(), items: z.array(conversationItem), failingAddress: z.boolean() }),
);

/** Use a file a customer sent as the approved card: the upload rules and the approval mail, as an upload. */
export const useAsCardBody = z.object({
  email: z.email().max(320).optional(),
  mailServiceProvider: z.enum(MAIL_PROVIDERS).default('AWS'),
  expectedVersion: expectedVersionField.optional(),
  /**
   * The member saw the file and the warning that it came from the customer (an image, often a passport
   * photo): without it the server asks (409) and nothing changes (decision 358).
   */
  confirmCustomerFile: z.boolean().optional(),
});
/** The card is stored; its approval mail waits until `heldUntil` for an Undo. */
export const useAsCardResponse = envelope(
  z.object({
    mailId: z.number(),
    documentId: z.number(),
    status: z.literal('queued'),
    heldUntil: z.string().nullable(),
  }),
);
export const undoCardResponse = envelope(z.object({ documentId: z.number(), cancelledMailId: z.number() }));
export const saveAsDocumentResponse = envelope(
  z.object({ attachmentId: z.number(), name: z.string(), savedAt: z.string(), alreadySaved: z.boolean() }),
);

export const unmatchedItem = z.object({
  id: z.number(),
  at: z.string(),
  from: z.string().nullable(),
  fromName: z.string().nullable(),
  subject: z.string().nullable(),
  text: z.string(),
  /** Why a message that named an order is here (e.g. "sender not authenticated as the government"). */
  reason: z.string().nullable().optional(),
  attachments: z.number(),
});
export const unmatchedResponse = envelope(z.object({ total: z.number(), items: z.array(unmatchedItem) }));

export const attachInboundBody = z.object({ orderId: orderIdField });
export const attachInboundResponse = envelope(z.object({ orderId: z.number(), processStatus: z.string() }));

/** The customer's answer on the track page (multipart: `message`, up to 5 `files`). */
export const customerReplyMessage = multilineText(5000).min(1);
export const customerReplyResponse = envelope(z.object({ received: z.literal(true) }));

/** The waiting policy: reminders to a customer who does not answer, then the Telecaller (minutes). */
const minutes = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(5, 'must be at least 5 minutes')
  .max(60 * 24 * 90, 'must be at most 90 days');
export const waitingPolicy = z
  .object({
    remindAfterMinutes: minutes,
    secondReminderAfterMinutes: minutes,
    escalateAfterMinutes: minutes,
  })
  .strict()
  .refine((p) => p.remindAfterMinutes < p.secondReminderAfterMinutes, {
    message: 'The second reminder must come after the first',
    path: ['secondReminderAfterMinutes'],
  })
  .refine((p) => p.secondReminderAfterMinutes < p.escalateAfterMinutes, {
    message: 'The move to Contact Customer must come after the second reminder',
    path: ['escalateAfterMinutes'],
  });
export type WaitingPolicy = z.infer<typeof waitingPolicy>;
export const waitingPolicyResponse = envelope(waitingPolicy);

/** The policy's on/off switch (`PUT /admin/waiting-policy/enabled`). */
export const waitingPolicyEnabledBody = z.object({ enabled: z.boolean() }).strict();
const waitingPolicySwitchShape = z.object({
  enabled: z.boolean(),
  /** When it was last switched on (ISO); orders waiting since before then start their clock there. */
  enabledSince: z.string().nullable(),
});
export type WaitingPolicySwitch = z.infer<typeof waitingPolicySwitchShape>;
export const waitingPolicySwitchResponse = envelope(waitingPolicySwitchShape);
/** What each step would touch if the policy ran now (`GET /admin/waiting-policy/preview`). */
const waitingPolicyPreviewShape = waitingPolicySwitchShape.extend({
  /** Orders in Awaiting now. */
  waiting: z.number(),
  steps: z.array(
    z.object({
      step: z.number(),
      action: z.enum(['reminder', 'second-reminder', 'contact-customer']),
      afterMinutes: z.number(),
      orders: z.number(),
    }),
  ),
});
export type WaitingPolicyPreview = z.infer<typeof waitingPolicyPreviewShape>;
export const waitingPolicyPreviewResponse = envelope(waitingPolicyPreviewShape);

/** A staff reply from the detail page: a template mail, threaded to the customer's last message. */
export const STAFF_REPLY_MAX = 5000;
export const staffMessageBody = z
  .object({
    /** A template's key, or `body`: the reply as free text (line breaks allowed). Exactly one of them. */
    templateId: templateKeyField.optional(),
    body: multilineText(STAFF_REPLY_MAX).min(1, 'must not be empty').optional(),
    provider: z.enum(MAIL_PROVIDERS).default('AWS'),
    moveTo: z.enum(MOVABLE_STATUSES).optional(),
    expectedVersion: expectedVersionField,
    /** Admin or Manager: take over an order someone else holds (the holder rule). */
    takeOver: takeOverField,
    /** The message being answered (an incoming message of this order). */
    inReplyTo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    /** Who gets the reply: the order's customer (default) or the sender of `inReplyTo`. */
    recipient: z.enum(['customer', 'sender']).default('customer'),
    /** The member saw that `inReplyTo` came from another address and still mails the order's customer. */
    confirmCustomer: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.templateId === undefined) !== (b.body === undefined), {
    message: 'must be a templateId or a body (one of them)',
    path: ['body'],
  })
  .refine((b) => b.recipient === 'customer' || b.inReplyTo !== undefined, {
    message: 'name the message whose sender gets the reply',
    path: ['inReplyTo'],
  });
export const staffMessageResponse = envelope(
  z.object({ mailId: z.number(), processStatus: z.string(), to: z.string() }),
);

/**
 * A call or WhatsApp contact with its outcome. `callBackAt` (ISO date-time with offset) is required for
 * a call-back, and only then: in the future, at most 30 days ahead.
 */
export const contactBody = z
  .object({
    channel: z.enum(CONTACT_CHANNELS),
    outcome: z.enum(CONTACT_OUTCOMES),
    callBackAt: z.iso.datetime({ offset: true, error: 'must be a date and time' }).optional(),
    note: multilineText(CONTACT_NOTE_MAX).optional(),
    takeOver: takeOverField,
    expectedVersion: expectedVersionField,
    /** Reached: move the order to Customer Called in the same step. */
    moveToCustomerCalled: z.boolean().optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.moveToCustomerCalled && b.outcome !== 'reached')
      ctx.addIssue({
        code: 'custom',
        path: ['moveToCustomerCalled'],
        message: 'is only for a reached customer',
      });
    if (b.outcome !== 'call_back') {
      if (b.callBackAt !== undefined)
        ctx.addIssue({ code: 'custom', path: ['callBackAt'], message: 'is only for a call-back' });
      return;
    }
    if (b.callBackAt === undefined) {
      ctx.addIssue({ code: 'custom', path: ['callBackAt'], message: 'is required for a call-back' });
      return;
    }
    const at = Date.parse(b.callBackAt);
    if (!(at > Date.now()))
      ctx.addIssue({ code: 'custom', path: ['callBackAt'], message: 'must be in the future' });
    else if (at > Date.now() + CALL_BACK_MAX_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['callBackAt'],
        message: `must be at most ${CALL_BACK_MAX_DAYS} days ahead`,
      });
  });
export type ContactBody = z.infer<typeof contactBody>;
export const contactResponse = envelope(
  z.object({
    contactId: z.number(),
    assignedTo: z.number().nullable(),
    callBackAt: z.string().nullable(),
    /** Where the order is after the step (Customer Called when moved). */
    processStatus: z.string(),
  }),
);
