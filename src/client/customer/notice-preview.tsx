import { useRef, useState } from 'react';
import { getApprovalNotice, loadToken } from './customer-api';
import { useI18n } from './i18n';

/** The approval e-mail as it was sent, in a sandboxed frame (no scripts, no same-origin access). */
export function NoticePreview({ orderId }: { orderId: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { t } = useI18n();

  const open = async () => {
    const token = loadToken(orderId);
    if (!token) return;
    const res = await getApprovalNotice(orderId, token);
    if (res.status === 1 && res.data) {
      setHtml(res.data.html);
      setError(null);
    } else {
      setError(t.known(res.message));
    }
    dialog.current?.showModal();
  };

  return (
    <>
      <button type="button" className="c-link-button" onClick={open}>
        {t.t('notice.open')}
      </button>
      <dialog ref={dialog} className="c-dialog" aria-labelledby="notice-title">
        <div className="c-dialog-head">
          <h2 id="notice-title">{t.t('notice.title')}</h2>
          <button type="button" className="c-button c-button-small" onClick={() => dialog.current?.close()}>
            {t.t('common.close')}
          </button>
        </div>
        {error ? <p className="c-error">{error}</p> : null}
        {html ? (
          <iframe title={t.t('notice.title')} sandbox="" srcDoc={html} className="c-notice-frame" />
        ) : null}
      </dialog>
    </>
  );
}
