import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { errorMessage } from '../transport/api';
import {
  useDisableTwoFactorMutation,
  useEnableTwoFactorMutation,
  useGetTwoFactorQuery,
  useSetupTwoFactorMutation,
} from './account-api';
import { TextField } from '../components/form-kit/form-field';

/** The recovery codes, shown once right after two-factor sign-in is turned on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-label="Recovery codes">
      <p>
        Two-factor sign-in is on. These recovery codes each work once if you lose your phone. They are shown
        only now: keep them somewhere safe.
      </p>
      <ul className="list-unstyled font-monospace row row-cols-2 g-1 mb-3" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c} className="col">
            {c}
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>I have saved them — continue</Button>
    </section>
  );
}

interface CodeProps {
  code: string;
  setCode: (code: string) => void;
  busy: boolean;
  onSubmit: (e: FormEvent) => void;
}

/** Two-factor sign-in is on: how many recovery codes are left, and turning it off (unless the role requires it). */
function TurnOffForm({
  state,
  password,
  setPassword,
  code,
  setCode,
  busy,
  onSubmit,
}: CodeProps & {
  state: { recoveryCodesLeft: number; required: boolean };
  password: string;
  setPassword: (password: string) => void;
}) {
  return (
    <form onSubmit={onSubmit} aria-label="Turn two-factor sign-in off">
      <p>
        Two-factor sign-in is <strong>on</strong>. {state.recoveryCodesLeft} recovery codes left.
        {state.required ? ' It is required for your role.' : ''}
      </p>
      {state.required ? null : (
        <>
          <TextField
            id="tf-off-password"
            className="mb-2"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <TextField
            id="tf-off-code"
            className="mb-3"
            label="Code from your authenticator app (or a recovery code)"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Button type="submit" variant="outline-danger" disabled={busy}>
            Turn off
          </Button>
        </>
      )}
    </form>
  );
}

/** Setting up: the QR code and the key of the new secret, and the first code that turns it on. */
function ConfirmForm({
  pending,
  code,
  setCode,
  busy,
  onSubmit,
}: CodeProps & { pending: { secret: string; qrSvg: string } }) {
  return (
    <form onSubmit={onSubmit} aria-label="Confirm two-factor sign-in">
      <p>Scan this QR code with your authenticator app, or type the key, then enter the 6-digit code.</p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pending.qrSvg)}`}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
      />
      <p className="small mt-2">
        Key: <code data-testid="totp-secret">{pending.secret}</code>
      </p>
      <TextField
        id="tf-code"
        className="mb-3"
        style={{ maxWidth: 240 }}
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.currentTarget.value)}
      />
      <Button type="submit" disabled={busy}>
        Turn on
      </Button>
    </form>
  );
}

/**
 * /admin/account/two-factor: turn two-factor sign-in (an authenticator app, 6-digit codes) on or off.
 * The QR code comes from the server as SVG, so no QR code is bundled here.
 */
export function Component() {
  const navigate = useNavigate();
  const { data: state, isLoading } = useGetTwoFactorQuery();
  const [setup, settingUp] = useSetupTwoFactorMutation();
  const [enable, enabling] = useEnableTwoFactorMutation();
  const [disable, disabling] = useDisableTwoFactorMutation();
  const [pending, setPending] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const start = async () => {
    try {
      const res = await setup().unwrap();
      if (res.data) setPending({ secret: res.data.secret, qrSvg: res.data.qrSvg });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await enable({ code }).unwrap();
      setRecoveryCodes(res.data?.recoveryCodes ?? []);
      setPending(null);
      setCode('');
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const turnOff = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await disable({ currentPassword: password, code }).unwrap();
      setPassword('');
      setCode('');
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  if (isLoading || !state) return <p>Loading…</p>;

  return (
    <Card className="shadow-sm" style={{ maxWidth: 640 }}>
      <Card.Header as="h1" className="h5 mb-0">
        Two-factor sign-in
      </Card.Header>
      <Card.Body>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => navigate('/admin', { replace: true })} />
        ) : state.enabled ? (
          <TurnOffForm
            state={state}
            password={password}
            setPassword={setPassword}
            code={code}
            setCode={setCode}
            busy={disabling.isLoading}
            onSubmit={turnOff}
          />
        ) : pending ? (
          <ConfirmForm
            pending={pending}
            code={code}
            setCode={setCode}
            busy={enabling.isLoading}
            onSubmit={confirm}
          />
        ) : (
          <div>
            {state.required ? (
              <div className="alert alert-warning">
                Your role requires two-factor sign-in. Please set it up before you continue.
              </div>
            ) : null}
            <p>Protect your account with a code from an authenticator app in addition to your password.</p>
            <Button onClick={start} disabled={settingUp.isLoading}>
              Set up two-factor sign-in
            </Button>
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
