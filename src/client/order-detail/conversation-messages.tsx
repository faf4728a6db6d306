import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useState } from 'react';
import type { ConversationItem } from '../../shared/contracts/conversation';
import { DateTime } from '../components/date-time';
import { downloadWithToken } from './authorized-files';
import { toastFailure } from './notify';
import { UseAsCardDialog } from './use-as-card-dialog';

const SOURCE_LABEL = { mail: 'E-mail', track: 'Track page' } as const;
const DISPOSITION_LABEL = {
  attached: null,
  unmatched: null,
  'auto-reply': 'Auto-reply',
  bounce: 'Bounce',
} as const;

export type IncomingItem = Extract<ConversationItem, { direction: 'in' }>;
type Attachment = IncomingItem['attachments'][number];

/** Who wrote an incoming message, whether it is the order's customer, and what the message is. */
function IncomingHeader({ customerEmail, item }: { customerEmail: string; item: IncomingItem }) {
  const label = DISPOSITION_LABEL[item.disposition];
  return (
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
        <Badge bg="danger" title="Matched by the sender's address alone, not authenticated: it moved nothing">
          sender not verified
        </Badge>
      )}
    </div>
  );
}

/** One attachment of an incoming message: download it, or use it as the approved card. */
function AttachmentRow({
  orderId,
  attachment: a,
  onUse,
}: {
  orderId: number;
  attachment: Attachment;
  onUse: (a: Attachment) => void;
}) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center mt-1">
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
      <Button variant="outline-primary" size="sm" onClick={() => onUse(a)}>
        Use as approved card…
      </Button>
      {a.savedAt && <Badge bg="secondary">Saved as document</Badge>}
    </div>
  );
}

/** A message that came in: by mail or from the track page, with its attachments and refused files. */
export function Incoming({
  orderId,
  customerEmail,
  item,
}: {
  orderId: number;
  customerEmail: string;
  item: IncomingItem;
}) {
  const [asking, setAsking] = useState<Attachment | null>(null);
  return (
    <li className="list-group-item" data-testid="conversation-in">
      <IncomingHeader customerEmail={customerEmail} item={item} />
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
        <AttachmentRow key={a.id} orderId={orderId} attachment={a} onUse={setAsking} />
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

/** A mail we sent: who sent it, to whom and through which provider, and whether it bounced. */
export function Outgoing({ item }: { item: Extract<ConversationItem, { direction: 'out' }> }) {
  return (
    <li className="list-group-item bg-body-tertiary small" data-testid="conversation-out">
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
  );
}
