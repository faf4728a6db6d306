import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { savedView, savedViewBody, viewIdParams } from '../../shared/contracts/views.js';
import { staffOf } from '../auth/guard.js';
import { done, ok } from '../http/envelope.js';
import { createView, deleteView, updateView, viewsFor } from './queries.js';

const security = [{ staffToken: [] }];

/** Saved list views: a folder plus its query, own or shared by Admin and Manager, with live counts. */
export const viewRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/views',
    {
      config: { permission: 'views.own' },
      schema: {
        tags: ['orders'],
        summary: "The signed-in member's views and the shared ones, each with its live order count",
        security,
        response: { 200: envelope(z.array(savedView)) },
      },
    },
    async (request) => ok(await viewsFor(app.ctx, staffOf(request)), 'Views'),
  );

  app.post(
    '/admin/views',
    {
      config: { permission: 'views.own' },
      schema: {
        tags: ['orders'],
        summary: 'Save a view (shared: Admin and Manager only)',
        security,
        body: savedViewBody,
        response: { 200: envelope(savedView) },
      },
    },
    async (request) =>
      ok(await createView(app.ctx, staffOf(request), request.body, request.ip), 'The view has been saved.'),
  );

  app.put(
    '/admin/views/:id',
    {
      config: { permission: 'views.own' },
      schema: {
        tags: ['orders'],
        summary: "Change one's own view (another member's: 403 when shared, else 404)",
        security,
        params: viewIdParams,
        body: savedViewBody,
        response: { 200: envelope(savedView) },
      },
    },
    async (request) =>
      ok(
        await updateView(app.ctx, staffOf(request), request.params.id, request.body, request.ip),
        'The view has been saved.',
      ),
  );

  app.delete(
    '/admin/views/:id',
    {
      config: { permission: 'views.own' },
      schema: {
        tags: ['orders'],
        summary: "Delete one's own view",
        security,
        params: viewIdParams,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      await deleteView(db, staffOf(request), request.params.id, request.ip);
      return done('The view has been deleted.');
    },
  );
};
