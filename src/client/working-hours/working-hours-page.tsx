import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { WEEK_DAYS, type WeekDay, type WeekHours } from '../../shared/contracts/routing';
import { MAX_ICAL_BYTES, workingHoursBody } from '../../shared/contracts/working-hours';
import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import { DateTime } from '../components/date-time';
import { FormField, TextareaField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import { errorMessage } from '../transport/api';
import { useGetWorkingHoursQuery, useSaveWorkingHoursMutation } from './working-hours-api';

const DAY_NAMES: Record<WeekDay, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** A day's stretches as the field shows them: "09:00-12:00, 13:00-17:00"; empty is closed. */
const dayText = (stretches: [string, string][]): string => stretches.map(([a, b]) => `${a}-${b}`).join(', ');

/** The field's text back as stretches; a piece that is not "HH:MM-HH:MM" is kept for the schema to refuse. */
function parseDay(text: string): [string, string][] {
  return text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [from = '', to = ''] = s.split(/\s*[-–]\s*/);
      return [from, to];
    });
}

interface Draft {
  days: Record<WeekDay, string>;
  holidays: string;
}

type Errors = Partial<Record<WeekDay | 'holidays' | 'ical', string>>;

interface DraftProps {
  draft: Draft;
  setDraft: (draft: Draft) => void;
  errors: Errors;
}

/** Each day's opening hours, as text ("09:00-12:00, 13:00-17:00"). */
function WeeklyHoursCard({ draft, setDraft, errors }: DraftProps) {
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h6">Weekly hours</h2>
        {WEEK_DAYS.map((d) => (
          <TextField
            key={d}
            id={`working-hours-${d}`}
            className="mb-2"
            label={DAY_NAMES[d]}
            help={d === 'mon' ? 'e.g. 09:00-12:00, 13:00-17:00; empty: closed' : undefined}
            error={errors[d]}
            value={draft.days[d]}
            onChange={(e) => setDraft({ ...draft, days: { ...draft.days, [d]: e.target.value } })}
          />
        ))}
      </Card.Body>
    </Card>
  );
}

/** The holidays, one date a line, and an iCalendar file whose events' days are added on save. */
function HolidaysCard({
  draft,
  setDraft,
  errors,
  icalName,
  onIcal,
}: DraftProps & { icalName: string | undefined; onIcal: (file: File | undefined) => void }) {
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h6">Holidays</h2>
        <TextareaField
          id="working-hours-holidays"
          className="mb-3"
          label="Holidays (one date a line, YYYY-MM-DD)"
          rows={5}
          error={errors.holidays}
          value={draft.holidays}
          onChange={(e) => setDraft({ ...draft, holidays: e.target.value })}
        />
        <FormField
          id="working-hours-ical"
          label="Import holidays from an iCalendar file (.ics)"
          help={
            icalName !== undefined
              ? `${icalName}: its events' days are added to the holidays when you save.`
              : 'A public-holiday calendar exported from any calendar app.'
          }
          error={errors.ical}
          control={(props) => (
            <input
              {...props}
              type="file"
              accept=".ics,text/calendar"
              className={`form-control${errors.ical ? ' is-invalid' : ''}`}
              onChange={(e) => onIcal(e.target.files?.[0])}
            />
          )}
        />
      </Card.Body>
    </Card>
  );
}

/**
 * /admin/working-hours: the working-hours calendar (Admin changes it, everyone reads it): the weekly
 * opening hours in the service time zone, the holidays, and an iCalendar file whose events' days become
 * holidays. Due-time rules counting working hours and the idle release use it.
 */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const editable = can(role, 'workingHours.write');
  const calendar = useGetWorkingHoursQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, { isLoading }] = useSaveWorkingHoursMutation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [ical, setIcal] = useState<{ name: string; text: string } | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (calendar.data) {
      setDraft({
        days: Object.fromEntries(WEEK_DAYS.map((d) => [d, dayText(calendar.data!.week[d])])) as Record<
          WeekDay,
          string
        >,
        holidays: calendar.data.holidays.join('\n'),
      });
      setIcal(null);
    }
  }, [calendar.data]);

  if (calendar.error)
    return <LoadError message={errorMessage(calendar.error)} onRetry={() => void calendar.refetch()} />;
  if (!draft)
    return <div className="p-3 spinner-border spinner-border-sm" role="status" aria-label="Loading" />;

  const readIcal = async (file: File | undefined) => {
    if (!file) {
      setIcal(null);
      return;
    }
    if (file.size > MAX_ICAL_BYTES) {
      setErrors((e) => ({ ...e, ical: 'The iCalendar file is too large (256 KB at most).' }));
      setIcal(null);
      return;
    }
    setErrors(({ ical: _drop, ...rest }) => rest);
    setIcal({ name: file.name, text: await file.text() });
  };

  const submit = async () => {
    const body = {
      week: Object.fromEntries(WEEK_DAYS.map((d) => [d, parseDay(draft.days[d])])) as WeekHours,
      holidays: draft.holidays
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
      ...(ical ? { ical: ical.text } : {}),
    };
    const parsed = workingHoursBody.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const [top, key] = issue.path;
        const field = (top === 'week' ? key : top) as keyof Errors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const res = await save(parsed.data).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section className="p-3" aria-labelledby="working-hours-title" style={{ maxWidth: 720 }}>
      <h1 id="working-hours-title" className="h4">
        Working hours
      </h1>
      <p className="text-muted small">
        Opening hours in the service time zone (America/New_York) and the days the desk is closed. Due-time
        rules set to count working hours (<Link to="/admin/due-time-policy">due-time policy</Link>) and the
        idle release count only these hours.
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset disabled={!editable || isLoading}>
          <WeeklyHoursCard draft={draft} setDraft={setDraft} errors={errors} />
          <HolidaysCard
            draft={draft}
            setDraft={setDraft}
            errors={errors}
            icalName={ical?.name}
            onIcal={(file) => void readIcal(file)}
          />
          {editable ? <Button type="submit">Save</Button> : null}
        </fieldset>
      </form>
      {!editable ? <p className="mt-2 small">Only an Admin can change the working hours.</p> : null}
      {calendar.data?.updatedAt ? (
        <p className="mt-3 small text-muted">
          Last changed by {calendar.data.updatedBy} on <DateTime value={calendar.data.updatedAt} />.
        </p>
      ) : null}
    </section>
  );
}
