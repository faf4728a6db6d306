import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useEffect, useRef, useState } from 'react';
import { STAFF_REPLY_MAX } from '../../shared/contracts/conversation';
import {
  CONTACT_CHANNELS,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOMES,
  type ContactOutcome,
} from '../../shared/constants';
import { MAIL_PROVIDERS, type MailProvider, SERVICE_TIME_ZONE } from '../../shared/constants';
import { useGetTemplatesQuery } from '../communication/communication-api';
import { toast } from 'react-toastify';
import type { ConversationItem } from '../../shared/contracts/conversation';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { DateTime } from '../components/date-time';
import { DateField } from '../components/form-kit/date-field';
import { easternZoneLabel, serviceZoneInstant } from '../../shared/dates';
import { statusName } from '../../shared/order-rules';
import { downloadWithToken } from './authorized-files';
import {
  useGetConversationQuery,
  useLogContactMutation,
  useMarkConversationReadMutation,
  useSendStaffReplyMutation,
} from './conversation-api';
import { toastFailure } from './notify';
import { Section } from './section';
import { UseAsCardDialog } from './use-as-card-dialog';
import { CheckboxField, SelectField, TextareaField, TextField } from '../components/form-kit/form-field';

const SOURCE_LABEL = { mail: 'E-mail', track: 'Track page' } as const;
const DISPOSITION_LABEL = {
  attached: null,
  unmatched: null,
  'auto-reply': 'Auto-reply',
  bounce: 'Bounce',
} as const;

const CHANNEL_LABEL = { call: 'Call', whatsapp: 'WhatsApp' } as const;
const OUTCOME_LABEL: Record<ContactOutcome, string> = {
  reached: 'Reached',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
  call_back: 'Call back',
};
const OUTCOME_BG: Record<ContactOutcome, string> = {
  reached: 'success',
  no_answer: 'secondary',
  wrong_number: 'danger',
  call_back: 'info',
};

function Contact({ item }: { item: Extract<ConversationItem, { direction: 'contact' }> }) {
  return (
    <li className="list-group-item small" data-testid="conversation-contact">
      <div className="d-flex flex-wrap gap-2 align-items-center text-body-secondary">
        <strong className="text-body">{CHANNEL_LABEL[item.kind]}</strong>
        <Badge bg={OUTCOME_BG[item.outcome]}>{OUTCOME_LABEL[item.outcome]}</Badge>
        {item.callBackAt && (
          <span>
            at <DateTime value={item.callBackAt} />
          </span>
        )}
        <span>{item.staffName ?? 'Staff'}</span>
        <DateTime value={item.at} />
      </div>
      {item.note && (
        <p className="mb-0 mt-1" style={{ whiteSpace: 'pre-wrap' }}>
          {item.note}
        </p>
      )}
    </li>
  );
}

