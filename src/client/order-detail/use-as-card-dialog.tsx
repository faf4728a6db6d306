import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { MAIL_HOLD_SECONDS } from '../../shared/constants';
import { errorMessage } from '../transport/api';
import { requestBlob } from '../transport/api-client';
import {
  useAttachmentAsCardMutation,
  useSaveAttachmentAsDocumentMutation,
  useUndoCardMutation,
} from './conversation-api';

interface Props {
  orderId: number;
  file: { id: number; name: string; mimeType: string };
  onClose: () => void;
}

/** The file, fetched with the staff token, as an object URL while the dialog is open. */
function usePreview(url: string): { src: string | null; failed: string | null } {
  const [state, setState] = useState<{ src: string | null; failed: string | null }>({
    src: null,
    failed: null,
  });
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    void requestBlob(url).then((result) => {
      if (!live) return;
      if (!result.ok) setState({ src: null, failed: result.error.data.message });
      else {
        objectUrl = URL.createObjectURL(result.blob);
        setState({ src: objectUrl, failed: null });
      }
    });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state;
}

/**
 * "Use as approved card" asks first (decision 358): the file itself, a warning that it came from the
 * customer (and is an image, often a passport photo), then either the card with its mail held for an
 * Undo, or "Save as document", which keeps the file with the order without making it the card.
 */
export function UseAsCardDialog({ orderId, file, onClose }: Props) {
  const preview = usePreview(`/api/admin/orders/${orderId}/conversation/attachments/${file.id}`);
  const [makeCard, card] = useAttachmentAsCardMutation();
  const [save, saving] = useSaveAttachmentAsDocumentMutation();
  const [undo] = useUndoCardMutation();
  const image = file.mimeType.startsWith('image/');
  const busy = card.isLoading || saving.isLoading;

  const confirmCard = async () => {
    const result = await makeCard({ orderId, attachmentId: file.id, confirmCustomerFile: true });
    if ('error' in result) {
      toast.error(errorMessage(result.error));
      return;
    }
    onClose();
    const documentId = result.data.data?.documentId;
    if (documentId === undefined) {
      toast.success(result.data.message);
      return;
    }
    const id = `undo-card:${orderId}:${documentId}`;
    toast.success(
      <span className="d-flex align-items-center gap-2">
        <span>{result.data.message}</span>
        <button
          type="button"
          className="btn btn-sm btn-light ms-auto text-nowrap flex-shrink-0"
          onClick={async () => {
            toast.dismiss(id);
            const undone = await undo({ orderId, documentId });
            if ('error' in undone) toast.error(errorMessage(undone.error));
            else toast.success(undone.data.message);
          }}
        >
          Undo
        </button>
      </span>,
      {
        toastId: id,
        autoClose: MAIL_HOLD_SECONDS * 1000 - 1000,
        pauseOnHover: false,
        pauseOnFocusLoss: false,
        closeOnClick: false,
      },
    );
  };

  return (
    <Modal show onHide={onClose} size="lg" centered aria-labelledby={`use-card-title-${file.id}`}>
      <Modal.Header closeButton>
        <Modal.Title id={`use-card-title-${file.id}`} className="fs-5">
          Use {file.name} as the approved card?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Alert variant="warning" className="py-2 small" data-testid="use-card-warning">
          This file came from the customer
          {image ? ': it is an image, often a photo of the passport, not the approved card' : ''}. Check it
          below. As the card it is mailed to the customer in {MAIL_HOLD_SECONDS} seconds, with Undo until
          then.
        </Alert>
        <div
          className="border rounded bg-body-tertiary d-flex justify-content-center"
          style={{ minHeight: 200 }}
        >
          {preview.failed ? (
            <p className="text-danger small m-3">{preview.failed}</p>
          ) : !preview.src ? (
            <p className="text-muted small m-3">Loading the preview…</p>
          ) : image ? (
            <img
              src={preview.src}
              alt={`Preview of ${file.name}`}
              style={{ maxWidth: '100%', maxHeight: 420, objectFit: 'contain' }}
            />
          ) : (
            <object
              data={preview.src}
              type={file.mimeType}
              aria-label={`Preview of ${file.name}`}
              style={{ width: '100%', height: 420 }}
            >
              <p className="small m-3">This browser cannot show the file here: download it to check it.</p>
            </object>
          )}
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="outline-primary"
          disabled={busy}
          onClick={async () => {
            const result = await save({ orderId, attachmentId: file.id });
            if ('error' in result) toast.error(errorMessage(result.error));
            else {
              toast.success(result.data.message);
              onClose();
            }
          }}
        >
          Save as document
        </Button>
        <Button variant="primary" disabled={busy || !preview.src} onClick={() => void confirmCard()}>
          Use as approved card and mail it
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
