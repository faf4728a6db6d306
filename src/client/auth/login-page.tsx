import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { type LoginBody, loginBody } from '../../shared/contracts/auth';
import { errorMessage } from '../app/api';
import { preloadScreensAfterSignIn } from '../app/lazy';
import { saveSession } from '../app/session';
import { useAppDispatch, useAppSelector } from '../app/store';
import { useLoginMutation } from './auth-api';
import { loginFulfilled, loginPending, loginRejected } from './auth-slice';
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
  } = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    defaultValues: { email: rememberedEmail(), password: '', otp: '' },
  });

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
        {/* Plain Bootstrap markup (the CSS is loaded by the staff root): the login screen is part of the
            first load, so it skips the react-bootstrap components. */}
        <form noValidate onSubmit={onSubmit} aria-label="Sign in">
          {otpStep ? (
            <div className="mb-3">
              <label htmlFor="login-otp" className="form-label">
                Authentication code
              </label>
              <input
                id="login-otp"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder="6-digit code or a recovery code"
                className={`form-control${errors.otp ? ' is-invalid' : ''}`}
                aria-invalid={!!errors.otp}
                aria-describedby="login-otp-help"
                autoFocus
                {...register('otp')}
              />
              <div id="login-otp-help" className="form-text">
                Enter the code from your authenticator app.
              </div>
              <div className="invalid-feedback">{errors.otp?.message}</div>
            </div>
          ) : null}
          <div className={otpStep ? 'd-none' : 'mb-3'}>
            <label htmlFor="login-email" className="form-label">
              Email ID
            </label>
            <input
              id="login-email"
              type="email"
              placeholder="Your Email Address"
              autoComplete="username"
              className={`form-control${errors.email ? ' is-invalid' : ''}`}
              aria-invalid={!!errors.email}
              {...register('email')}
            />
            <div className="invalid-feedback">{errors.email?.message}</div>
          </div>
          <div className={otpStep ? 'd-none' : 'mb-3'}>
            <label htmlFor="login-password" className="form-label">
              Password
            </label>
            <input
              id="login-password"
              type="password"
              placeholder="Password"
              autoComplete="current-password"
              className={`form-control${errors.password ? ' is-invalid' : ''}`}
              aria-invalid={!!errors.password}
              {...register('password')}
            />
            <div className="invalid-feedback">{errors.password?.message}</div>
          </div>
          <div className={otpStep ? 'd-none' : 'login-options'}>
            <div className="form-check">
              <input
                id="login-remember"
                type="checkbox"
                className="form-check-input"
                checked={remember}
                onChange={(e) => setRemember(e.currentTarget.checked)}
              />
              <label htmlFor="login-remember" className="form-check-label">
                Remember me
              </label>
            </div>
            <button
              type="button"
              className="btn btn-link login-forgot"
              onClick={() => toast.info(FORGOT_PASSWORD_TEXT)}
            >
              Forgot password?
            </button>
          </div>
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
