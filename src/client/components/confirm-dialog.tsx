import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

interface Props {
  show: boolean;
  message: string;
  onYes: () => void;
  onNo: () => void;
  busy?: boolean;
  /** Fields asked with the question (a refund's reason); `ready` false keeps Yes disabled. */
  children?: ReactNode;
  ready?: boolean;
}

/** Yes/No confirmation; its texts are exact product wording (MSG.confirm*). */
export function ConfirmDialog({ show, message, onYes, onNo, busy, children, ready = true }: Props) {
  return (
    <Modal show={show} onHide={onNo} centered>
      <Modal.Body className="py-4 text-center">
        <p className="mb-0 fs-5">{message}</p>
        {children}
      </Modal.Body>
      <Modal.Footer className="justify-content-center">
        <Button variant="primary" onClick={onYes} disabled={busy || !ready}>
          Yes
        </Button>
        <Button variant="secondary" onClick={onNo} disabled={busy}>
          No
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
