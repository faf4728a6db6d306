import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORKING_HOURS } from '../../shared/contracts/working-hours';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component } from './working-hours-page';

afterEach(() => localStorage.clear());

const saved = { ...DEFAULT_WORKING_HOURS, holidays: ['2026-12-25'], updatedAt: null, updatedBy: null };

function open(put?: Parameters<typeof mockApi>[0][string]) {
  const sent = mockApi({
    'GET /api/admin/working-hours': () => ok(saved),
    ...(put ? { 'PUT /api/admin/working-hours': put } : {}),
  });
  const view = renderPage('/admin/working-hours', '/admin/working-hours', <Component />);
  return { sent, view };
}

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Test//EN',
  'BEGIN:VEVENT',
  'UID:newyear@test',
  'DTSTART;VALUE=DATE:20270101',
  'SUMMARY:New Year',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

describe('Working hours', () => {
  it('shows the week and the holidays, saves new hours, a holiday and an iCalendar file, and has no axe violations', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const { sent, view } = open((req) => ok(req.body, 'The working hours have been saved.'));
    const monday = await screen.findByLabelText('Monday');
    expect(monday).toHaveValue('09:00-17:00');
    expect(screen.getByLabelText('Saturday')).toHaveValue('');
    expect(screen.getByLabelText(/^Holidays/)).toHaveValue('2026-12-25');
    await user.clear(monday);
    await user.type(monday, '08:00-12:00, 13:00-18:00');
    await user.type(screen.getByLabelText('Saturday'), '10:00-14:00');
    await user.type(screen.getByLabelText(/^Holidays/), '\n2026-12-31');
    await user.upload(
      screen.getByLabelText(/iCalendar file/),
      new File([ICS], 'holidays.ics', { type: 'text/calendar' }),
    );
    expect(await screen.findByText(/holidays\.ics: its events' days are added/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The working hours have been saved.')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      {
        week: {
          ...DEFAULT_WORKING_HOURS.week,
          mon: [
            ['08:00', '12:00'],
            ['13:00', '18:00'],
          ],
          sat: [['10:00', '14:00']],
        },
        holidays: ['2026-12-25', '2026-12-31'],
        ical: ICS,
      },
    ]);
    const results = await axe.run(view.container, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('marks a wrong time and a wrong date in the form and sends nothing', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const { sent } = open();
    const tuesday = await screen.findByLabelText('Tuesday');
    await user.clear(tuesday);
    await user.type(tuesday, '17:00-09:00');
    await user.type(screen.getByLabelText(/^Holidays/), '\n2026-13-01');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(tuesday).toHaveClass('is-invalid');
    expect(screen.getByText('a stretch must start before it ends')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Holidays/)).toHaveClass('is-invalid');
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal", async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    open(() => refused(400, 'The iCalendar file could not be read.'));
    await screen.findByLabelText('Monday');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The iCalendar file could not be read.')).toBeInTheDocument();
  });

  it.each(['Manager', 'Team'])('%s sees the calendar without a Save button', async (role) => {
    signInAs(role);
    open();
    expect(await screen.findByLabelText('Monday')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByText('Only an Admin can change the working hours.')).toBeInTheDocument();
  });
});
