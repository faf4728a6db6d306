import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '../../shared/contracts/auth';
import { MSG } from '../../shared/messages';
import { type Answer, mockApi, refused, renderRoutes, signInAs } from '../test/fixtures';
import { Component } from './change-password-page';

function open(answer: Answer) {
  const sent = mockApi({ 'POST /api/admin/change-password': () => answer });
  const view = renderRoutes(
    [
      { path: '/admin/change-password', element: <Component /> },
      { path: '/', element: <p>Signed out</p> },
    ],
    '/admin/change-password',
  );
  return { sent, ...view };
}

beforeEach(() => signInAs('Team', 'Tom'));

describe('Update Password', () => {
  it('shows the contract messages on the fields before sending anything', async () => {
    const user = userEvent.setup();
    const { sent } = open({ body: { status: 1, message: AUTH_MSG.passwordChanged } });
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(AUTH_MSG.currentPasswordRequired)).toBeVisible();
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(MSG.newPasswordRequired);

    await user.type(screen.getByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('New Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(MSG.newPasswordMin)).toBeVisible();
    expect(screen.getByLabelText('Current Password')).not.toHaveAttribute('aria-invalid');
    expect(sent).toHaveLength(0);
  });

  it('sends both passwords, signs out and leaves for the start page', async () => {
    const user = userEvent.setup();
    const { sent, router } = open({ body: { status: 1, message: AUTH_MSG.passwordChanged } });
    await user.type(screen.getByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('New Password'), 'a much longer passphrase');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sent[0]?.body).toEqual({ currentPassword: 'old secret', newPassword: 'a much longer passphrase' });
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('toasts the server refusal and keeps the form', async () => {
    const user = userEvent.setup();
    open(refused(400, AUTH_MSG.currentPasswordWrong));
    await user.type(screen.getByLabelText('Current Password'), 'not it');
    await user.type(screen.getByLabelText('New Password'), 'a much longer passphrase');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(AUTH_MSG.currentPasswordWrong)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeEnabled();
  });
});
