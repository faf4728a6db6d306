import { useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import {
  TEMPLATE_LANGUAGE_NAMES,
  type MailTemplate,
  type TemplateLanguage,
} from '../../shared/contracts/communication';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { statusName } from '../../shared/order-rules';
import { errorMessage } from '../transport/api';
import { useGetTemplatesQuery, usePreviewTemplateMutation } from '../communication/communication-api';
import { whatsappLink } from './email-content-modal';
import { useGetEmailContentQuery } from './order-detail-api';

/** `+code number`, or empty when there is no number. */
export function formatPhone(order: Pick<OrderDetails, 'phone_code' | 'telephone_number'>): string {
  if (!order.telephone_number) return '';
  const code = (order.phone_code ?? '').replace(/^\+/, '');
  return code ? `+${code} ${order.telephone_number}` : order.telephone_number;
}

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

/** `Name (Language)` for the chooser. */
function templateLabel(t: Pick<MailTemplate, 'name' | 'language'>): string {
  return `${t.name} (${TEMPLATE_LANGUAGE_NAMES[t.language as TemplateLanguage] ?? t.language})`;
}

/**
 * The text the WhatsApp chat carries: the template its status suggests, in the order's language (`get-email-content`,
 * the default, cached with View Email Content; a chat without text if it fails) or any mail template, rendered for this order by the
 * templates' preview call (docs/decisions/275). Null while the chosen text is being rendered.
 */
function useChatText(order: OrderDetails, enabled: boolean, templateId: number | null) {
  const { data: approval, isError } = useGetEmailContentQuery(order.order_id, { skip: !enabled });
  const { data: templates } = useGetTemplatesQuery(undefined, { skip: !enabled });
  const [preview] = usePreviewTemplateMutation();
  const [rendered, setRendered] = useState<{ id: number; text: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const chosen = templateId === null ? null : templates?.find((t) => t.id === templateId);

  useEffect(() => {
    setFailed(null);
    if (!chosen) return;
    let current = true;
    preview({ orderId: order.order_id, subject: chosen.subject, body: chosen.body })
      .unwrap()
      .then((answer) => {
        if (current) setRendered({ id: chosen.id, text: answer.data?.text ?? '' });
      })
      .catch((error: unknown) => {
        if (current) setFailed(errorMessage(error));
      });
    return () => {
      current = false;
    };
  }, [chosen, order.order_id, preview]);

  const text =
    templateId === null
      ? (approval?.whatsappText ?? (isError ? '' : null))
      : rendered?.id === templateId
        ? rendered.text
        : null;
  return { templates: templates ?? [], text, failed };
}

/**
 * Reaching the traveller from the detail screen (docs/decisions/214, 275): copy the e-mail and the phone,
 * call (`tel:`), or open a WhatsApp chat (`https://wa.me/<digits>`) carrying the chosen template's text
 * (the approval notice unless another is chosen).
 */
export function ContactLinks({ order }: { order: OrderDetails }) {
  const dial = dialNumber(order);
  const selectId = useId();
  const [templateId, setTemplateId] = useState<number | null>(null);
  const { templates, text, failed } = useChatText(order, Boolean(dial), templateId);
  // The phone is reduced to digits and the text passes through encodeURIComponent only (whatsappLink).
  const chat = dial && text !== null ? whatsappLink(order, text) : null;
  return (
    <fieldset className="d-flex flex-wrap align-items-center gap-2 mt-2 mb-0 p-0 border-0">
      <legend className="visually-hidden">Contact the traveller</legend>
      <CopyButton label="Copy email" value={order.email} />
      {dial ? (
        <>
          <CopyButton label="Copy phone" value={formatPhone(order)} />
          <a className="btn btn-outline-primary btn-sm" href={`tel:${dial}`}>
            Call {formatPhone(order)}
          </a>
          <label className="visually-hidden" htmlFor={selectId}>
            WhatsApp message
          </label>
          <select
            id={selectId}
            className="form-select form-select-sm w-auto mw-100"
            value={templateId ?? ''}
            onChange={(e) => setTemplateId(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">Suggested for {statusName(order.process_status)} (order&apos;s language)</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {templateLabel(t)}
              </option>
            ))}
          </select>
          {chat ? (
            <a
              className="btn btn-outline-success btn-sm"
              href={chat}
              target="_blank"
              rel="noopener noreferrer"
            >
              WhatsApp chat
            </a>
          ) : failed ? (
            <span className="text-danger small" role="alert">
              {failed}
            </span>
          ) : (
            <span className="text-muted small" aria-live="polite">
              Preparing the message…
            </span>
          )}
        </>
      ) : null}
    </fieldset>
  );
}
