import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useState } from 'react';
import { STAFF_REPLY_MAX } from '../../shared/contracts/conversation';
import {
  CALL_BACK_MAX_DAYS,
  CONTACT_CHANNELS,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOMES,
  type ContactOutcome,
} from '../../shared/constants';
import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants';
import { useGetTemplatesQuery } from '../communication/communication-api';
import { toast } from 'react-toastify';
import type { ConversationItem } from '../../shared/contracts/conversation';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { DateTime } from '../components/date-time';
import { downloadWithToken } from './authorized-files';
import {
  useAttachmentAsCardMutation,
  useGetConversationQuery,
  useLogContactMutation,
  useSendStaffReplyMutation,
} from './conversation-api';
import { toastFailure } from './notify';
import { Section } from './section';
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

/** A date-time input value (local time, minutes) for a moment. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** Log a call or WhatsApp contact with its outcome; a call-back needs its time (within 30 days). */
function ContactForm({ orderId }: { orderId: number }) {
  const [channel, setChannel] = useState<string>(CONTACT_CHANNELS[0]);
  const [outcome, setOutcome] = useState<ContactOutcome>('reached');
  const [callBackAt, setCallBackAt] = useState('');
  const [note, setNote] = useState('');
  const [log, { isLoading }] = useLogContactMutation();
  const callBack = outcome === 'call_back';
  const ready = !callBack || callBackAt !== '';
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
          ...(callBack ? { callBackAt: new Date(callBackAt).toISOString() } : {}),
          ...(note.trim() ? { note } : {}),
        });
        if ('error' in result) toast.error(errorMessage(result.error));
        else {
          toast.success(result.data.message);
          setNote('');
          setCallBackAt('');
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
          <TextField
            id={`contact-call-back-${orderId}`}
            label="Call back at"
            labelClassName="small mb-0"
            size="sm"
            type="datetime-local"
            required
            min={localInput(Date.now())}
            max={localInput(Date.now() + CALL_BACK_MAX_DAYS * 86_400_000)}
            value={callBackAt}
            onChange={(e) => setCallBackAt(e.target.value)}
          />
        )}
      </div>
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
  item,
}: {
  orderId: number;
  item: Extract<ConversationItem, { direction: 'in' }>;
}) {
  const [makeCard, { isLoading }] = useAttachmentAsCardMutation();
  const label = DISPOSITION_LABEL[item.disposition];
  return (
    <li className="list-group-item" data-testid="conversation-in">
      <div className="d-flex flex-wrap gap-2 align-items-center small text-body-secondary">
        <strong className="text-body">
          {item.fromName || item.from || (item.government ? 'Government' : 'Customer')}
        </strong>
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
          <Button
            variant="outline-primary"
            size="sm"
            disabled={isLoading}
            onClick={async () => {
              const result = await makeCard({ orderId, attachmentId: a.id });
              if ('error' in result) toast.error(errorMessage(result.error));
              else toast.success(result.data.message);
            }}
          >
            Use as approved card
          </Button>
        </div>
      ))}
      {item.refused.map((r) => (
        <div key={r.name} className="small text-danger">
          {r.name}: {r.reason}
        </div>
      ))}
    </li>
  );
}

/** The reply box: the staff member's own text, or a template, mailed in the customer's thread. */
function ReplyBox({ orderId }: { orderId: number }) {
  const [mode, setMode] = useState<'text' | 'template'>('text');
  const [body, setBody] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [provider, setProvider] = useState<MailProvider>(MAIL_PROVIDERS[0]);
  const { data: templates } = useGetTemplatesQuery(undefined, { skip: mode !== 'template' });
  const [send, { isLoading }] = useSendStaffReplyMutation();
  const keys = [...new Map((templates ?? []).map((t) => [t.key, t.name])).entries()];
  const ready = mode === 'text' ? body.trim().length > 0 : templateId !== '';
  return (
    <form
      className="mt-3"
      aria-label="Reply to the customer"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!ready) return;
        const result = await send(
          mode === 'text' ? { orderId, body, provider } : { orderId, templateId, provider },
        );
        if ('error' in result) toast.error(errorMessage(result.error));
        else {
          toast.success(result.data.message);
          setBody('');
        }
      }}
    >
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
        <Button type="submit" size="sm" disabled={!ready || isLoading}>
          Send reply
        </Button>
      </div>
    </form>
  );
}

/**
 * Every mail we sent, every answer that came in and every call or WhatsApp contact logged, oldest first
 * (docs/product.md, "Customers answer back").
 */
export function ConversationSection({ order }: { order: OrderDetails }) {
  const { data, isLoading } = useGetConversationQuery(order.order_id);
  return (
    <Section title="Conversation">
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
              <Incoming key={`in-${item.id}`} orderId={order.order_id} item={item} />
            ) : item.direction === 'contact' ? (
              <Contact key={`contact-${item.id}`} item={item} />
            ) : (
              <li
                key={`out-${item.id}`}
                className="list-group-item bg-body-tertiary small"
                data-testid="conversation-out"
              >
                <span className="fw-semibold">Sent {item.kind} mail</span> to {item.to} via {item.provider},{' '}
                <DateTime value={item.at} /> — {item.bouncedAt ? 'bounced' : item.status}
                {item.subject && (
                  <div className="text-body" title={item.messageId ?? undefined}>
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
      <ReplyBox orderId={order.order_id} />
      <ContactForm orderId={order.order_id} />
    </Section>
  );
}
