import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  applyMacroBody,
  idParams,
  macro,
  macroBody,
  macroOutcome,
  mailTemplate,
  mailTemplateBody,
  renderedMail,
  statusNotification,
  statusNotificationsBody,
  templatePreviewBody,
} from '../../shared/contracts/communication.js';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { staffOf } from '../auth/guard.js';
import { done, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { createMacro, deleteMacro, listMacros, updateMacro } from './macros.js';
import { applyMacro } from '../flows/apply-macro.js';
import { notificationSettings, saveNotificationSettings } from './notifications.js';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
} from './template-editing.js';
import { renderForOrder, templateValuesFor } from './templates.js';

const security = [{ staffToken: [] }];
const tags = ['communication'];

/** Customer communication: mail templates, status notifications, macros (docs/decisions/200–205). */
export const communicationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/mail-templates',
    {
      config: { permission: 'templates.read' },
      schema: {
        tags,
        summary: 'Every mail template (each language of a key is one template) with its current version',
        security,
        response: { 200: envelope(z.array(mailTemplate)) },
      },
    },
    async () => ok(await listTemplates(db), 'Mail templates'),
  );

  app.get(
    '/admin/mail-templates/:id',
    {
      config: { permission: 'templates.read' },
      schema: {
        tags,
        summary: 'One mail template with all its versions (newest first)',
        security,
        params: idParams,
        response: { 200: envelope(mailTemplate) },
      },
    },
    async (request) => ok(await getTemplate(db, request.params.id), 'Mail template'),
  );

  app.post(
    '/admin/mail-templates',
    {
      config: { permission: 'templates.write' },
      schema: {
        tags,
        summary:
          'Add a template (a key in one language; without a key a new one is made from the name); unknown {{variables}} are refused',
        security,
        body: mailTemplateBody,
        response: { 200: envelope(mailTemplate) },
      },
    },
    async (request) => {
      const id = await createTemplate(db, staffOf(request), request.body);
      return ok(await getTemplate(db, id), 'The template has been saved.');
    },
  );

  app.put(
    '/admin/mail-templates/:id',
    {
      config: { permission: 'templates.write' },
      schema: {
        tags,
        summary: 'Save a template as its next version (the older versions are kept)',
        security,
        params: idParams,
        body: mailTemplateBody,
        response: { 200: envelope(mailTemplate) },
      },
    },
    async (request) => {
      await updateTemplate(db, staffOf(request), request.params.id, request.body);
      return ok(await getTemplate(db, request.params.id), 'The template has been saved as a new version.');
    },
  );

  app.delete(
    '/admin/mail-templates/:id',
    {
      config: { permission: 'templates.write' },
      schema: {
        tags,
        summary: 'Delete a template (kept with its versions for the mail log)',
        security,
        params: idParams,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      await deleteTemplate(db, staffOf(request), request.params.id);
      return done('The template has been deleted.');
    },
  );

  app.post(
    '/admin/mail-templates/preview',
    {
      config: { permission: 'templates.read' },
      schema: {
        tags,
        summary: 'Render a subject and body (as typed, not saved) for a real order',
        security,
        body: templatePreviewBody,
        response: { 200: envelope(renderedMail) },
      },
    },
    async (request) => {
      const { orderId, subject, body } = request.body;
      const rendered = await renderForOrder(db, config, orderId, { subject, body, language: 'en' });
      if (!rendered) throw notFound('Order not found');
      return ok(rendered, 'Preview');
    },
  );

  app.get(
    '/admin/mail-templates/variables/:orderId',
    {
      config: { permission: 'templates.read' },
      schema: {
        tags,
        summary: "The template variables' values for one order",
        security,
        params: z.object({ orderId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: envelope(z.record(z.string(), z.string())) },
      },
    },
    async (request) => {
      const values = await templateValuesFor(db, config, request.params.orderId);
      if (!values) throw notFound('Order not found');
      return ok(values as Record<string, string>, 'Variables');
    },
  );

  app.get(
    '/admin/status-notifications',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags,
        summary: 'Per status: whether the customer is mailed on entering it, and with which template',
        security,
        response: { 200: envelope(z.array(statusNotification)) },
      },
    },
    async () => ok(await notificationSettings(db), 'Status notifications'),
  );

  app.put(
    '/admin/status-notifications',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags,
        summary: 'Change the status notifications named (audited)',
        security,
        body: statusNotificationsBody,
        response: { 200: envelope(z.array(statusNotification)) },
      },
    },
    async (request) =>
      ok(
        await saveNotificationSettings(db, staffOf(request), request.body.settings),
        'The status notifications have been saved.',
      ),
  );

  app.get(
    '/admin/macros',
    {
      config: { permission: 'macros.read' },
      schema: { tags, summary: 'Every macro', security, response: { 200: envelope(z.array(macro)) } },
    },
    async () => ok(await listMacros(db), 'Macros'),
  );

  app.post(
    '/admin/macros',
    {
      config: { permission: 'macros.write' },
      schema: {
        tags,
        summary: 'Add a macro: an optional remark, status move, template mail and WhatsApp text',
        security,
        body: macroBody,
        response: { 200: envelope(macro) },
      },
    },
    async (request) => ok(await createMacro(db, staffOf(request), request.body), 'The macro has been saved.'),
  );

  app.put(
    '/admin/macros/:id',
    {
      config: { permission: 'macros.write' },
      schema: {
        tags,
        summary: 'Change a macro',
        security,
        params: idParams,
        body: macroBody,
        response: { 200: envelope(macro) },
      },
    },
    async (request) =>
      ok(
        await updateMacro(db, staffOf(request), request.params.id, request.body),
        'The macro has been saved.',
      ),
  );

  app.delete(
    '/admin/macros/:id',
    {
      config: { permission: 'macros.write' },
      schema: { tags, summary: 'Delete a macro', security, params: idParams, response: { 200: messageOnly } },
    },
    async (request) => {
      await deleteMacro(db, staffOf(request), request.params.id);
      return done('The macro has been deleted.');
    },
  );

  app.post(
    '/admin/apply-macro',
    {
      config: { permission: 'macros.apply' },
      schema: {
        tags,
        summary:
          'Apply a macro to orders, each in its own transaction; answers per order: done or refused, why',
        security,
        body: applyMacroBody,
        response: { 200: envelope(z.object({ orders: z.array(macroOutcome) })) },
      },
    },
    async (request) => {
      const { outcomes } = await applyMacro(db, config, staffOf(request), request.body, request.log);
      const n = outcomes.filter((o) => o.result === 'done').length;
      return ok(
        { orders: outcomes },
        n === outcomes.length
          ? `The macro was applied to ${n} order${n === 1 ? '' : 's'}.`
          : `The macro was applied to ${n} of ${outcomes.length} orders; see why the others were refused.`,
      );
    },
  );
};
