import dayjs from 'dayjs';
import { type CSSProperties, useId, useState } from 'react';
import { formatStaffDate } from '../../shared/dates';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads a date typed day first, as the staff screens show it: "18 Nov 2026", "18 November 2026",
 * "18/11/2026", "18-11-2026", "18.11.2026", or the ISO "2026-11-18". Answers YYYY-MM-DD, or null when it
 * is no real date.
 */
export function parseDayFirstDate(text: string): string | null {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const dayFirst = /^(\d{1,2})[\s/.-]+([A-Za-z]+|\d{1,2})[\s/.,-]+(\d{4})$/.exec(t);
  if (iso) {
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else if (dayFirst) {
    const month = dayFirst[2]!;
    d = Number(dayFirst[1]);
    y = Number(dayFirst[3]);
    if (/^\d+$/.test(month)) m = Number(month);
    else {
      const name = month.toLowerCase();
      m = name.length >= 3 ? MONTHS.findIndex((mm) => name.startsWith(mm)) + 1 : 0;
    }
  } else {
    return null;
  }
  const out = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const parsed = dayjs(out, 'YYYY-MM-DD');
  return m >= 1 && m <= 12 && parsed.isValid() && parsed.format('YYYY-MM-DD') === out ? out : null;
}

/** How a YYYY-MM-DD value shows in the field: "18 Nov 2026" (anything else as it is). */
export function showDayFirstDate(value: string): string {
  return parseDayFirstDate(value) ? formatStaffDate(value) : value;
}

export const DAY_FIRST_HINT = 'Day first, e.g. 18 Nov 2026 or 18/11/2026';

interface Props {
  /** YYYY-MM-DD, '' for none (or, in a form, the text typed so far when it is no date). */
  value: string;
  onChange: (value: string) => void;
  /** Marked wrong from outside (a form's own rule and message). */
  invalid?: boolean;
  /**
   * Filters: only real dates reach onChange ('' when the field is emptied); a text that is no date is
   * marked and explained in the field itself. Without it, a form gets the typed text to judge.
   */
  validOnly?: boolean;
  size?: 'sm' | 'lg';
  className?: string;
  style?: CSSProperties;
  /** The input's id, for its label (the form kit's DateField gives it). */
  id?: string;
  /** Ids of the field's help and error, read after the format hint. */
  describedBy?: string;
}

/**
 * A date typed day first and shown as "18 Nov 2026", the order of every date on the staff screens (a
 * browser's own date input follows its locale, month first in the US). Values in and out are YYYY-MM-DD,
 * so URLs and API queries keep ISO dates. Screens use it through the form kit's DateField, which labels it.
 */
export function DayFirstDateInput({
  value,
  onChange,
  invalid,
  validOnly,
  size,
  className,
  style,
  id,
  describedBy,
}: Props) {
  const hintId = useId();
  const [text, setText] = useState(() => showDayFirstDate(value));
  const [shownFor, setShownFor] = useState(value);
  const [left, setLeft] = useState(false);
  // A value set from outside (the URL, a reset) shows in the field.
  if (value !== shownFor) {
    setShownFor(value);
    if ((parseDayFirstDate(text) ?? text.trim()) !== value) setText(showDayFirstDate(value));
  }
  const wrong = validOnly && left && text.trim() !== '' && !parseDayFirstDate(text);
  return (
    <>
      <input
        id={id}
        type="text"
        inputMode="text"
        className={[
          'form-control',
          size ? `form-control-${size}` : '',
          invalid || wrong ? 'is-invalid' : '',
          className ?? '',
        ]
          .filter(Boolean)
          .join(' ')}
        style={style}
        placeholder="e.g. 18 Nov 2026"
        autoComplete="off"
        aria-describedby={describedBy ? `${hintId} ${describedBy}` : hintId}
        aria-invalid={invalid || wrong || undefined}
        value={text}
        onChange={(e) => {
          const typed = e.currentTarget.value;
          const iso = parseDayFirstDate(typed);
          setText(typed);
          setLeft(false);
          if (validOnly) {
            if (iso === null && typed.trim() !== '') return;
            const next = iso ?? '';
            setShownFor(next);
            if (next !== value) onChange(next);
            return;
          }
          const next = iso ?? typed;
          setShownFor(next);
          onChange(next);
        }}
        onBlur={() => {
          setLeft(true);
          const iso = parseDayFirstDate(text);
          if (iso) setText(showDayFirstDate(iso));
        }}
      />
      <span id={hintId} className={wrong ? 'invalid-feedback d-block' : 'visually-hidden'}>
        {wrong ? `Not a date. ${DAY_FIRST_HINT}.` : DAY_FIRST_HINT}
      </span>
    </>
  );
}
