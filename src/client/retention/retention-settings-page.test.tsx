import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ERASED_FIELDS } from '../../shared/contracts/retention';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component } from './retention-settings-page';

afterEach(() => localStorage.clear());

function open(days = 365, put?: Parameters<typeof mockApi>[0][string]) {
  const sent = mockApi({
    'GET /api/admin/retention-settings': () => ok({ days }),
    ...(put ? { 'PUT /api/admin/retention-settings': put } : {}),
  });
  const view = renderPage('/admin/retention-settings', '/admin/retention-settings', <Component />);
  return { sent, view };
}

describe('Retention settings', () => {
  it('shows the period and what is erased, saves a new period, and has no axe violations', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const { sent, view } = open(365, (req) => ok(req.body, 'The retention period has been saved.'));
    const field = await screen.findByLabelText('Days after the end of travel');
    expect(field).toHaveValue(365);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Retention of personal data');
    for (const f of ERASED_FIELDS) expect(screen.getByText(f)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, '400');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The retention period has been saved.')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ days: 400 }]);
    const results = await axe.run(view.container, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('refuses a period outside 30–3650 days in the form and sends nothing', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const { sent } = open(365);
    const field = await screen.findByLabelText('Days after the end of travel');
    for (const bad of ['29', '3651', '12.5']) {
      await user.clear(field);
      await user.type(field, bad);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(field).toHaveClass('is-invalid');
      expect(screen.getByText(/^Days must be/)).toBeInTheDocument();
    }
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal", async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    open(365, () => refused(403, 'You do not have permission to perform this action.'));
    const field = await screen.findByLabelText('Days after the end of travel');
    await user.clear(field);
    await user.type(field, '500');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeInTheDocument();
  });

  it.each(['Manager', 'Team', 'Telecaller', 'Night Staff'])(
    '%s is told only an Admin may change it and asks nothing',
    async (role) => {
      signInAs(role);
      const { sent } = open(365);
      expect(await screen.findByRole('alert')).toHaveTextContent('Only an Admin can change');
      expect(sent).toEqual([]);
    },
  );
});
