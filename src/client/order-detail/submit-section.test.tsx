import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubmissionPacket } from '../../shared/contracts/submission';
import { mockApi, ok, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { SubmitSection } from './submit-section';

const PACKET: SubmissionPacket = {
  fields: [
    {
      key: 'last_name',
      section: 'traveller',
      label: 'Surname',
      value: 'OBRIEN-STRASSE',
      original: "O'Brien-Straße",
    },
    { key: 'first_name', section: 'traveller', label: 'Given names', value: 'OYVIND', original: 'Øyvind' },
    {
      key: 'date_of_birth',
      section: 'traveller',
      label: 'Date of birth',
      value: '12-04-1985',
      original: '1985-04-12',
    },
  ],
  warnings: [{ key: 'nationality', code: 'missing', message: 'Nationality is missing: the form needs it.' }],
};

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the Submit panel', () => {
  it('copies the focused field with c and moves on, copies all as text, and marks submitted with the reference', async () => {
    signInAs('Team');
    const order = orderFixture({ process_status: 'New' });
    const sent = mockApi({
      [`GET /api/admin/orders/${order.order_id}/submission-packet`]: () => ok(PACKET),
      [`POST /api/admin/orders/${order.order_id}/submitted`]: () => ok({}, 'Order marked submitted.'),
    });
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage('/o', '/o', <SubmitSection order={order} />);
    expect(await screen.findByText('OBRIEN-STRASSE')).toBeInTheDocument();
    expect(screen.getByText("(O'Brien-Straße)")).toBeInTheDocument();
    expect(screen.getByText('Nationality is missing: the form needs it.')).toBeInTheDocument();

    screen.getByRole('button', { name: 'Copy Surname' }).focus();
    await user.keyboard('c');
    expect(writeText).toHaveBeenLastCalledWith('OBRIEN-STRASSE');
    expect(screen.getByRole('button', { name: 'Copy Given names' })).toHaveFocus();
    await user.keyboard('c');
    expect(writeText).toHaveBeenLastCalledWith('OYVIND');
    expect(screen.getByRole('button', { name: 'Copy Date of birth' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Copy all as text' }));
    expect(writeText).toHaveBeenLastCalledWith(
      'Surname: OBRIEN-STRASSE\nGiven names: OYVIND\nDate of birth: 12-04-1985',
    );

    const mark = screen.getByRole('button', { name: 'Mark submitted' });
    expect(mark).toBeDisabled();
    await user.type(screen.getByLabelText('Government reference'), 'AB 1');
    expect(mark).toBeDisabled();
    await user.clear(screen.getByLabelText('Government reference'));
    await user.type(screen.getByLabelText('Government reference'), 'ED-2026-0001');
    await user.click(mark);
    await waitFor(() => expect(sent.some((r) => r.path.endsWith('/submitted'))).toBe(true));
    expect(sent.find((r) => r.path.endsWith('/submitted'))!.body).toMatchObject({
      governmentReference: 'ED-2026-0001',
    });
  });

  it('shows the reference of a submitted order and no packet', async () => {
    signInAs('Team');
    const order = orderFixture({
      process_status: 'AwaitingGovt',
      government_reference: 'ED-2026-0001',
      submitted_at: '2026-11-20T15:00:00.000Z',
    });
    const sent = mockApi({});
    renderPage('/o', '/o', <SubmitSection order={order} />);
    expect(screen.getByTestId('government-reference')).toHaveTextContent('ED-2026-0001');
    expect(sent).toHaveLength(0);
  });
  it("lists a machine's failed submissions with the error and a Screenshot download", async () => {
    signInAs('Team');
    const order = orderFixture({ process_status: 'New' });
    mockApi({
      [`GET /api/admin/orders/${order.order_id}/submission-packet`]: () => ok(PACKET),
      [`GET /api/admin/orders/${order.order_id}/files`]: () =>
        ok([
          {
            id: 7,
            kind: 'submission_screenshot',
            name: 'submission.png',
            mime_type: 'image/png',
            size_bytes: 120,
            note: 'The portal refused the passport number',
            created_by: 'Portal robot (machine)',
            created_at: '2026-11-20T15:00:00.000Z',
            download_url: `/api/admin/orders/${order.order_id}/files/7`,
          },
        ]),
    });
    renderPage('/o', '/o', <SubmitSection order={order} />);
    const failures = await screen.findByTestId('submission-failures');
    expect(failures).toHaveTextContent(
      'Portal robot (machine) could not submit: The portal refused the passport number',
    );
    expect(screen.getByRole('button', { name: 'Screenshot' })).toBeInTheDocument();
  });
});
