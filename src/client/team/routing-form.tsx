import { type Dispatch, type SetStateAction, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { CAPACITY_MAX, WEEK_DAYS, type WeekDay, type WeekHours } from '../../shared/contracts/routing';
import type { TeamMember } from '../../shared/contracts/team';
import { CUSTOMER_LANGUAGES, LANGUAGE_NAMES } from '../../shared/languages';
import { errorMessage } from '../transport/api';
import { useUpdateTeamMemberMutation } from './team-api';

const DAY_NAMES: Record<WeekDay, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

interface DayRow {
  on: boolean;
  from: string;
  to: string;
}

/** A member's shift as one stretch per day (the screen's shape); a day's first stretch is shown. */
function rowsOf(shift: WeekHours | null): Record<WeekDay, DayRow> {
  return Object.fromEntries(
    WEEK_DAYS.map((d) => {
      const first = shift?.[d]?.[0];
      return [d, { on: !!first, from: first?.[0] ?? '09:00', to: first?.[1] ?? '17:00' }];
    }),
  ) as Record<WeekDay, DayRow>;
}

/** "YYYY-MM-DDTHH:MM" in the browser's zone for a datetime-local field. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The customer languages the member answers in. */
function LanguagesFieldset({
  languages,
  setLanguages,
}: {
  languages: string[];
  setLanguages: Dispatch<SetStateAction<string[]>>;
}) {
  return (
    <fieldset className="mb-3">
      <legend className="fs-6">Languages</legend>
      {CUSTOMER_LANGUAGES.map((l) => (
        <Form.Check
          inline
          key={l}
          id={`routing-language-${l}`}
          label={LANGUAGE_NAMES[l]}
          checked={languages.includes(l)}
          onChange={(e) =>
            setLanguages((prev) => (e.target.checked ? [...prev, l] : prev.filter((x) => x !== l)))
          }
        />
      ))}
    </fieldset>
  );
}

/** The weekly shift: per day ticked or not, from and to. */
function ShiftFieldset({
  days,
  setDays,
}: {
  days: Record<WeekDay, DayRow>;
  setDays: Dispatch<SetStateAction<Record<WeekDay, DayRow>>>;
}) {
  return (
    <fieldset className="mb-3">
      <legend className="fs-6">Shift (service time; no day ticked: never assigned by routing)</legend>
      {WEEK_DAYS.map((d) => (
        <div key={d} className="d-flex align-items-center gap-2 mb-1">
          <Form.Check
            id={`routing-day-${d}`}
            label={DAY_NAMES[d]}
            checked={days[d].on}
            style={{ minWidth: 120 }}
            onChange={(e) => setDays((prev) => ({ ...prev, [d]: { ...prev[d], on: e.target.checked } }))}
          />
          <Form.Control
            type="time"
            size="sm"
            style={{ maxWidth: 130 }}
            aria-label={`${DAY_NAMES[d]} from`}
            value={days[d].from}
            disabled={!days[d].on}
            onChange={(e) => setDays((prev) => ({ ...prev, [d]: { ...prev[d], from: e.target.value } }))}
          />
          <span>to</span>
          <Form.Control
            type="text"
            size="sm"
            style={{ maxWidth: 90 }}
            aria-label={`${DAY_NAMES[d]} to`}
            value={days[d].to}
            disabled={!days[d].on}
            onChange={(e) => setDays((prev) => ({ ...prev, [d]: { ...prev[d], to: e.target.value } }))}
          />
        </div>
      ))}
    </fieldset>
  );
}

/**
 * Routing of one member (Manage Team, Admin and Manager): capacity, languages, the weekly shift in the
 * service time zone (none: routing never assigns them) and away (optionally until a time).
 */
export function RoutingForm({ member }: { member: TeamMember }) {
  const [update, state] = useUpdateTeamMemberMutation();
  const [capacity, setCapacity] = useState(String(member.capacity));
  const [languages, setLanguages] = useState<string[]>(member.languages);
  const [days, setDays] = useState(rowsOf(member.shift));
  const [away, setAway] = useState(member.away);
  const [awayUntil, setAwayUntil] = useState(localInput(member.awayUntil));

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const anyDay = WEEK_DAYS.some((d) => days[d].on);
    const shift = anyDay
      ? (Object.fromEntries(
          WEEK_DAYS.map((d) => [d, days[d].on ? [[days[d].from, days[d].to]] : []]),
        ) as WeekHours)
      : null;
    try {
      const res = await update({
        tmId: member.id,
        name: member.name,
        email: member.email,
        type: member.type,
        password: '',
        capacity: Number(capacity),
        languages: languages as TeamMember['languages'],
        shift,
        away,
        awayUntil: away && awayUntil ? new Date(awayUntil).toISOString() : null,
      }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Routing
      </Card.Header>
      <Card.Body>
        <form noValidate onSubmit={onSubmit} aria-label="Routing">
          <Form.Group className="mb-3" controlId="routing-capacity" style={{ maxWidth: 200 }}>
            <Form.Label>Capacity (open orders at once)</Form.Label>
            <Form.Control
              type="number"
              min={0}
              max={CAPACITY_MAX}
              value={capacity}
              onChange={(e) => setCapacity(e.target.value)}
            />
          </Form.Group>
          <LanguagesFieldset languages={languages} setLanguages={setLanguages} />
          <ShiftFieldset days={days} setDays={setDays} />
          <div className="d-flex align-items-center gap-2 mb-3">
            <Form.Check
              id="routing-away"
              label="Away"
              checked={away}
              onChange={(e) => setAway(e.target.checked)}
            />
            <Form.Control
              type="datetime-local"
              size="sm"
              style={{ maxWidth: 220 }}
              aria-label="Away until"
              value={awayUntil}
              disabled={!away}
              onChange={(e) => setAwayUntil(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={state.isLoading}>
            Save routing
          </Button>
        </form>
      </Card.Body>
    </Card>
  );
}
