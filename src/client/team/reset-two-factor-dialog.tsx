import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { twoFactorResetBody } from '../../shared/contracts/account';
import { TextField } from '../components/form-kit/form-field';

interface Props {
  /** The member whose two-factor sign-in is reset; null: closed. */
  member: { id: number; name: string } | null;
  busy: boolean;
  onConfirm: (currentPassword: string) => void;
  onCancel: () => void;
}

/** Resetting another member's two-factor sign-in: the Admin confirms with their own current password. */
export function ResetTwoFactorDialog({ member, busy, onConfirm, onCancel }: Props) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPassword('');
    setError(null);
    onCancel();
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = twoFactorResetBody.safeParse({ currentPassword: password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter your Current Password.');
      return;
    }
    setPassword('');
    setError(null);
    onConfirm(parsed.data.currentPassword);
  };
  return (
    <Modal show={!!member} onHide={close} centered>
      <form onSubmit={submit} noValidate aria-label="Reset two-factor sign-in">
        <Modal.Body className="py-4">
          <p className="fs-5">
            {`Reset the two-factor sign-in of ${member?.name ?? ''}? Their sessions end and they set it up again.`}
          </p>
          <TextField
            id="reset-2fa-password"
            label="Your Current Password"
            error={error}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Modal.Body>
        <Modal.Footer className="justify-content-center">
          <Button variant="primary" type="submit" disabled={busy}>
            Yes
          </Button>
          <Button variant="secondary" onClick={close} disabled={busy}>
            No
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
