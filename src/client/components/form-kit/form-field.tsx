import { type ComponentPropsWithRef, type CSSProperties, type ReactNode, useId } from 'react';

/**
 * The form kit: every field of the staff screens is a label, one control, an optional help text and the
 * error message (from the form's zod schema), wired for assistive technology: the label points at the
 * control, the control is marked invalid and described by its help and its error. Screens declare fields;
 * only this folder spells out the markup (plain Bootstrap classes, so the sign-in screen of the first
 * load can use it without the react-bootstrap form components).
 */
export interface FieldFrameProps {
  label: ReactNode;
  /** A short explanation under the control. */
  help?: ReactNode;
  /** The message of the field's rule that failed (e.g. `errors.email?.message`). */
  error?: string | null;
  /** The control's id; one is made up when none is given. */
  id?: string;
  /** Classes and style of the field's wrapper (spacing, width). */
  className?: string;
  style?: CSSProperties;
  labelClassName?: string;
  /** Shown under the control, inside the field (a strength meter, a counter). */
  after?: ReactNode;
}

/** What the control of a field carries so that its label, help and error reach it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

function useFieldIds(id: string | undefined, help: ReactNode, error: string | null | undefined) {
  const made = useId();
  const controlId = id ?? made;
  const helpId = help ? `${controlId}-help` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  return { controlId, helpId, errorId, describedBy };
}

function FieldNotes({
  help,
  helpId,
  error,
  errorId,
}: {
  help: ReactNode;
  helpId?: string;
  error?: string | null;
  errorId?: string;
}) {
  return (
    <>
      {help ? (
        <div id={helpId} className="form-text">
          {help}
        </div>
      ) : null}
      {error ? (
        <div id={errorId} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </>
  );
}

/** A labelled field around any control; `control` gets the id and aria attributes to put on it. */
export function FormField({
  label,
  help,
  error,
  id,
  className,
  style,
  labelClassName,
  after,
  control,
}: FieldFrameProps & { control: (props: FieldControlProps) => ReactNode }) {
  const { controlId, helpId, errorId, describedBy } = useFieldIds(id, help, error);
  return (
    <div className={className} style={style}>
      <label htmlFor={controlId} className={labelClassName ? `form-label ${labelClassName}` : 'form-label'}>
        {label}
      </label>
      {control({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      <FieldNotes help={help} helpId={helpId} error={error} errorId={errorId} />
      {after}
    </div>
  );
}

type Size = 'sm' | 'lg';
/** The control's own look: Bootstrap's small or large size and extra classes. */
interface ControlLook {
  size?: Size;
  controlClassName?: string;
}
type FieldProps<E extends 'input' | 'textarea' | 'select'> = FieldFrameProps &
  ControlLook &
  Omit<ComponentPropsWithRef<E>, keyof FieldFrameProps | keyof ControlLook>;

/** Splits a field's props: the frame (label, help, error…), the control's class and its own attributes. */
function splitField<P extends FieldFrameProps & ControlLook>(
  base: 'form-control' | 'form-select',
  { label, help, error, id, className, style, labelClassName, after, size, controlClassName, ...control }: P,
) {
  const frame = { label, help, error, id, className, style, labelClassName, after };
  const cls = [base, size ? `${base}-${size}` : '', error ? 'is-invalid' : '', controlClassName ?? '']
    .filter(Boolean)
    .join(' ');
  return { frame, cls, control };
}

/** A one-line input: text, e-mail, password, number… (`type`); takes `register(name)` or value/onChange. */
export function TextField(props: FieldProps<'input'>) {
  const { frame, cls, control } = splitField('form-control', props);
  return (
    <FormField {...frame} control={(a11y) => <input type="text" {...control} {...a11y} className={cls} />} />
  );
}

/** A text area. */
export function TextareaField(props: FieldProps<'textarea'>) {
  const { frame, cls, control } = splitField('form-control', props);
  return <FormField {...frame} control={(a11y) => <textarea {...control} {...a11y} className={cls} />} />;
}

/** A select; its options are the children. */
export function SelectField(props: FieldProps<'select'>) {
  const { frame, cls, control } = splitField('form-select', props);
  return <FormField {...frame} control={(a11y) => <select {...control} {...a11y} className={cls} />} />;
}

/** A checkbox (a switch with `asSwitch`, a radio button with `type="radio"`) with its label after it. */
export function CheckboxField({
  label,
  help,
  error,
  id,
  className,
  style,
  labelClassName,
  after,
  inline,
  asSwitch,
  type = 'checkbox',
  ...input
}: FieldFrameProps & { inline?: boolean; asSwitch?: boolean; type?: 'checkbox' | 'radio' } & Omit<
    ComponentPropsWithRef<'input'>,
    keyof FieldFrameProps | 'type'
  >) {
  const { controlId, helpId, errorId, describedBy } = useFieldIds(id, help, error);
  const wrapper = [
    'form-check',
    inline ? 'form-check-inline' : '',
    asSwitch ? 'form-switch' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={wrapper} style={style}>
      <input
        {...input}
        type={type}
        role={asSwitch ? 'switch' : undefined}
        id={controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={error ? 'form-check-input is-invalid' : 'form-check-input'}
      />
      <label
        htmlFor={controlId}
        className={labelClassName ? `form-check-label ${labelClassName}` : 'form-check-label'}
      >
        {label}
      </label>
      <FieldNotes help={help} helpId={helpId} error={error} errorId={errorId} />
      {after}
    </div>
  );
}
