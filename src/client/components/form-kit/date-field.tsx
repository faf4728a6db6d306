import { DayFirstDateInput } from '../day-first-date';
import { type FieldFrameProps, FormField } from './form-field';

/**
 * A date field of the kit: typed day first ("18 Nov 2026", "18/11/2026"), its value YYYY-MM-DD. With
 * `validOnly` only real dates reach onChange; without, a form gets the typed text for its own rule.
 */
export function DateField({
  value,
  onChange,
  validOnly,
  size,
  controlClassName,
  ...frame
}: FieldFrameProps & {
  value: string;
  onChange: (value: string) => void;
  validOnly?: boolean;
  size?: 'sm' | 'lg';
  controlClassName?: string;
}) {
  return (
    <FormField
      {...frame}
      control={(a11y) => (
        <DayFirstDateInput
          id={a11y.id}
          describedBy={a11y['aria-describedby']}
          invalid={!!frame.error}
          value={value}
          onChange={onChange}
          validOnly={validOnly}
          size={size}
          className={controlClassName}
        />
      )}
    />
  );
}
