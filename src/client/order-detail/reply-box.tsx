import Button from 'react-bootstrap/Button';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { STAFF_REPLY_MAX } from '../../shared/contracts/conversation';
import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants';
import { statusName } from '../../shared/order-rules';
import { useGetTemplatesQuery } from '../communication/communication-api';
import { errorMessage } from '../transport/api';
import { CheckboxField, SelectField, TextareaField } from '../components/form-kit/form-field';
import type { IncomingItem } from './conversation-messages';
import { useSendStaffReplyMutation } from './conversation-api';

/** The moves a reply can make in the same step (one mail: the reply; no status mail besides). */
const REPLY_MOVES = ['Awaiting', 'Contact Customer', 'AwaitingGovt', 'Customer Called'] as const;
type ReplyMove = (typeof REPLY_MOVES)[number] | '';
type Mode = 'text' | 'template';
type Recipient = 'customer' | 'sender';

/** The message answered came from another address: reply to that sender or mail the order's customer. */
function OtherSenderChoice({
  orderId,
  sender,
  customerEmail,
  recipient,
  onRecipient,
}: {
  orderId: number;
  sender: string;
  customerEmail: string;
  recipient: Recipient;
  onRecipient: (recipient: Recipient) => void;
}) {
  return (
    <div className="alert alert-warning py-2 small" data-testid="reply-other-sender">
      The message you answer came from {sender}, not from the order&apos;s customer ({customerEmail}).
      <div className="d-flex flex-wrap gap-3 mt-1">
        <CheckboxField
          type="radio"
          id={`reply-to-sender-${orderId}`}
          name={`reply-recipient-${orderId}`}
          label={`Reply to the sender (${sender})`}
          checked={recipient === 'sender'}
          onChange={() => onRecipient('sender')}
        />
        <CheckboxField
          type="radio"
          id={`reply-to-customer-${orderId}`}
          name={`reply-recipient-${orderId}`}
          label={`Mail the order's customer (${customerEmail})`}
          checked={recipient === 'customer'}
          onChange={() => onRecipient('customer')}
        />
      </div>
    </div>
  );
}

