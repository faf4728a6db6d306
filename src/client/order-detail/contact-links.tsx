import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { whatsappLink } from './email-content-modal';
import { useGetEmailContentQuery } from './order-detail-api';
import { formatPhone } from './personal-info-section';

/** The number as `tel:` and wa.me want it: `+` and digits only; null without a number (4 digits or more). */
export function dialNumber(order: Pick<OrderDetails, 'phone_code' | 'telephone_number'>): string | null {
  const number = (order.telephone_number ?? '').replace(/\D/g, '');
  if (number.length < 4) return null;
  return `+${(order.phone_code ?? '').replace(/\D/g, '')}${number}`;
}

function CopyButton({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('Copying is not allowed in this browser; select the text instead.');
    }
  };
  return (
    <Button variant="outline-secondary" size="sm" onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </Button>
  );
}

/**
 * Reaching the traveller from the detail screen (docs/decisions/214): copy the e-mail and the phone,
 * call (`tel:`), or open a WhatsApp chat (`https://wa.me/<digits>`) carrying the approval text.
 */
export function ContactLinks({ order }: { order: OrderDetails }) {
  const dial = dialNumber(order);
  // The approval text the e-mail preview uses (shared cache with View Email Content).
  const { data } = useGetEmailContentQuery(order.order_id, { skip: !dial });
  const chat = dial ? (data?.whatsappUrl ?? whatsappLink(order, data?.whatsappText ?? '')) : null;
  return (
    <fieldset className="d-flex flex-wrap gap-2 mt-2 mb-0 p-0 border-0">
      <legend className="visually-hidden">Contact the traveller</legend>
      <CopyButton label="Copy email" value={order.email} />
      {dial ? (
        <>
          <CopyButton label="Copy phone" value={formatPhone(order)} />
          <a className="btn btn-outline-primary btn-sm" href={`tel:${dial}`}>
            Call {formatPhone(order)}
          </a>
          {chat ? (
            <a
              className="btn btn-outline-success btn-sm"
              href={chat}
              target="_blank"
              rel="noopener noreferrer"
            >
              WhatsApp chat
            </a>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
