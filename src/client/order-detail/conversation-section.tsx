import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useEffect, useRef } from 'react';
import type { ConversationItem } from '../../shared/contracts/conversation';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { useGetConversationQuery, useMarkConversationReadMutation } from './conversation-api';
import { Contact, ContactForm } from './conversation-contact';
import { Incoming, type IncomingItem, Outgoing } from './conversation-messages';
import { ReplyBox } from './reply-box';
import { Section } from './section';

/**
 * The answers count as read once the conversation has been on screen for a moment (not on opening the
 * order): half of it visible for 1.5 s. The returned ref goes on the conversation's list.
 */
function useMarkReadWhenSeen(unread: boolean, orderId: number, markRead: (orderId: number) => unknown) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = listRef.current;
    if (!unread || !target || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) {
          timer ??= setTimeout(() => {
            observer.disconnect();
            void markRead(orderId);
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
  }, [unread, markRead, orderId]);
  return listRef;
}

/** The messages and contacts, oldest first, each drawn by its direction. */
function ConversationList({ order, items }: { order: OrderDetails; items: ConversationItem[] }) {
  return (
    <ul className="list-group" data-testid="conversation">
      {items.map((item) =>
        item.direction === 'in' ? (
          <Incoming key={`in-${item.id}`} orderId={order.order_id} customerEmail={order.email} item={item} />
        ) : item.direction === 'contact' ? (
          <Contact key={`contact-${item.id}`} item={item} />
        ) : (
          <Outgoing key={`out-${item.id}`} item={item} />
        ),
      )}
    </ul>
  );
}

/** The newest message that came in and was attached to the order: the one a reply answers. */
function lastAnswered(items: ConversationItem[] | undefined): IncomingItem | null {
  return (
    [...(items ?? [])]
      .reverse()
      .find((i): i is IncomingItem => i.direction === 'in' && i.disposition === 'attached') ?? null
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
  const listRef = useMarkReadWhenSeen(unread, order.order_id, markRead);
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
          <ConversationList order={order} items={data.items} />
        )}
      </div>
      <ReplyBox orderId={order.order_id} customerEmail={order.email} answered={lastAnswered(data?.items)} />
      <ContactForm orderId={order.order_id} processStatus={order.process_status} version={order.version} />
    </Section>
  );
}
