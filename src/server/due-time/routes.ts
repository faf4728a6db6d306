import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../shared/contracts/common.js';
import { dueTimePolicy, dueTimePolicyAnswer } from '../../shared/contracts/due-time.js';
import { MAX_HOLIDAYS, workingHoursAnswer, workingHoursBody } from '../../shared/contracts/working-hours.js';
import { now } from '../auth/clock.js';
import { badRequest } from '../http/errors.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { getDueTimePolicy, saveDueTimePolicy } from './policy.js';
import { getWorkingHours, holidaysFromIcal, IcalUnreadable, saveWorkingHours } from './working-hours.js';

const security = [{ staffToken: [] }];

/** The due-time policy per processing mode (Settings screen). */
export const dueTimeRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/due-time-policy',
    {
      config: { permission: 'dueTime.read' },
      schema: {
        tags: ['orders'],
        summary:
          'The due-time policy: hours from payment and before arrival per processing mode, and the at-risk margin',
        security,
        response: { 200: envelope(dueTimePolicyAnswer) },
      },
    },
    async () => ok(await getDueTimePolicy(db), 'Due-time policy'),
  );

  app.put(
    '/admin/due-time-policy',
    {
      config: { permission: 'dueTime.write' },
      schema: {
        tags: ['orders'],
        summary:
          'Change the due-time policy (Admin, Manager); every open order gets its new due time in the same transaction; audited',
        security,
        body: dueTimePolicy,
        response: { 200: envelope(dueTimePolicyAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const next = request.body;
      await db.transaction(async (tx) => {
        const { updatedAt: _a, updatedBy: _b, ...before } = await getDueTimePolicy(tx);
        await saveDueTimePolicy(tx, next, staff.id);
        await recordAudit(tx, {
          action: 'due-time-policy.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:dueTimePolicy',
          from: before,
          to: next,
          ip: request.ip,
        });
      });
      return ok(await getDueTimePolicy(db), 'The due-time policy has been saved.');
    },
  );

  app.get(
    '/admin/working-hours',
    {
      config: { permission: 'dueTime.read' },
      schema: {
        tags: ['orders'],
        summary:
          'The working-hours calendar: weekly hours in the service time zone and holidays (due-time rules with clock "working" count only these)',
        security,
        response: { 200: envelope(workingHoursAnswer) },
      },
    },
    async () => ok(await getWorkingHours(db), 'Working hours'),
  );

  app.put(
    '/admin/working-hours',
    {
      config: { permission: 'workingHours.write' },
      schema: {
        tags: ['orders'],
        summary:
          'Change the working hours (Admin): the week, the holidays and optionally an iCalendar file whose event days become holidays; open orders get their new due times in the same transaction; audited',
        security,
        body: workingHoursBody,
        response: { 200: envelope(workingHoursAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { ical, ...calendar } = request.body;
      let imported: string[] = [];
      try {
        if (ical) imported = holidaysFromIcal(ical, now());
      } catch (err) {
        if (err instanceof IcalUnreadable) throw badRequest(err.message);
        throw err;
      }
      const holidays = [...new Set([...calendar.holidays, ...imported])].sort();
      if (holidays.length > MAX_HOLIDAYS) throw badRequest(`holidays: at most ${MAX_HOLIDAYS} holidays`);
      const next = { week: calendar.week, holidays };
      await db.transaction(async (tx) => {
        const { updatedAt: _a, updatedBy: _b, ...before } = await getWorkingHours(tx);
        await saveWorkingHours(tx, next, staff.id, now());
        await recordAudit(tx, {
          action: 'working-hours.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:workingHours',
          from: before,
          to: { ...next, ...(ical ? { importedHolidays: imported.length } : {}) },
          ip: request.ip,
        });
      });
      return ok(
        await getWorkingHours(db),
        imported.length
          ? `The working hours have been saved, with ${imported.length} holiday${imported.length === 1 ? '' : 's'} from the iCalendar file.`
          : 'The working hours have been saved.',
      );
    },
  );
};
