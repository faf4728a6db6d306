// The waiting policy: reminders to a customer who does not answer, then Contact Customer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  waitingPolicy,
  waitingPolicyEnabledBody,
  waitingPolicyPreviewResponse,
  waitingPolicyResponse,
  waitingPolicySwitchResponse,
} from '../../shared/contracts/conversation.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { getWaitingPolicy, previewWaiting, setWaitingPolicy, setWaitingSwitch } from './waiting.js';

const security = [{ staffToken: [] }];

/** Read, change, preview and switch the waiting policy (Admin, Manager). */
export const waitingPolicyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/waiting-policy',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags: ['conversation'],
        summary: 'Reminders to a customer who does not answer, then Contact Customer (minutes in Awaiting)',
        security,
        response: { 200: waitingPolicyResponse },
      },
    },
    async () => ok(await getWaitingPolicy(db), 'Waiting policy'),
  );

  app.put(
    '/admin/waiting-policy',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags: ['conversation'],
        summary: 'Change the waiting policy (Admin, Manager; audited)',
        security,
        body: waitingPolicy,
        response: { 200: waitingPolicyResponse },
      },
    },
    async (request) => {
      const policy = await setWaitingPolicy(db, staffOf(request), request.body, request.ip);
      return ok(policy, 'The waiting policy has been saved.');
    },
  );

  app.get(
    '/admin/waiting-policy/preview',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags: ['conversation'],
        summary: 'How many orders each step of the waiting policy would act on now, and whether it is on',
        security,
        response: { 200: waitingPolicyPreviewResponse },
      },
    },
    async () => ok(await previewWaiting(db), 'Waiting policy preview'),
  );

  app.put(
    '/admin/waiting-policy/enabled',
    {
      config: { permission: 'notifications.settings' },
      schema: {
        tags: ['conversation'],
        summary: 'Switch the waiting policy on or off (Admin, Manager; audited)',
        security,
        body: waitingPolicyEnabledBody,
        response: { 200: waitingPolicySwitchResponse },
      },
    },
    async (request) => {
      const result = await setWaitingSwitch(db, staffOf(request), request.body.enabled, request.ip);
      return ok(
        result,
        result.enabled
          ? 'The waiting policy is on.'
          : 'The waiting policy is off: no reminders, no escalation.',
      );
    },
  );
};
