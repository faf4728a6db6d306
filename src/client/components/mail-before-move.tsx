import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { MailPreview } from '../../shared/contracts/order-detail';
import { sessionUser } from '../transport/session';
import { CheckboxField, TextareaField } from './form-kit/form-field';

const skipKey = () => `edcard.skipMailPreview.${sessionUser()?.id ?? 0}`;

/** The per-user setting: experienced staff may skip the mail preview before a move. */
export function skipsMailPreview(): boolean {
  try {
    return localStorage.getItem(skipKey()) === '1';
  } catch {
    return false;
  }
}

export function setSkipsMailPreview(skip: boolean): void {
  try {
    if (skip) localStorage.setItem(skipKey(), '1');
    else localStorage.removeItem(skipKey());
  } catch {
    // Private mode without storage: the preview keeps showing.
  }
}

/** Before a move that mails the customer: which mail, in which language, with a Preview (decision 298). */
export function MailBeforeMove({
  preview,
  action,
  busy,
  onYes,
  onNo,
}: {
  preview: MailPreview | null;
  action: string;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  const [showMail, setShowMail] = useState(false);
  const [skip, setSkip] = useState(false);
  if (!preview) return null;
  return (
    <Modal show onHide={onNo} centered size={showMail ? 'lg' : undefined}>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="fs-5">
          {action}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {preview.repeatMinutes !== null ? (
          <p>
            The customer got the mail <strong>“{preview.templateName}”</strong> {preview.repeatMinutes} min
            ago: it will not be sent again.
          </p>
        ) : (
          <p>
            The customer will get the mail <strong>“{preview.templateName}”</strong> (
            {preview.language.toUpperCase()}): <em>{preview.subject}</em>
          </p>
        )}
        <Button variant="link" className="p-0" onClick={() => setShowMail((v) => !v)}>
          {showMail ? 'Hide preview' : 'Preview'}
        </Button>
        {showMail ? (
          <iframe
            title="Mail preview"
            sandbox=""
            srcDoc={preview.html}
            className="w-100 border mt-2"
            style={{ height: 360 }}
          />
        ) : null}
        <CheckboxField
          className="mt-3"
          id="skip-mail-preview"
          label="Don't show the mail before moves again"
          checked={skip}
          onChange={(e) => setSkip(e.currentTarget.checked)}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button
          variant="primary"
          disabled={busy}
          onClick={() => {
            if (skip) setSkipsMailPreview(true);
            onYes();
          }}
        >
          Continue
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onNo}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Admin: complete an order that has no card, with a reason (no mail goes out). */
export function ForceCompleteDialog({
  message,
  busy,
  onYes,
  onNo,
}: {
  message: string;
  busy: boolean;
  onYes: (reason: string) => void;
  onNo: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal show onHide={onNo} centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="fs-5">
          Complete without a card?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{message}</p>
        <TextareaField
          id="force-reason"
          label="Reason (kept in the audit log; no mail goes to the customer)"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button
          variant="danger"
          disabled={busy || reason.trim().length < 3}
          onClick={() => onYes(reason.trim())}
        >
          Complete without a card
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onNo}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
