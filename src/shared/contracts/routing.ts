import { z } from 'zod';
import { CUSTOMER_LANGUAGES } from '../languages.js';

/** The days of a week, as the weekly hours name them (Monday first). */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

const clockTime = z
  .string({ error: 'must be a time HH:MM' })
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be a time HH:MM (00:00–24:00)');

/** "09:30" -> 570. */
export const minutesOfDay = (hhmm: string): number =>
  Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One stretch of a day, start before end ("24:00" ends at midnight). */
const stretch = z
  .tuple([clockTime, clockTime])
  .refine(([from, to]) => minutesOfDay(from) < minutesOfDay(to), 'a stretch must start before it ends');

/**
 * Weekly hours in the service time zone: per day, up to four stretches that do not overlap, e.g.
 * `{ mon: [["09:00","17:00"]], …, sun: [] }`. A member's shift and the working-hours calendar share it.
 */
export const weekHours = z
  .object(
    Object.fromEntries(
      WEEK_DAYS.map((d) => [
        d,
        z
          .array(stretch)
          .max(4, 'at most four stretches a day')
          .refine((list) => {
            const sorted = [...list].sort((a, b) => minutesOfDay(a[0]) - minutesOfDay(b[0]));
            return sorted.every((s, i) => i === 0 || minutesOfDay(sorted[i - 1]![1]) <= minutesOfDay(s[0]));
          }, 'stretches of a day must not overlap'),
      ]),
    ) as unknown as Record<WeekDay, z.ZodType<[string, string][]>>,
  )
  .strict();
export type WeekHours = Record<WeekDay, [string, string][]>;

export const ROUTING_MODES = ['off', 'auto'] as const;
export type RoutingMode = (typeof ROUTING_MODES)[number];
const routingMode = z.enum(ROUTING_MODES, { error: 'must be off or auto' });

export const IDLE_MINUTES_MAX = 10_080;
export const DEFAULT_IDLE_MINUTES = 480;

/**
 * GET/PUT /api/admin/routing-policy: per folder, whether routing hands its orders out (`auto`) or they
 * wait to be taken (`off`); `customerAnswers` covers unassigned orders a customer's answer brought back.
 * `idleMinutesToRelease`: a held order nobody of its holder touched this long returns to its folder
 * (null: never).
 */
export const routingPolicy = z
  .object({
    routing: z
      .object({ newOrder: routingMode, priorityOrder: routingMode, customerAnswers: routingMode })
      .strict(),
    idleMinutesToRelease: z
      .number({ error: 'must be a whole number of minutes or null' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1 minute')
      .max(IDLE_MINUTES_MAX, `can be at most ${IDLE_MINUTES_MAX} minutes (a week)`)
      .nullable(),
  })
  .strict();
export type RoutingPolicy = z.infer<typeof routingPolicy>;

export const DEFAULT_ROUTING_POLICY: RoutingPolicy = {
  routing: { newOrder: 'off', priorityOrder: 'off', customerAnswers: 'off' },
  idleMinutesToRelease: DEFAULT_IDLE_MINUTES,
};

export const routingPolicyAnswer = routingPolicy.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

export const CAPACITY_MAX = 200;

/** An instant in ISO 8601 with its offset, within reason. */
const instant = z
  .string({ error: 'must be a date and time' })
  .max(40, 'must be a date and time')
  .datetime({ offset: true, error: 'must be a date and time (ISO 8601)' });

/** A member's routing fields, as the Team routes answer and take them. */
export const memberRouting = z.object({
  capacity: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(CAPACITY_MAX, `can be at most ${CAPACITY_MAX}`),
  languages: z
    .array(z.enum(CUSTOMER_LANGUAGES, { error: `must be one of ${CUSTOMER_LANGUAGES.join(', ')}` }))
    .max(CUSTOMER_LANGUAGES.length * 2, 'too many languages'),
  shift: weekHours.nullable(),
  away: z.boolean({ error: 'must be true or false' }),
  awayUntil: instant.nullable(),
});
export type MemberRouting = z.infer<typeof memberRouting>;

/** PUT /api/staff/availability: one's own Available/Away switch. */
export const availabilityBody = z
  .object({ away: z.boolean({ error: 'must be true or false' }), awayUntil: instant.nullable().optional() })
  .strict();
export type AvailabilityBody = z.infer<typeof availabilityBody>;

/** A manual assignment above the member's capacity: the 409's `load`. */
export interface CapacityLoad {
  held: number;
  capacity: number;
  adding: number;
  /** Admin and Manager may confirm with `overCapacity: true`. */
  mayConfirm: boolean;
}
