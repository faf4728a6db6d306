import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useState } from 'react';
import { STAFF_REPLY_MAX } from '../../shared/contracts/conversation';
import { MAIL_PROVIDERS } from '../../shared/constants';
import { useGetTemplatesQuery } from '../communication/communication-api';
import { toast } from 'react-toastify';
import type { ConversationItem } from '../../shared/contracts/conversation';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
import { DateTime } from '../components/date-time';
import { downloadWithToken } from './authorized-files';
import {
  useAttachmentAsCardMutation,
  useGetConversationQuery,
  useSendStaffReplyMutation,
} from './conversation-api';
import { toastFailure } from './notify';
import { Section } from './section';

const SOURCE_LABEL = { mail: 'E-mail', track: 'Track page' } as const;
const DISPOSITION_LABEL = {
  attached: null,
  unmatched: null,
  'auto-reply': 'Auto-reply',
  bounce: 'Bounce',
} as const;

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
        <strong className="text-body">{item.fromName || item.from || 'Customer'}</strong>
        <span>{SOURCE_LABEL[item.source]}</span>
        <DateTime value={item.at} />
        {item.unread && (
          <Badge bg="warning" text="dark">
            Customer replied
          </Badge>
        )}
        {label && <Badge bg="secondary">{label}</Badge>}
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
  const [provider, setProvider] = useState<string>(MAIL_PROVIDERS[0]);
  const { data: templates } = useGetTemplatesQuery(undefined, { skip: mode !== 'template' });
  const [send, { isLoading }] = useSendStaffReplyMutation();
  const keys = [...new Map((templates ?? []).map((t) => [t.key, t.name])).entries()];
  const ready = mode === 'text' ? body.trim().length > 0 : templateId !== '';
  return (
    <Form
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
        <Form.Check
          type="radio"
          id={`reply-text-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Write a reply"
          checked={mode === 'text'}
          onChange={() => setMode('text')}
        />
        <Form.Check
          type="radio"
          id={`reply-template-${orderId}`}
          name={`reply-mode-${orderId}`}
          label="Send a template"
          checked={mode === 'template'}
          onChange={() => setMode('template')}
        />
      </div>
      {mode === 'text' ? (
        <Form.Group controlId={`reply-body-${orderId}`} className="mb-2">
          <Form.Label className="small">Reply</Form.Label>
          <Form.Control
            as="textarea"
            rows={4}
            maxLength={STAFF_REPLY_MAX}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        </Form.Group>
      ) : (
        <Form.Group controlId={`reply-template-select-${orderId}`} className="mb-2">
          <Form.Label className="small">Template</Form.Label>
          <Form.Select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">Choose a template</option>
            {keys.map(([key, name]) => (
              <option key={key} value={key}>
                {name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <Form.Group controlId={`reply-provider-${orderId}`}>
          <Form.Label className="small mb-0">Send via</Form.Label>
          <Form.Select size="sm" value={provider} onChange={(e) => setProvider(e.target.value)}>
            {MAIL_PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button type="submit" size="sm" disabled={!ready || isLoading}>
          Send reply
        </Button>
      </div>
    </Form>
  );
}

/** Every mail we sent and every answer that came in, oldest first (docs/product.md, "Customers answer back"). */
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
            ) : (
              <li
                key={`out-${item.id}`}
                className="list-group-item bg-body-tertiary small"
                data-testid="conversation-out"
              >
                <span className="fw-semibold">Sent {item.kind} mail</span> to {item.to} via {item.provider},{' '}
                <DateTime value={item.at} /> — {item.status}
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
    </Section>
  );
}
