import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { loginBody } from '../../shared/contracts/auth';
import { errorMessage } from '../transport/api';
import { preloadScreensAfterSignIn } from './after-sign-in';
import { CheckboxField, TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { saveSession } from '../transport/session';
import { useAppDispatch, useAppSelector } from '../state/store';
import { useLoginMutation } from './auth-api';
import { loginFulfilled, loginPending, loginRejected } from '../state/auth-slice';
import './login.css';

/** Remember me keeps the e-mail for the next visit; the session itself always lives in `user` (decision 011). */
const REMEMBER_KEY = 'edcard.rememberEmail';
export const FORGOT_PASSWORD_TEXT = 'Please ask your Admin or Manager to reset your password in Manage Team.';

function rememberedEmail(): string {
  try {
    return localStorage.getItem(REMEMBER_KEY) ?? '';
  } catch {
    return '';
  }
}

type LoginForm = ReturnType<typeof useZodForm<typeof loginBody>>;

/** E-mail, password and Remember me: hidden, not removed, on the code step (the values are sent again). */
function CredentialFields({
  hidden,
  register,
  errors,
  remember,
  setRemember,
}: {
  hidden: boolean;
  register: LoginForm['register'];
  errors: LoginForm['formState']['errors'];
  remember: boolean;
  setRemember: (remember: boolean) => void;
}) {
  return (
    <>
      <TextField
        className={hidden ? 'd-none' : 'mb-3'}
        id="login-email"
        label="Email ID"
        error={errors.email?.message}
        type="email"
        placeholder="Your Email Address"
        autoComplete="username"
        {...register('email')}
      />
      <TextField
        className={hidden ? 'd-none' : 'mb-3'}
        id="login-password"
        label="Password"
        error={errors.password?.message}
        type="password"
        placeholder="Password"
        autoComplete="current-password"
        {...register('password')}
      />
      <div className={hidden ? 'd-none' : 'login-options'}>
        <CheckboxField
          id="login-remember"
          label="Remember me"
          checked={remember}
          onChange={(e) => setRemember(e.currentTarget.checked)}
        />
        <button
          type="button"
          className="btn btn-link login-forgot"
          onClick={() => toast.info(FORGOT_PASSWORD_TEXT)}
        >
          Forgot password?
        </button>
      </div>
    </>
  );
}

/** The login screen at /admin when signed out (docs/product.md, "Sign-in and the layout"). */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const loading = useAppSelector((s) => s.auth.loading);
  const [login] = useLoginMutation();
  const [remember, setRemember] = useState(() => rememberedEmail() !== '');
  // Second step (two-factor sign-in on): the same card asks for the code.
  const [otpStep, setOtpStep] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useZodForm(loginBody, { defaultValues: { email: rememberedEmail(), password: '', otp: '' } });

  const onSubmit = handleSubmit(async (values) => {
    dispatch(loginPending());
    // The screen behind the login loads while the server checks the credentials.
    preloadScreensAfterSignIn();
    try {
      const res = await login(otpStep ? values : { email: values.email, password: values.password }).unwrap();
      if (res.status !== 1) {
        if (res.data && 'otpRequired' in res.data) {
          setOtpStep(true);
          dispatch(loginRejected(null));
          return;
        }
        throw { data: res };
      }
      if (remember) localStorage.setItem(REMEMBER_KEY, values.email);
      else localStorage.removeItem(REMEMBER_KEY);
      saveSession(res.jwtToken);
      dispatch(loginFulfilled(res.data));
      toast.success(res.message);
      // A required step comes before anything else.
      const next = res.data.mustChangePassword
        ? '/admin/change-password'
        : res.data.twoFactorSetupRequired
          ? '/admin/account/two-factor'
          : '/admin';
      navigate(next, { replace: true });
    } catch (error) {
      if (otpStep) setValue('otp', '');
      const message = errorMessage(error);
      dispatch(loginRejected(message));
      if (message) toast.error(message);
    }
  });

  return (
    <div className="login-page">
      <div className="login-card">
        <div className="login-logo">
          <img src="/logo.svg" alt="ED-Card logo" />
        </div>
        <h1>ED-Card</h1>
        <p className="login-subtitle">Sign in to your account</p>
        {/* The form kit's fields are plain Bootstrap markup (the CSS is loaded by the staff root): the login
            screen is part of the first load, so it skips the react-bootstrap components. */}
        <form noValidate onSubmit={onSubmit} aria-label="Sign in">
          {otpStep ? (
            <TextField
              className="mb-3"
              id="login-otp"
              label="Authentication code"
              help="Enter the code from your authenticator app."
              error={errors.otp?.message}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="6-digit code or a recovery code"
              autoFocus
              {...register('otp')}
            />
          ) : null}
          <CredentialFields
            hidden={otpStep}
            register={register}
            errors={errors}
            remember={remember}
            setRemember={setRemember}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={loading}>
            {loading ? <span className="spinner-border spinner-border-sm me-2" aria-hidden /> : null}
            {otpStep ? 'Verify' : 'Sign In'}
          </button>
          {otpStep ? (
            <button
              type="button"
              className="btn btn-link w-100 mt-1"
              onClick={() => {
                setOtpStep(false);
                setValue('otp', '');
                setValue('password', '');
              }}
            >
              Back
            </button>
          ) : null}
        </form>
      </div>
    </div>
  );
}
