import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { openOrdersText, type TeamMember, teamMember } from '../../shared/contracts/team';
import { MSG } from '../../shared/messages';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component, TEAM_NO_ACCESS_NOTICE, TEAM_READ_ONLY_NOTICE } from './manage-team-page';

const member = (id: number, type: TeamMember['type'], name = `Member ${id}`): TeamMember =>
  teamMember.parse({
    id,
    name,
    email: `m${id}@demo.test`,
    type,
    memberRole: type,
    capacity: 25,
    languages: [],
    shift: null,
    away: false,
    awayUntil: null,
  });

const MEMBERS = [member(1, 'Admin', 'Demo Admin'), member(2, 'Manager'), member(3, 'Team')];

function openTeam(extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    'GET /api/admin/get-team-member-list': () => ok(MEMBERS),
    'GET /api/admin/get-team-member-type': () =>
      ok(['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff']),
    ...extra,
  });
  renderPage('/admin/manage-team', '/admin/manage-team', <Component />);
  return sent;
}

afterEach(() => localStorage.clear());

describe('Manage Team', () => {
  it('lists the members; an Admin gets Edit, Delete and Reset 2FA on others, never Delete on self', async () => {
    signInAs('Admin', 'Demo Admin');
    openTeam();
    const table = await screen.findByRole('table', { name: 'Team Member List' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const rows = within(table).getAllByRole('row');
    const self = rows[1]!;
    expect(within(self).getByText('Demo Admin')).toBeInTheDocument();
    expect(within(self).queryByRole('button', { name: 'Delete' })).toBeNull();
    const other = rows[3]!;
    expect(within(other).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/manage-team/3');
    expect(within(other).getByRole('button', { name: 'Reset 2FA' })).toBeInTheDocument();
  });

  it('resets another member’s 2FA only with the Admin’s current password', async () => {
    const user = userEvent.setup();
    signInAs('Admin', 'Demo Admin');
    const sent = openTeam({
      'POST /api/admin/2fa/reset/3': () => ok(null, 'Two-factor sign-in of this team member has been reset.'),
    });
    const table = await screen.findByRole('table', { name: 'Team Member List' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    await user.click(
      within(within(table).getAllByRole('row')[3]!).getByRole('button', { name: 'Reset 2FA' }),
    );
    const dialog = await screen.findByRole('form', { name: 'Reset two-factor sign-in' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await within(dialog).findByText('Please enter your Current Password.')).toBeInTheDocument();
    expect(sent.some((r) => r.path === '/api/admin/2fa/reset/3')).toBe(false);
    await user.type(within(dialog).getByLabelText('Your Current Password'), 'my-own-password');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText('Two-factor sign-in of this team member has been reset.'),
    ).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/2fa/reset/3')?.body).toEqual({
      currentPassword: 'my-own-password',
    });
  });

  it('adds a member: sends the form and toasts the server message', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    const sent = openTeam({
      'POST /api/admin/add-team-member': () =>
        ok(member(9, 'Team', 'New Person'), 'Team member added successfully.'),
    });
    const form = await screen.findByRole('form', { name: 'Add team member' });
    await user.type(within(form).getByLabelText('Name'), 'New Person');
    await user.type(within(form).getByLabelText('Email'), 'new.person@demo.test');
    await user.type(within(form).getByLabelText('Password'), 'a-long-enough-passphrase');
    await user.selectOptions(within(form).getByLabelText('Type'), 'Team');
    // A Manager may not hand out the Admin type.
    expect(within(form).getByRole('option', { name: 'Admin' })).toBeDisabled();
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Team member added successfully.')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/add-team-member')?.body).toMatchObject({
      name: 'New Person',
      email: 'new.person@demo.test',
      type: 'Team',
    });
  });

  it('deletes after Yes and shows a refusal of the server as it is', async () => {
    const user = userEvent.setup();
    signInAs('Admin', 'Demo Admin');
    let refuse = false;
    const sent = openTeam({
      'PUT /api/admin/delete-team-member': (req) =>
        refuse || (req.body as { teamMemberId?: number }).teamMemberId !== 3
          ? refused(409, 'The member still holds orders.')
          : ok(undefined, 'Deleted'),
      'GET /api/admin/team-member-open-orders/3': () => ok({ openOrders: 0 }),
    });
    const table = await screen.findByRole('table', { name: 'Team Member List' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const row = within(table).getAllByRole('row')[3]!;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(screen.getByText(MSG.confirmDelete)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(MSG.teamDeleted)).toBeInTheDocument();
    expect(sent.filter((r) => r.path === '/api/admin/delete-team-member')).toHaveLength(1);

    refuse = true;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The member still holds orders.')).toBeInTheDocument();
  });

  it('a member holding open orders: the dialog says how many and sends the choice (reassign to a member)', async () => {
    const user = userEvent.setup();
    signInAs('Admin', 'Demo Admin');
    const sent = openTeam({
      'GET /api/admin/team-member-open-orders/3': () => ok({ openOrders: 12 }),
      'PUT /api/admin/delete-team-member': () => ok(undefined, 'Deleted'),
    });
    const table = await screen.findByRole('table', { name: 'Team Member List' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    await user.click(within(within(table).getAllByRole('row')[3]!).getByRole('button', { name: 'Delete' }));
    const choice = await screen.findByTestId('open-orders-choice');
    expect(choice).toHaveTextContent(openOrdersText('Member 3', 12));
    await user.click(within(choice).getByLabelText('Reassign them to'));
    // Yes waits for the member who takes over.
    expect(screen.getByRole('button', { name: 'Yes' })).toBeDisabled();
    const heir = within(choice).getByLabelText('Member who takes over the orders');
    expect(within(heir).queryByRole('option', { name: 'Member 3' })).toBeNull();
    await user.selectOptions(heir, '2');
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(MSG.teamDeleted)).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/delete-team-member')?.body).toEqual({
      teamMemberId: 3,
      openOrders: 'reassign',
      reassignTo: 2,
    });
  });

  it('Team reads the list without write controls; Night Staff may not read it and nothing is asked', async () => {
    signInAs('Team');
    openTeam();
    expect(await screen.findByText(TEAM_READ_ONLY_NOTICE)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Team Member List' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('Night Staff sees the notice and no call is made', async () => {
    signInAs('Night Staff');
    const sent = openTeam();
    expect(await screen.findByText(TEAM_NO_ACCESS_NOTICE)).toBeInTheDocument();
    expect(sent.filter((r) => r.path.includes('team-member'))).toEqual([]);
  });
});
