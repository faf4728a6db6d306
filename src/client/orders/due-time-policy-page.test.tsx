import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DUE_TIME_POLICY } from '../../shared/contracts/due-time';
import { mockApi, ok, renderPage, signInAs } from '../test/fixtures';
import { Component as DueTimePolicyPage } from './due-time-policy-page';

afterEach(() => localStorage.clear());

const ROUTE = '/admin/due-time-policy';
const answer = (over: object = {}) => ({
  ...DEFAULT_DUE_TIME_POLICY,
  updatedAt: null,
  updatedBy: null,
  ...over,
});

describe('due-time policy page: the customer answer', () => {
  it('a Manager gives answers a 6 working-hour target; the whole policy is sent with it', async () => {
    signInAs('Manager');
    const sent = mockApi({
      'GET /api/admin/due-time-policy': () => ok(answer()),
      'PUT /api/admin/due-time-policy': (req) =>
        ok(answer(req.body as object), 'The due-time policy has been saved.'),
    });
    renderPage(ROUTE, ROUTE, <DueTimePolicyPage />);
    const user = userEvent.setup();
    const own = await screen.findByLabelText("A customer's answer has its own target");
    expect(own).not.toBeChecked();
    expect(screen.queryByLabelText('Hours from the answer')).toBeNull();
    await user.click(own);
    const hours = screen.getByLabelText('Hours from the answer');
    expect(hours).toHaveValue(4);
    await user.clear(hours);
    await user.type(hours, '6');
    await user.selectOptions(screen.getByLabelText('Hours from the answer count'), 'working');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The due-time policy has been saved.');
    const put = sent.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      ...DEFAULT_DUE_TIME_POLICY,
      customerAnswer: { hours: 6, clock: 'working' },
    });
  });

  it('stops 0 hours before sending, and an answer without the rule (an older server) shows it off', async () => {
    signInAs('Admin');
    const { customerAnswer: _c, ...older } = answer();
    const sent = mockApi({ 'GET /api/admin/due-time-policy': () => ok(older) });
    renderPage(ROUTE, ROUTE, <DueTimePolicyPage />);
    const user = userEvent.setup();
    const own = await screen.findByLabelText("A customer's answer has its own target");
    expect(own).not.toBeChecked();
    await user.click(own);
    const hours = screen.getByLabelText('Hours from the answer');
    await user.clear(hours);
    await user.type(hours, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The field's own rule (1 or more) stops the form before anything is sent.
    expect(hours).toBeInvalid();
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});
