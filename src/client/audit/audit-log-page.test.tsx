import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditLogPage } from '../../shared/contracts/audit';
import { mockApi, ok, refused, renderPage, type SentRequest, signInAs } from '../test/fixtures';
import { Component } from './audit-log-page';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const entry = (id: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  createdAt: '2026-11-18T20:16:00.000Z',
  actorId: 2,
  actorEmail: 'ann@demo.test',
  actorName: 'Ann Admin',
  action: 'gateway.activate',
  target: 'gateway:2',
  from: { active: ['Stripe'] },
  to: { active: ['PayPal'] },
  ip: '203.0.113.7',
  ...over,
});

function open(path = '/admin/audit-log', extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    'GET /api/admin/audit-log': (req) =>
      ok<AuditLogPage>({
        entries: [entry(2), entry(1, { action: 'login.success', target: null, from: null, to: null })],
        page: Number(req.query.page ?? 1),
        pageSize: 50,
        total: 120,
      }),
    ...extra,
  });
  renderPage('/admin/audit-log', path, <Component />);
  return sent;
}
const lists = (sent: SentRequest[]) => sent.filter((r) => r.path === '/api/admin/audit-log');

describe('Audit log screen', () => {
  it('lists the entries with day-first Eastern times and labelled actions, and pages', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('18 Nov 2026 15:16 EST')).toHaveAttribute(
      'title',
      '2026-11-18T20:16:00.000Z',
    );
    expect(within(rows[0]!).getByText('Payment gateway switched')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Ann Admin · ann@demo.test')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sign-in')).toBeInTheDocument();
    expect(screen.getByText(/Page 1 of 3 · 120 entries/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lists(sent).at(-1)?.query.page).toBe('2'));
  });

  it('filters by actor, action and day-first dates, sending ISO days', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    await screen.findAllByTestId('audit-row');
    await user.type(screen.getByLabelText('Actor (e-mail or staff id)'), 'ann@demo.test');
    await user.selectOptions(screen.getByLabelText('Action'), 'gateway.activate');
    await user.type(screen.getByLabelText('From'), '1/11/2026');
    await user.type(screen.getByLabelText('To'), '18 Nov 2026');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(lists(sent).at(-1)?.query).toEqual({
        actor: 'ann@demo.test',
        action: 'gateway.activate',
        from: '2026-11-01',
        to: '2026-11-18',
        page: '1',
      }),
    );
    expect(screen.getByLabelText('From')).toHaveValue('1 Nov 2026');
  });

  it('refuses a month-first date before asking the server', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    await screen.findAllByTestId('audit-row');
    const before = lists(sent).length;
    await user.type(screen.getByLabelText('From'), '11/18/2026');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/from: must be a date/)).toBeInTheDocument();
    expect(lists(sent)).toHaveLength(before);
  });

  it('exports the whole filtered log from the server (not the page on screen)', async () => {
    signInAs('Manager');
    const user = userEvent.setup();
    const created = vi.fn((_blob: Blob) => 'blob:audit');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const sent = open('/admin/audit-log?action=login.success&from=2026-11-01', {
      // jsdom's Blob is not the one MSW streams: the body arrives as JSON text, read back as a Blob.
      'GET /api/admin/audit-log/export': () => ok('When,Actor'),
    });
    await screen.findAllByTestId('audit-row');
    const button = screen.getByRole('button', { name: 'Export CSV' });
    expect(button).toHaveAccessibleDescription('Exports every entry under the filters, not only this page');
    await user.click(button);
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const exported = sent.filter((r) => r.path === '/api/admin/audit-log/export');
    expect(exported.map((r) => r.query)).toEqual([{ action: 'login.success', from: '2026-11-01' }]);
    expect(await created.mock.calls[0]![0].text()).toContain('When,Actor');
    // No page is built in the browser, and no separate export record is sent: the server records it.
    expect(sent.some((r) => r.path === '/api/admin/audit/export-event')).toBe(false);
  });

  it("shows the server's refusal of an export", async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    open('/admin/audit-log', {
      'GET /api/admin/audit-log/export': () =>
        refused(400, 'to: The To date must be on or after the From date.'),
    });
    await screen.findAllByTestId('audit-row');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('to: The To date must be on or after the From date.')).toBeInTheDocument();
  });

  it.each(['Team', 'Telecaller', 'Night Staff'])('%s may not see it and asks nothing', async (role) => {
    signInAs(role);
    const sent = open();
    expect(await screen.findByText('You do not have permission to view the audit log.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});
