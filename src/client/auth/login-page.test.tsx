import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '../../shared/contracts/auth';
import { MSG } from '../../shared/messages';
import { type Handler, mockApi, refused, renderRoutes } from '../test/fixtures';
import { LoginPage } from './login-page';

const TOKEN = 'e30.eyJ1c2VyIjp7ImlkIjoxLCJuYW1lIjoiQW5uIiwidHlwZSI6IkFkbWluIn19.sig';
const signedIn = {
  body: {
    status: 1,
    message: AUTH_MSG.loginSuccess,
    jwtToken: TOKEN,
    data: { name: 'Ann', type: 'Admin', email: 'ann@example.com' },
  },
};

function open(login: Handler) {
  const sent = mockApi({ 'POST /api/admin/admin-login': login });
  const view = renderRoutes(
    [
      { path: '/', element: <LoginPage /> },
      { path: '/admin', element: <p>Signed-in home</p> },
    ],
    '/',
  );
  return { sent, ...view };
}

beforeEach(() => localStorage.clear());

describe('the sign-in screen', () => {
  it('shows the contract messages under the fields and sends nothing while they are wrong', async () => {
    const user = userEvent.setup();
    const { sent } = open(() => signedIn);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const email = screen.getByLabelText('Email ID');
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText(MSG.emailRequired)).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(MSG.emailRequired);
    expect(password).toHaveAccessibleDescription(MSG.passwordRequired);

    await user.type(email, 'ann@');
    await user.type(password, 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.emailInvalid)).toBeVisible();
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(sent).toHaveLength(0);
  });

  it('signs in with the e-mail and password, remembers the e-mail when asked and opens the layout', async () => {
    const user = userEvent.setup();
    const { sent, router } = open(() => signedIn);
    expect(screen.getByPlaceholderText('Your Email Address')).toBe(screen.getByLabelText('Email ID'));
    await user.type(screen.getByLabelText('Email ID'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Signed-in home')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(sent[0]?.body).toEqual({ email: 'ann@example.com', password: 'correct horse' });
    expect(localStorage.getItem('edcard.rememberEmail')).toBe('ann@example.com');
  });

  it('asks for the authenticator code as a second step and sends it with the password', async () => {
    const user = userEvent.setup();
    const { sent } = open((req) =>
      (req.body as { otp?: string }).otp
        ? signedIn
        : { body: { status: 0, message: AUTH_MSG.otpRequired, data: { otpRequired: true } } },
    );
    await user.type(screen.getByLabelText('Email ID'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveAccessibleDescription('Enter the code from your authenticator app.');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Signed-in home')).toBeInTheDocument();
    expect(sent[1]?.body).toEqual({ email: 'ann@example.com', password: 'correct horse', otp: '123456' });
  });

  it('toasts a refusal of the server and stays on the form', async () => {
    const user = userEvent.setup();
    open(() => refused(401, AUTH_MSG.invalidCredentials));
    await user.type(screen.getByLabelText('Email ID'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(AUTH_MSG.invalidCredentials)).toBeInTheDocument();
    expect(screen.getByLabelText('Email ID')).toHaveValue('ann@example.com');
  });
});
