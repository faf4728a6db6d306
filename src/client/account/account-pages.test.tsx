import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { securitySettings } from '../../shared/contracts/account';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component as SecuritySettingsPage } from './security-settings-page';
import { Component as TwoFactorPage } from './two-factor-page';

beforeEach(() => signInAs('Admin', 'Ann'));

const twoFactor = (enabled: boolean) => ok({ enabled, required: false, recoveryCodesLeft: enabled ? 8 : 0 });

describe('Two-factor sign-in', () => {
  it('sets it up: shows the key, sends the typed 6-digit code and shows the recovery codes once', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /api/admin/2fa': () => twoFactor(false),
      'POST /api/admin/2fa/setup': () =>
        ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/ED-Card', qrSvg: '<svg/>' }),
      'POST /api/admin/2fa/enable': () => ok({ recoveryCodes: ['aaaa-1111', 'bbbb-2222'] }, 'Two-factor on.'),
    });
    renderPage('/admin/account/two-factor', '/admin/account/two-factor', <TwoFactorPage />);
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await user.type(screen.getByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('aaaa-1111');
    expect(sent.find((r) => r.path === '/api/admin/2fa/enable')?.body).toEqual({ code: '123456' });
  });

  it('turns it off with the current password and a code, and toasts a refusal as it is', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /api/admin/2fa': () => twoFactor(true),
      'POST /api/admin/2fa/disable': () => refused(400, 'The code is not correct. Please try again.'),
    });
    renderPage('/admin/account/two-factor', '/admin/account/two-factor', <TwoFactorPage />);
    await user.type(await screen.findByLabelText('Current Password'), 'my secret');
    await user.type(screen.getByLabelText('Code from your authenticator app (or a recovery code)'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('The code is not correct. Please try again.')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/2fa/disable')?.body).toEqual({
      currentPassword: 'my secret',
      code: '654321',
    });
  });
});

describe('Sign-in settings', () => {
  it('shows the saved settings and saves the roles and the switch', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /api/admin/security-settings': () =>
        ok(securitySettings.parse({ twoFactorRoles: ['Admin'], mustChangeSetPasswords: false })),
      'PUT /api/admin/security-settings': (req) => ok(req.body, 'Sign-in settings saved.'),
    });
    renderPage(
      '/admin/account/security-settings',
      '/admin/account/security-settings',
      <SecuritySettingsPage />,
    );
    expect(await screen.findByRole('checkbox', { name: 'Admin', checked: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Manager')).not.toBeChecked();
    await user.click(screen.getByLabelText('Manager'));
    const mustChange = screen.getByRole('switch', {
      name: 'A password set by someone else must be changed at its first sign-in',
    });
    await user.click(mustChange);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Sign-in settings saved.')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      twoFactorRoles: ['Admin', 'Manager'],
      mustChangeSetPasswords: true,
    });
  });
});
