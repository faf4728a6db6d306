import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { type LoginBody, loginBody } from '../../shared/contracts/auth';
import { errorMessage } from '../app/api';
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

/** The login screen at /admin when signed out (spec §2 Login, §4 auth states, §5, §8). */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const loading = useAppSelector((s) => s.auth.loading);
  const [login] = useLoginMutation();
  const [remember, setRemember] = useState(() => rememberedEmail() !== '');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    defaultValues: { email: rememberedEmail(), password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    dispatch(loginPending());
    try {
      const res = await login(values).unwrap();
      if (res.status !== 1) throw { data: res };
      if (remember) localStorage.setItem(REMEMBER_KEY, values.email);
      else localStorage.removeItem(REMEMBER_KEY);
      saveSession(res.jwtToken);
      dispatch(loginFulfilled(res.data));
      toast.success(res.message);
      navigate('/admin', { replace: true });
    } catch (error) {
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
        <Form noValidate onSubmit={onSubmit} aria-label="Sign in">
          <Form.Group controlId="login-email" className="mb-3">
            <Form.Label>Email ID</Form.Label>
            <Form.Control
              type="email"
              placeholder="Your Email Address"
              autoComplete="username"
              {...register('email')}
              isInvalid={!!errors.email}
            />
            <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId="login-password" className="mb-3">
            <Form.Label>Password</Form.Label>
            <Form.Control
              type="password"
              placeholder="Password"
              autoComplete="current-password"
              {...register('password')}
              isInvalid={!!errors.password}
            />
            <Form.Control.Feedback type="invalid">{errors.password?.message}</Form.Control.Feedback>
          </Form.Group>
          <div className="login-options">
            <Form.Check
              id="login-remember"
              type="checkbox"
              label="Remember me"
              checked={remember}
              onChange={(e) => setRemember(e.currentTarget.checked)}
            />
            <Button variant="link" className="login-forgot" onClick={() => toast.info(FORGOT_PASSWORD_TEXT)}>
              Forgot password?
            </Button>
          </div>
          <Button type="submit" className="w-100" disabled={loading}>
            {loading ? <Spinner size="sm" animation="border" className="me-2" aria-hidden /> : null}
            Sign In
          </Button>
        </Form>
      </div>
    </div>
  );
}