/** What the reply says: the staff member's own text, or a template (its names, one per key). */
function ReplyContent({
  orderId,
  mode,
  onMode,
  body,
  onBody,
  templateId,
  onTemplateId,
}: {
  orderId: number;
  mode: Mode;
  onMode: (mode: Mode) => void;
  body: string;
  onBody: (body: string) => void;
  templateId: string;
  onTemplateId: (templateId: string) => void;
}) {
  const { data: templates } = useGetTemplatesQuery(undefined, { skip: mode !== 'template' });
  const keys = [...new Map((templates ?? []).map((t) => [t.key, t.name])).entries()];
  return (
    <>
      <div className="d-flex flex-wrap gap-3 mb-2 small">
        <CheckboxField
          type="radio"
          id={`reply-text-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Write a reply"
          checked={mode === 'text'}
          onChange={() => onMode('text')}
        />
        <CheckboxField
          type="radio"
          id={`reply-template-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Send a template"
          checked={mode === 'template'}
          onChange={() => onMode('template')}
        />
      </div>
      {mode === 'text' ? (
        <TextareaField
          id={`reply-body-${orderId}`}
          className="mb-2"
          label="Reply"
          labelClassName="small"
          rows={4}
          maxLength={STAFF_REPLY_MAX}
          value={body}
          onChange={(e) => onBody(e.target.value)}
        />
      ) : (
        <SelectField
          id={`reply-template-select-${orderId}`}
          className="mb-2"
          label="Template"
          labelClassName="small"
          value={templateId}
          onChange={(e) => onTemplateId(e.target.value)}
        >
          <option value="">Choose a template</option>
          {keys.map(([key, name]) => (
            <option key={key} value={key}>
              {name}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}

/** The provider the reply goes through, the move made with it, and the send button. */
function SendRow({
  orderId,
  provider,
  onProvider,
  moveTo,
  onMoveTo,
  disabled,
}: {
  orderId: number;
  provider: MailProvider;
  onProvider: (provider: MailProvider) => void;
  moveTo: ReplyMove;
  onMoveTo: (moveTo: ReplyMove) => void;
  disabled: boolean;
}) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-end">
      <SelectField
        id={`reply-provider-${orderId}`}
        label="Send via"
        labelClassName="small mb-0"
        size="sm"
        value={provider}
        onChange={(e) => onProvider(e.target.value as MailProvider)}
      >
        {MAIL_PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={`reply-move-${orderId}`}
        label="Then"
        labelClassName="small mb-0"
        size="sm"
        value={moveTo}
        onChange={(e) => onMoveTo(e.target.value as ReplyMove)}
      >
        <option value="">Keep the status</option>
        {REPLY_MOVES.map((s) => (
          <option key={s} value={s}>
            Move to {statusName(s)}
          </option>
        ))}
      </SelectField>
      <Button type="submit" size="sm" disabled={disabled}>
        {moveTo ? `Send and move to ${statusName(moveTo)}` : 'Send reply'}
      </Button>
    </div>
  );
}

/** Asked before mailing the order's customer about a message that came from someone else. */
function ConfirmCustomerMail({
  customerEmail,
  sender,
  busy,
  onYes,
  onNo,
}: {
  customerEmail: string;
  sender: string | null;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  return (
    <div
      className="alert alert-danger py-2 small mt-2"
      role="alertdialog"
      aria-label="Mail the order's customer?"
    >
      This mails {customerEmail}, the order&apos;s customer, although the message came from {sender}. Send it
      to {customerEmail}?
      <div className="d-flex gap-2 mt-1">
        <Button size="sm" variant="danger" onClick={onYes} disabled={busy}>
          Send to {customerEmail}
        </Button>
        <Button size="sm" variant="secondary" onClick={onNo}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/**
 * The reply box (decision 359): the staff member's own text, or a template, mailed in the customer's
 * thread. It says who gets the reply ("To:"); when the message answered came from another address it
 * offers "Reply to the sender" and asks before mailing the order's customer. "Send and move to …"
 * sends the one reply and moves the order in the same step.
 */
export function ReplyBox({
  orderId,
  customerEmail,
  answered,
}: {
  orderId: number;
  customerEmail: string;
  answered: IncomingItem | null;
}) {
  const [mode, setMode] = useState<Mode>('text');
  const [body, setBody] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [provider, setProvider] = useState<MailProvider>(MAIL_PROVIDERS[0]);
  const [moveTo, setMoveTo] = useState<ReplyMove>('');
  const [recipient, setRecipient] = useState<Recipient>('customer');
  const [asking, setAsking] = useState(false);
  const [send, { isLoading }] = useSendStaffReplyMutation();
  const ready = mode === 'text' ? body.trim().length > 0 : templateId !== '';
  const sender = answered?.from?.trim() || null;
  const otherSender = sender !== null && sender.toLowerCase() !== customerEmail.trim().toLowerCase();
  const to = otherSender && recipient === 'sender' ? sender : customerEmail;

  const submit = async (confirmCustomer: boolean) => {
    setAsking(false);
    const content = mode === 'text' ? { body } : { templateId };
    const result = await send({
      orderId,
      ...content,
      provider,
      ...(moveTo ? { moveTo } : {}),
      ...(answered && otherSender
        ? { inReplyTo: answered.id, recipient, ...(confirmCustomer ? { confirmCustomer: true } : {}) }
        : {}),
    });
    if ('error' in result) toast.error(errorMessage(result.error));
    else {
      toast.success(result.data.message);
      setBody('');
      setMoveTo('');
    }
  };

  return (
    <form
      className="mt-3"
      aria-label="Reply to the customer"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        // Mailing the order's customer about someone else's message: ask first.
        if (otherSender && recipient === 'customer') setAsking(true);
        else void submit(false);
      }}
    >
      <div className="small mb-2" data-testid="reply-to">
        <span className="text-body-secondary">To:</span> <strong>{to}</strong>
        {to === customerEmail && <span className="text-body-secondary"> (the order&apos;s customer)</span>}
      </div>
      {otherSender && (
        <OtherSenderChoice
          orderId={orderId}
          sender={sender}
          customerEmail={customerEmail}
          recipient={recipient}
          onRecipient={setRecipient}
        />
      )}
      <ReplyContent
        orderId={orderId}
        mode={mode}
        onMode={setMode}
        body={body}
        onBody={setBody}
        templateId={templateId}
        onTemplateId={setTemplateId}
      />
      <SendRow
        orderId={orderId}
        provider={provider}
        onProvider={setProvider}
        moveTo={moveTo}
        onMoveTo={setMoveTo}
        disabled={!ready || isLoading}
      />
      {asking && (
        <ConfirmCustomerMail
          customerEmail={customerEmail}
          sender={sender}
          busy={isLoading}
          onYes={() => void submit(true)}
          onNo={() => setAsking(false)}
        />
      )}
    </form>
  );
}
