import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { parseDayFirstDate, showDayFirstDate } from './day-first-date';
import { DateField } from './form-kit/date-field';

describe('parseDayFirstDate / showDayFirstDate', () => {
  it('reads dates day first, with the month named or numbered, and ISO dates', () => {
    expect(parseDayFirstDate('18 Nov 2026')).toBe('2026-11-18');
    expect(parseDayFirstDate(' 1 november 2026 ')).toBe('2026-11-01');
    expect(parseDayFirstDate('18/11/2026')).toBe('2026-11-18');
    expect(parseDayFirstDate('18.11.2026')).toBe('2026-11-18');
    expect(parseDayFirstDate('03-02-2026')).toBe('2026-02-03');
    expect(parseDayFirstDate('2026-11-18')).toBe('2026-11-18');
  });
  it('refuses what is no real date, and never reads month first', () => {
    expect(parseDayFirstDate('31 Feb 2026')).toBeNull();
    expect(parseDayFirstDate('11/18/2026')).toBeNull();
    expect(parseDayFirstDate('18 Nx 2026')).toBeNull();
    expect(parseDayFirstDate('2026-13-01')).toBeNull();
    expect(parseDayFirstDate('')).toBeNull();
  });
  it('shows a stored date day first', () => {
    expect(showDayFirstDate('2026-03-07')).toBe('7 Mar 2026');
    expect(showDayFirstDate('soon')).toBe('soon');
  });
});

/** The field as the screens use it: the form kit's DateField, the value kept as YYYY-MM-DD. */
function Harness({ initial = '', validOnly = false }: { initial?: string; validOnly?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <form>
      <DateField id="when" label="Arrival from" value={value} onChange={setValue} validOnly={validOnly} />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('2026-01-05')}>
        Set from outside
      </button>
      <button type="button" onClick={() => setValue('')}>
        Clear
      </button>
    </form>
  );
}

describe('DayFirstDateInput', () => {
  it.each([
    ['18 Nov 2026', '2026-11-18'],
    ['18/11/2026', '2026-11-18'],
    ['18-11-2026', '2026-11-18'],
    ['18 November 2026', '2026-11-18'],
    ['2026-11-18', '2026-11-18'],
  ])('typing "%s" holds %s and shows 18 Nov 2026 after leaving the field', async (typed, iso) => {
    const user = userEvent.setup();
    render(<Harness validOnly />);
    const field = screen.getByLabelText('Arrival from');
    await user.type(field, typed);
    expect(screen.getByTestId('value')).toHaveTextContent(iso);
    await user.tab();
    expect(field).toHaveValue('18 Nov 2026');
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('shows a stored ISO value day first, and follows changes from outside', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2026-03-07" validOnly />);
    const field = screen.getByLabelText('Arrival from');
    expect(field).toHaveValue('7 Mar 2026');
    expect(field).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Set from outside' }));
    expect(field).toHaveValue('5 Jan 2026');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(field).toHaveValue('');
  });

  it('as a filter, never passes on a month-first or broken text, and says so after leaving the field', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2026-03-07" validOnly />);
    const field = screen.getByLabelText('Arrival from');
    await user.clear(field);
    expect(screen.getByTestId('value')).toHaveTextContent(/^$/);
    await user.type(field, '11/18/2026');
    expect(screen.getByTestId('value')).toHaveTextContent(/^$/);
    await user.tab();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/Not a date\. Day first, e\.g\. 18 Nov 2026/);
    await user.clear(field);
    await user.type(field, '1/2/2026');
    expect(screen.getByTestId('value')).toHaveTextContent('2026-02-01');
    await user.tab();
    expect(field).toHaveValue('1 Feb 2026');
    expect(field).toHaveAccessibleDescription('Day first, e.g. 18 Nov 2026 or 18/11/2026');
  });

  it('in a form, hands the typed text on so the form can refuse it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Arrival from'), '31 Feb 2026');
    expect(screen.getByTestId('value')).toHaveTextContent('31 Feb 2026');
  });

  it('has no axe violations (label, description, invalid state)', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness validOnly />);
    await user.type(screen.getByLabelText('Arrival from'), 'soon');
    await user.tab();
    const results = await axe.run(container, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
