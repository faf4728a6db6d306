import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MailTemplate } from '../../shared/contracts/communication';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { MacroMenu } from './macro-menu';
import { Component as TemplatesPage } from './templates-page';

const template = (over: Partial<MailTemplate> = {}): MailTemplate => ({
  id: 21,
  key: 'awaiting-customer',
  name: 'We need something from you',
  language: 'en',
  purpose: 'customer',
  version: 2,
  subject: 'We need something from you for order {{order_id}}',
  body: 'Dear {{full_name}},\n\nPlease check {{track_url}}.',
  updatedAt: '2026-11-22T20:00:00.000Z',
  ...over,
});

describe('Mail Templates screen', () => {
  it('opens a template with its versions, previews it on an order and saves a new version', async () => {
    signInAs('Manager');
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /api/admin/mail-templates': () =>
        ok([template(), template({ id: 22, language: 'es', version: 1 })]),
      'GET /api/admin/mail-templates/21': () =>
        ok({
          ...template(),
          versions: [
            {
              version: 2,
              subject: 'Second',
              body: 'b2',
              createdBy: 'Mia Manager',
              createdAt: '2026-11-22T20:00:00.000Z',
            },
            {
              version: 1,
              subject: 'First',
              body: 'b1',
              createdBy: null,
              createdAt: '2026-11-22T19:00:00.000Z',
            },
          ],
        }),
      'POST /api/admin/mail-templates/preview': (req) =>
        ok({
          subject: `Rendered for ${(req.body as { orderId: number }).orderId}`,
          html: '<p>Dear Ana</p>',
          text: 'Dear Ana',
        }),
      'PUT /api/admin/mail-templates/21': () =>
        ok({ ...template({ version: 3 }), versions: [] }, 'The template has been saved as a new version.'),
    });
    renderPage('/admin/mail-templates', '/admin/mail-templates', <TemplatesPage />);
    await user.click(await screen.findByRole('button', { name: 'We need something from you (English)' }));
    expect(await screen.findByText(/v1 · First · the service/)).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveValue('We need something from you for order {{order_id}}');

    await user.type(screen.getByLabelText('On order'), '100256');
    expect(await screen.findByText('Rendered for 100256')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '{{arrival_date}}' }));
    await user.click(screen.getByRole('button', { name: 'Save as new version' }));
    expect(await screen.findByText('The template has been saved as a new version.')).toBeInTheDocument();
    const put = sent.find((r) => r.method === 'PUT');
    expect(put?.body).toMatchObject({
      key: 'awaiting-customer',
      language: 'en',
      body: 'Dear {{full_name}},\n\nPlease check {{track_url}}.{{arrival_date}}',
    });
  });

  it('refuses an unknown variable before asking the server', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = mockApi({ 'GET /api/admin/mail-templates': () => ok([]) });
    renderPage('/admin/mail-templates', '/admin/mail-templates', <TemplatesPage />);
    await user.type(await screen.findByLabelText('Name'), 'Docs');
    await user.type(screen.getByLabelText('Key'), 'docs');
    await user.type(screen.getByLabelText('Subject'), 'Hi');
    await user.type(screen.getByLabelText('Body'), 'Hi {{{{nickname}}');
    await user.click(screen.getByRole('button', { name: 'Add template' }));
    expect(await screen.findByText(/unknown variable \{\{nickname\}\}/)).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('is read-only for Team', async () => {
    signInAs('Team');
    mockApi({ 'GET /api/admin/mail-templates': () => ok([template()]) });
    renderPage('/admin/mail-templates', '/admin/mail-templates', <TemplatesPage />);
    expect(await screen.findByText('Only an Admin or a Manager can change templates.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
  });
});

describe('Macro menu', () => {
  it('applies a macro to the selection and says which orders were refused and why', async () => {
    signInAs('Team');
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const sent = mockApi({
      'GET /api/admin/macros': () =>
        ok([
          {
            id: 2,
            name: 'Sent to government',
            remark: null,
            moveTo: 'AwaitingGovt',
            templateKey: 'sent-to-government',
            whatsappText: null,
            requiresDocument: false,
            updatedAt: '2026-11-22T20:00:00.000Z',
          },
        ]),
      'POST /api/admin/apply-macro': () =>
        ok(
          {
            orders: [
              {
                orderId: 100001,
                result: 'done',
                message: 'moved to Awaiting Govt, mail queued',
                processStatus: 'AwaitingGovt',
                whatsappText: null,
              },
              {
                orderId: 100002,
                result: 'refused',
                message: 'The order is already in Awaiting Govt.',
                processStatus: 'AwaitingGovt',
                whatsappText: null,
              },
            ],
          },
          'The macro was applied to 1 of 2 orders; see why the others were refused.',
        ),
    });
    const onApplied = vi.fn();
    renderPage('/', '/', <MacroMenu orderIds={[100001, 100002]} label="Apply macro" onApplied={onApplied} />);
    await user.click(await screen.findByRole('button', { name: 'Apply macro' }));
    await user.click(await screen.findByRole('button', { name: 'Sent to government' }));
    expect(
      await screen.findByText(/100002: The order is already in Awaiting Govt\. \(Awaiting Govt\)/),
    ).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ macroId: 2, orderIds: [100001, 100002] });
    await waitFor(() => expect(onApplied).toHaveBeenCalled());
  });

  it('shows the refusal of the one order of the detail page', async () => {
    signInAs('Team');
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    mockApi({
      'GET /api/admin/macros': () => ok([]),
    });
    renderPage('/', '/', <MacroMenu orderIds={[100001]} />);
    await user.click(await screen.findByRole('button', { name: 'Macros' }));
    expect(await screen.findByText('No macros yet')).toBeInTheDocument();
  });

  it('a refused macro on one order toasts the reason', async () => {
    signInAs('Team');
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    mockApi({
      'GET /api/admin/macros': () =>
        ok([
          {
            id: 3,
            name: 'Approved and sent',
            remark: null,
            moveTo: 'Completed',
            templateKey: null,
            whatsappText: null,
            requiresDocument: true,
            updatedAt: '2026-11-22T20:00:00.000Z',
          },
        ]),
      'POST /api/admin/apply-macro': () => refused(404, 'No such macro.'),
    });
    renderPage('/', '/', <MacroMenu orderIds={[100001]} />);
    await user.click(await screen.findByRole('button', { name: 'Macros' }));
    await user.click(await screen.findByRole('button', { name: 'Approved and sent' }));
    expect(await screen.findByText('No such macro.')).toBeInTheDocument();
  });
});
