import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_CANCELLATION_POLICY,
  DEFAULT_FEEDBACK_POLICY,
  type TrackPageAnswers,
} from '../../shared/contracts/self-service';
import { mockApi, ok, renderPage, signInAs } from '../test/fixtures';
import { Component } from './self-service-settings-page';

afterEach(() => localStorage.clear());

const answers: TrackPageAnswers = {
  answers: [{ stage: 'approved', en: 'Check the spam folder', es: 'Revise la carpeta de spam' }],
};

function open() {
  const sent = mockApi({
    'GET /api/admin/cancellation-policy': () => ok(DEFAULT_CANCELLATION_POLICY),
    'PUT /api/admin/cancellation-policy': (r) => ok(r.body, 'Cancellation policy saved'),
    'GET /api/admin/feedback-policy': () => ok(DEFAULT_FEEDBACK_POLICY),
    'PUT /api/admin/feedback-policy': (r) => ok(r.body, 'Feedback policy saved'),
    'GET /api/admin/track-page-answers': () => ok(answers),
    'PUT /api/admin/track-page-answers': (r) => ok(r.body, 'Answers saved'),
  });
  renderPage('/admin/self-service-settings', '/admin/self-service-settings', <Component />);
  return sent;
}
const puts = (sent: ReturnType<typeof open>, path: string) =>
  sent.filter((r) => r.method === 'PUT' && r.path === path).map((r) => r.body);

describe('the customer self-service settings (Admin)', () => {
  it('changes the cancellation ladder, refusing a share above 100 % beside its field', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    const worked = await screen.findByLabelText('Refund once worked on (%)');
    expect(screen.getByLabelText('Refund while untouched (%)')).toHaveValue(100);
    expect(worked).toHaveValue(75);
    await user.clear(worked);
    await user.type(worked, '150');
    await user.click(screen.getByRole('button', { name: 'Save cancellation policy' }));
    expect(worked).toHaveAttribute('aria-invalid', 'true');
    expect(puts(sent, '/api/admin/cancellation-policy')).toEqual([]);
    await user.clear(worked);
    await user.type(worked, '50');
    await user.click(screen.getByRole('button', { name: 'Save cancellation policy' }));
    expect(await screen.findByText('Cancellation policy saved')).toBeInTheDocument();
    expect(puts(sent, '/api/admin/cancellation-policy')).toEqual([
      { untouchedPercent: 100, workedOnPercent: 50 },
    ]);
  });

  it('changes the feedback policy: switched off, or asked after a number of minutes within a week', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    const minutes = await screen.findByLabelText('Ask after (minutes)');
    expect(minutes).toHaveValue(1440);
    await user.clear(minutes);
    await user.type(minutes, '20000');
    await user.click(screen.getByRole('button', { name: 'Save feedback policy' }));
    expect(minutes).toHaveAttribute('aria-invalid', 'true');
    await user.clear(minutes);
    await user.type(minutes, '0');
    await user.click(screen.getByLabelText('Ask customers how it went'));
    await user.click(screen.getByRole('button', { name: 'Save feedback policy' }));
    expect(await screen.findByText('Feedback policy saved')).toBeInTheDocument();
    expect(puts(sent, '/api/admin/feedback-policy')).toEqual([{ askAfterMinutes: 0, enabled: false }]);
  });

  it('edits the answers per stage in five languages, text only, at most five per stage', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    const approved = await screen.findByRole('group', { name: 'Approved' });
    expect(within(approved).getByLabelText('Approved answer 1, Spanish')).toHaveValue(
      'Revise la carpeta de spam',
    );
    await user.click(screen.getByRole('button', { name: 'Add an answer for Received' }));
    const english = screen.getByLabelText('Received answer 1, English');
    await user.type(english, 'We <b>got</b> it');
    await user.click(screen.getByRole('button', { name: 'Save answers' }));
    expect(english).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('must be text only (no HTML)')).toBeInTheDocument();
    await user.clear(english);
    await user.type(english, 'We got your order');
    await user.type(screen.getByLabelText('Received answer 1, Papiamento'), 'Nos a risibí bo order');
    await user.click(screen.getByRole('button', { name: 'Save answers' }));
    expect(await screen.findByText('Answers saved')).toBeInTheDocument();
    expect(puts(sent, '/api/admin/track-page-answers')).toEqual([
      {
        answers: [
          { stage: 'approved', en: 'Check the spam folder', es: 'Revise la carpeta de spam' },
          { stage: 'received', en: 'We got your order', pap: 'Nos a risibí bo order' },
        ],
      },
    ]);
    for (let i = 0; i < 4; i++)
      await user.click(screen.getByRole('button', { name: 'Add an answer for Received' }));
    expect(screen.queryByRole('button', { name: 'Add an answer for Received' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove Approved answer 1' }));
    expect(screen.queryByLabelText('Approved answer 1, English')).toBeNull();
  });

  it('is refused to a Manager without asking the server', async () => {
    signInAs('Manager');
    const sent = open();
    expect(await screen.findByText(/Only an Admin can change/)).toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});
