import { type FormEvent, useState } from 'react';
import { CUSTOMER_REPLY_MAX_FILES } from '../../shared/constants';
import { useI18n } from './i18n';
import { notifyError } from './notify';

/**
 * The customer's answer when the order needs something (Awaiting, Contact Customer): a message and up
 * to 5 photos or documents, sent with the customer token; the page then says it was received.
 */
export function ReplyForm({
  orderId,
  token,
  answered = false,
  onSent,
}: {
  orderId: string;
  token: string;
  /** The customer already answered since the request: the form offers to send more. */
  answered?: boolean;
  /** Called once the answer is stored (the page reloads its stage). */
  onSent?: () => void;
}) {
  const { t } = useI18n();
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  if (sent)
    return (
      <section className="c-card c-reply" aria-live="polite">
        <p className="c-stage-message" data-testid="reply-received">
          {t.t('reply.received')}
        </p>
      </section>
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!message.trim()) return;
    if (files.length > CUSTOMER_REPLY_MAX_FILES) return notifyError(t.t('reply.tooMany'));
    const form = new FormData();
    form.append('message', message);
    for (const f of files) form.append('files', f, f.name);
    setBusy(true);
    try {
      const res = await fetch(`/api/customer/orders/${encodeURIComponent(orderId)}/replies`, {
        method: 'POST',
        headers: { authorization: token },
        body: form,
      });
      if (res.ok) {
        setSent(true);
        onSent?.();
      } else {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        notifyError(body?.message && res.status !== 500 ? t.known(body.message) : t.t('reply.failed'));
      }
    } catch {
      notifyError(t.t('reply.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="c-card c-reply" aria-labelledby="reply-title">
      <h2 id="reply-title">{t.t(answered ? 'reply.titleMore' : 'reply.title')}</h2>
      <form onSubmit={submit}>
        <div className="c-field">
          <label htmlFor="reply-message">{t.t('reply.message')}</label>
          <textarea
            id="reply-message"
            rows={4}
            maxLength={5000}
            required
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
        <div className="c-field">
          <label htmlFor="reply-files">{t.t('reply.files')}</label>
          <input
            id="reply-files"
            type="file"
            multiple
            accept="image/*,application/pdf"
            onChange={(e) =>
              setFiles(Array.from(e.target.files ?? []).slice(0, CUSTOMER_REPLY_MAX_FILES + 1))
            }
          />
        </div>
        <button type="submit" className="c-button" disabled={busy}>
          {busy ? t.t('reply.sending') : t.t('reply.send')}
        </button>
      </form>
    </section>
  );
}