/** Log a call or WhatsApp contact with its outcome; a call-back needs its time (within 30 days). */
function ContactForm({
  orderId,
  processStatus,
  version,
}: {
  orderId: number;
  processStatus: string;
  version: number;
}) {
  const [channel, setChannel] = useState<string>(CONTACT_CHANNELS[0]);
  const [moveCalled, setMoveCalled] = useState(false);
  const [outcome, setOutcome] = useState<ContactOutcome>('reached');
  // Typed in the service time zone: a day-first date and a 24-hour time.
  const [callBackDay, setCallBackDay] = useState('');
  const [callBackTime, setCallBackTime] = useState('');
  const callBackAt = serviceZoneInstant(callBackDay, callBackTime) ?? '';
  const [note, setNote] = useState('');
  const [log, { isLoading }] = useLogContactMutation();
  const callBack = outcome === 'call_back';
  const ready = !callBack || callBackAt !== '';
  // Reached: offer the move to Customer Called in the same step.
  const offerMove = outcome === 'reached' && processStatus !== 'Customer Called';
  return (
    <form
      className="mt-3"
      aria-label="Log a call"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!ready) return;
        const result = await log({
          orderId,
          channel,
          outcome,
          ...(callBack ? { callBackAt } : {}),
          ...(note.trim() ? { note } : {}),
          ...(offerMove && moveCalled ? { moveToCustomerCalled: true, expectedVersion: version } : {}),
        });
        if ('error' in result) toast.error(errorMessage(result.error));
        else {
          toast.success(result.data.message);
          setNote('');
          setCallBackDay('');
          setCallBackTime('');
          setMoveCalled(false);
        }
      }}
    >
      <div className="fw-semibold small mb-1">Log a call</div>
      <div className="d-flex flex-wrap gap-2 align-items-end mb-2">
        <SelectField
          id={`contact-channel-${orderId}`}
          label="Channel"
          labelClassName="small mb-0"
          size="sm"
          value={channel}
          onChange={(e) => setChannel(e.target.value)}
        >
          {CONTACT_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABEL[c]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id={`contact-outcome-${orderId}`}
          label="Outcome"
          labelClassName="small mb-0"
          size="sm"
          value={outcome}
          onChange={(e) => setOutcome(e.target.value as ContactOutcome)}
        >
          {CONTACT_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {OUTCOME_LABEL[o]}
            </option>
          ))}
        </SelectField>
        {callBack && (
          <>
            <DateField
              id={`contact-call-back-${orderId}`}
              label={`Call back at (${SERVICE_TIME_ZONE}, ${easternZoneLabel(callBackAt || Date.now())})`}
              labelClassName="small mb-0"
              size="sm"
              validOnly
              value={callBackDay}
              onChange={setCallBackDay}
            />
            <TextField
              id={`contact-call-back-time-${orderId}`}
              label={`Time (${easternZoneLabel(callBackAt || Date.now())})`}
              labelClassName="small mb-0"
              size="sm"
              type="time"
              required
              value={callBackTime}
              onChange={(e) => setCallBackTime(e.target.value)}
            />
          </>
        )}
      </div>
      {offerMove && (
        <CheckboxField
          id={`contact-move-${orderId}`}
          className="small mb-2"
          label="and move the order to Customer Called"
          checked={moveCalled}
          onChange={(e) => setMoveCalled(e.target.checked)}
        />
      )}
      <TextareaField
        id={`contact-note-${orderId}`}
        className="mb-2"
        label="Note"
        labelClassName="small"
        rows={2}
        maxLength={CONTACT_NOTE_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button type="submit" size="sm" variant="outline-primary" disabled={!ready || isLoading}>
        Log contact
      </Button>
    </form>
  );
}

function Incoming({
  orderId,
  customerEmail,
  item,
}: {
  orderId: number;
  customerEmail: string;
  item: Extract<ConversationItem, { direction: 'in' }>;
}) {
  const [asking, setAsking] = useState<(typeof item.attachments)[number] | null>(null);
  const label = DISPOSITION_LABEL[item.disposition];
  return (
    <li className="list-group-item" data-testid="conversation-in">
      <div className="d-flex flex-wrap gap-2 align-items-center small text-body-secondary">
        <strong className="text-body" data-testid="conversation-author">
          {item.fromName || item.from || (item.government ? 'Government' : 'Customer')}
        </strong>
        {item.government ? null : !item.from || item.from.toLowerCase() === customerEmail.toLowerCase() ? (
          <span>customer</span>
        ) : (
          <Badge bg="danger">not the order&apos;s customer</Badge>
        )}
        <span>{SOURCE_LABEL[item.source]}</span>
        <DateTime value={item.at} />
        {item.government && (
          <Badge bg="primary" title="Mail from the government, authenticated by our receiving server">
            Government wrote
          </Badge>
        )}
        {item.unread && !item.government && (
          <Badge bg="warning" text="dark">
            Customer replied
          </Badge>
        )}
        {label && <Badge bg="secondary">{label}</Badge>}
        {item.senderVerified === false && (
          <Badge
            bg="danger"
            title="Matched by the sender's address alone, not authenticated: it moved nothing"
          >
            sender not verified
          </Badge>
        )}
      </div>
      {item.subject && <div className="fw-semibold">{item.subject}</div>}
      <p className="mb-1" style={{ whiteSpace: 'pre-wrap' }}>
        {item.text}
      </p>
      {item.quoted && (
        <details className="small text-body-secondary">
          <summary>Quoted text</summary>
          <pre className="mb-0" style={{ whiteSpace: 'pre-wrap' }}>
            {item.quoted}
          </pre>
        </details>
      )}
      {item.attachments.map((a) => (
        <div key={a.id} className="d-flex flex-wrap gap-2 align-items-center mt-1">
          <Button
            variant="link"
            size="sm"
            className="p-0"
            onClick={async () => {
              const failure = await downloadWithToken(
                `/api/admin/orders/${orderId}/conversation/attachments/${a.id}`,
                a.name,
              );
              if (failure) toastFailure(failure.httpStatus, failure.message);
            }}
          >
            {a.name}
          </Button>
          <Button variant="outline-primary" size="sm" onClick={() => setAsking(a)}>
            Use as approved card…
          </Button>
          {a.savedAt && <Badge bg="secondary">Saved as document</Badge>}
        </div>
      ))}
      {asking && <UseAsCardDialog orderId={orderId} file={asking} onClose={() => setAsking(null)} />}
      {item.refused.map((r) => (
        <div key={r.name} className="small text-danger">
          {r.name}: {r.reason}
        </div>
      ))}
    </li>
  );
}

