import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { DateField } from './date-field';
import { CheckboxField, SelectField, TextareaField, TextField } from './form-field';
import { useZodForm } from './use-zod-form';

const schema = z.object({
  email: z.string().check(z.email({ error: 'Please enter a valid Email ID.' })),
  kind: z.string().check(z.minLength(1, { error: 'Please choose a kind.' })),
  note: z.string().check(z.maxLength(5, { error: 'At most 5 characters.' })),
  arrival: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Please enter a date.' })),
  agree: z.boolean(),
});

/** A form as the screens write it: fields declared, the shared-style zod schema as the resolver. */
function Harness({ onSend }: { onSend: (v: z.output<typeof schema>) => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useZodForm(schema, { defaultValues: { email: '', kind: '', note: '', arrival: '', agree: false } });
  return (
    <form noValidate onSubmit={handleSubmit(onSend)} aria-label="Sample">
      <TextField
        label="Email"
        help="Where the answer goes."
        type="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <SelectField label="Kind" error={errors.kind?.message} {...register('kind')}>
        <option value="">Choose</option>
        <option value="a">A</option>
      </SelectField>
      <TextareaField label="Note" error={errors.note?.message} {...register('note')} />
      <Controller
        control={control}
        name="arrival"
        render={({ field }) => (
          <DateField
            label="Arrival"
            error={errors.arrival?.message}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      <CheckboxField label="I agree" {...register('agree')} />
      <button type="submit">Send</button>
    </form>
  );
}

describe('the form kit', () => {
  it('labels each control and shows the zod message on the field, described and marked invalid', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    render(<Harness onSend={(v) => sent.push(v)} />);
    await user.type(screen.getByLabelText('Email'), 'not-an-address');
    await user.type(screen.getByLabelText('Note'), 'far too long');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveClass('form-control', 'is-invalid');
    expect(email).toHaveAccessibleDescription('Where the answer goes. Please enter a valid Email ID.');
    expect(screen.getByLabelText('Kind')).toHaveAccessibleDescription('Please choose a kind.');
    expect(screen.getByLabelText('Note')).toHaveAccessibleDescription('At most 5 characters.');
    expect(screen.getByText('Please enter a date.')).toBeVisible();
    expect(sent).toEqual([]);
  });

  it('shows the help text alone while the field is valid, and sends the parsed values', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    render(<Harness onSend={(v) => sent.push(v)} />);
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAccessibleDescription('Where the answer goes.');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Kind')).not.toHaveAttribute('aria-describedby');

    await user.type(email, 'ann@example.com');
    await user.selectOptions(screen.getByLabelText('Kind'), 'a');
    await user.type(screen.getByLabelText('Note'), 'ok');
    await user.type(screen.getByLabelText('Arrival'), '3/2/2027');
    await user.click(screen.getByLabelText('I agree'));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(sent).toEqual([
      { email: 'ann@example.com', kind: 'a', note: 'ok', arrival: '2027-02-03', agree: true },
    ]);
  });

  it('reads the date day first: 03/02/2027 is the 3rd of February, shown as 3 Feb 2027', async () => {
    const user = userEvent.setup();
    function DateHarness() {
      const [value, setValue] = useState('');
      return (
        <>
          <DateField label="Departure" help="The day the trip ends." value={value} onChange={setValue} />
          <output data-testid="value">{value}</output>
        </>
      );
    }
    render(<DateHarness />);
    const field = screen.getByLabelText('Departure');
    await user.type(field, '03/02/2027');
    expect(screen.getByTestId('value')).toHaveTextContent('2027-02-03');
    await user.tab();
    expect(field).toHaveValue('3 Feb 2027');
    // The format hint comes first, then the field's own help.
    expect(field).toHaveAccessibleDescription(
      'Day first, e.g. 18 Nov 2026 or 18/11/2026 The day the trip ends.',
    );
  });

  it('has no axe violations with errors shown', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness onSend={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Please choose a kind.');
    const results = await axe.run(container, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