/** The moves a reply can make in the same step (one mail: the reply; no status mail besides). */
const REPLY_MOVES = ['Awaiting', 'Contact Customer', 'AwaitingGovt', 'Customer Called'] as const;

type IncomingItem = Extract<ConversationItem, { direction: 'in' }>;

/**
 * The reply box (decision 359): the staff member's own text, or a template, mailed in the customer's
 * thread. It says who gets the reply ("To:"); when the message answered came from another address it
 * offers "Reply to the sender" and asks before mailing the order's customer. "Send and move to …"
 * sends the one reply and moves the order in the same step.
 */
function ReplyBox({
  orderId,
  customerEmail,
  answered,
}: {
  orderId: number;
  customerEmail: string;
  answered: IncomingItem | null;
}) {
  const [mode, setMode] = useState<'text' | 'template'>('text');
  const [body, setBody] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [provider, setProvider] = useState<MailProvider>(MAIL_PROVIDERS[0]);
  const [moveTo, setMoveTo] = useState<(typeof REPLY_MOVES)[number] | ''>('');
  const [recipient, setRecipient] = useState<'customer' | 'sender'>('customer');
  const [asking, setAsking] = useState(false);
  const { data: templates } = useGetTemplatesQuery(undefined, { skip: mode !== 'template' });
  const [send, { isLoading }] = useSendStaffReplyMutation();
  const keys = [...new Map((templates ?? []).map((t) => [t.key, t.name])).entries()];
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
        <div className="alert alert-warning py-2 small" data-testid="reply-other-sender">
          The message you answer came from {sender}, not from the order&apos;s customer ({customerEmail}).
          <div className="d-flex flex-wrap gap-3 mt-1">
            <CheckboxField
              type="radio"
              id={`reply-to-sender-${orderId}`}
              name={`reply-recipient-${orderId}`}
              label={`Reply to the sender (${sender})`}
              checked={recipient === 'sender'}
              onChange={() => setRecipient('sender')}
            />
            <CheckboxField
              type="radio"
              id={`reply-to-customer-${orderId}`}
              name={`reply-recipient-${orderId}`}
              label={`Mail the order's customer (${customerEmail})`}
              checked={recipient === 'customer'}
              onChange={() => setRecipient('customer')}
            />
          </div>
        </div>
      )}
      <div className="d-flex flex-wrap gap-3 mb-2 small">
        <CheckboxField
          type="radio"
          id={`reply-text-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Write a reply"
          checked={mode === 'text'}
          onChange={() => setMode('text')}
        />
        <CheckboxField
          type="radio"
          id={`reply-template-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Send a template"
          checked={mode === 'template'}
          onChange={() => setMode('template')}
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
          onChange={(e) => setBody(e.target.value)}
        />
      ) : (
        <SelectField
          id={`reply-template-select-${orderId}`}
          className="mb-2"
          label="Template"
          labelClassName="small"
          value={templateId}
          onChange={(e) => setTemplateId(e.target.value)}
        >
          <option value="">Choose a template</option>
          {keys.map(([key, name]) => (
            <option key={key} value={key}>
              {name}
            </option>
          ))}
        </SelectField>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <SelectField
          id={`reply-provider-${orderId}`}
          label="Send via"
          labelClassName="small mb-0"
          size="sm"
          value={provider}
          onChange={(e) => setProvider(e.target.value as MailProvider)}
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
          onChange={(e) => setMoveTo(e.target.value as (typeof REPLY_MOVES)[number] | '')}
        >
          <option value="">Keep the status</option>
          {REPLY_MOVES.map((s) => (
            <option key={s} value={s}>
              Move to {statusName(s)}
            </option>
          ))}
        </SelectField>
        <Button type="submit" size="sm" disabled={!ready || isLoading}>
          {moveTo ? `Send and move to ${statusName(moveTo)}` : 'Send reply'}
        </Button>
      </div>
      {asking && (
        <div
          className="alert alert-danger py-2 small mt-2"
          role="alertdialog"
          aria-label="Mail the order's customer?"
        >
          This mails {customerEmail}, the order&apos;s customer, although the message came from {sender}. Send
          it to {customerEmail}?
          <div className="d-flex gap-2 mt-1">
            <Button size="sm" variant="danger" onClick={() => void submit(true)} disabled={isLoading}>
              Send to {customerEmail}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}

/**
 * Every mail we sent, every answer that came in and every call or WhatsApp contact logged, oldest first
 * (docs/product.md, "Customers answer back").
 */
export function ConversationSection({ order }: { order: OrderDetails }) {
  const { data, isLoading } = useGetConversationQuery(order.order_id);
  const [markRead, marking] = useMarkConversationReadMutation();
  const unread = !!data?.items.some((i) => i.direction === 'in' && i.unread);
  const listRef = useRef<HTMLDivElement>(null);
  // The answers count as read once the conversation has been on screen for a moment (not on opening
  // the order): half of it visible for 1.5 s.
  useEffect(() => {
    const target = listRef.current;
    if (!unread || !target || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) {
          timer ??= setTimeout(() => {
            observer.disconnect();
            void markRead(order.order_id);
          }, 1500);
        } else if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
      },
      { threshold: 0.5 },
    );
    observer.observe(target);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [unread, markRead, order.order_id]);
  return (
    <Section title="Conversation">
      {unread && (
        <div className="d-flex align-items-center gap-2 mb-2 small" data-testid="conversation-unread">
          <Badge bg="warning" text="dark">
            Unread answer
          </Badge>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={marking.isLoading}
            onClick={() => void markRead(order.order_id)}
          >
            Mark read
          </Button>
        </div>
      )}
      <div ref={listRef}>
        {data?.failingAddress && (
          <div className="alert alert-warning py-2 small">
            Mail to {order.email} is failing: call the customer.
          </div>
        )}
        {isLoading ? (
          <p className="text-muted">Loading…</p>
        ) : !data?.items.length ? (
          <p className="text-muted">No messages yet.</p>
        ) : (
          <ul className="list-group" data-testid="conversation">
            {data.items.map((item) =>
              item.direction === 'in' ? (
                <Incoming
                  key={`in-${item.id}`}
                  orderId={order.order_id}
                  customerEmail={order.email}
                  item={item}
                />
              ) : item.direction === 'contact' ? (
                <Contact key={`contact-${item.id}`} item={item} />
              ) : (
                <li
                  key={`out-${item.id}`}
                  className="list-group-item bg-body-tertiary small"
                  data-testid="conversation-out"
                >
                  <div className="d-flex flex-wrap gap-2 align-items-center text-body-secondary">
                    <strong className="text-body" data-testid="conversation-author">
                      {item.author ?? 'System'}
                    </strong>
                    {/* A long address wraps rather than widen the page past a phone's screen. */}
                    <span className="text-break" style={{ minWidth: 0 }}>
                      Sent {item.kind === 'macro' ? 'reply' : item.kind} mail to {item.to} via {item.provider}
                    </span>
                    <DateTime value={item.at} />
                    <span>— {item.bouncedAt ? 'bounced' : item.status}</span>
                  </div>
                  {item.subject && (
                    <div className="fw-semibold text-body mt-1" title={item.messageId ?? undefined}>
                      {item.subject}
                    </div>
                  )}
                  {item.text && (
                    <p className="mb-0 mt-1 text-body" style={{ whiteSpace: 'pre-wrap' }}>
                      {item.text}
                    </p>
                  )}
                  {item.bouncedAt && (
                    <Badge bg="danger" className="ms-2">
                      Bounced {item.bounceReason}
                    </Badge>
                  )}
                </li>
              ),
            )}
          </ul>
        )}
      </div>
      <ReplyBox
        orderId={order.order_id}
        customerEmail={order.email}
        answered={
          [...(data?.items ?? [])]
            .reverse()
            .find((i): i is IncomingItem => i.direction === 'in' && i.disposition === 'attached') ?? null
        }
      />
      <ContactForm orderId={order.order_id} processStatus={order.process_status} version={order.version} />
    </Section>
  );
}
