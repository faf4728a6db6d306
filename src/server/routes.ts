import type { FastifyPluginAsync } from 'fastify';
import { auditRoutes } from './audit/routes.js';
import { authRoutes } from './auth/routes.js';
import { sessionRoutes } from './auth/session-routes.js';
import { twoFactorRoutes } from './auth/two-factor-routes.js';
import { cardCheckRoutes } from './card-check/routes.js';
import { passportScanRoutes } from './passport-scan/routes.js';
import { checkRoutes } from './checks/routes.js';
import { communicationRoutes } from './communication/routes.js';
import { customerRoutes } from './customer/routes.js';
import { selfServiceRoutes } from './customer/self-service-routes.js';
import { ratingInsightsRoutes } from './insights/ratings.js';
import { documentRoutes } from './documents/routes.js';
import { gatewayRoutes } from './gateways/routes.js';
import { healthRoutes } from './health/routes.js';
import { conversationRoutes } from './inbound/conversation-routes.js';
import { inboundRoutes } from './inbound/routes.js';
import { trackReplyRoutes } from './inbound/track-reply-routes.js';
import { waitingPolicyRoutes } from './inbound/waiting-policy-routes.js';
import { insightsRoutes } from './insights/routes.js';
import { intakeRoutes } from './intake/routes.js';
import { liveRoutes } from './live/routes.js';
import { invoiceRoutes } from './invoices/routes.js';
import { defencePackRoutes } from './order-detail/defence-pack-routes.js';
import { orderDetailRoutes } from './order-detail/routes.js';
import { orderExportRoutes } from './order-lists/export-routes.js';
import { orderRoutes } from './order-lists/routes.js';
import { paymentRiskRoutes } from './payments/risk-routes.js';
import { callBackRoutes } from './order-lists/call-backs-routes.js';
import { paymentRoutes } from './payments/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { reportRoutes } from './reports/routes.js';
import { retentionRoutes } from './retention/routes.js';
import { routingRoutes } from './routing/routes.js';
import { shiftNoteRoutes } from './shift-notes/routes.js';
import { submissionRoutes } from './submission/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { dueTimeRoutes } from './due-time/routes.js';
import { teamRoutes } from './team/routes.js';
import { viewRoutes } from './views/routes.js';

/** Every area's routes, registered under /api by app.ts. One line per area. */
export const areaRoutes: FastifyPluginAsync[] = [
  healthRoutes,
  intakeRoutes,
  reportRoutes,
  authRoutes,
  sessionRoutes,
  twoFactorRoutes,
  teamRoutes,
  gatewayRoutes,
  orderRoutes,
  customerRoutes,
  orderDetailRoutes,
  documentRoutes,
  cardCheckRoutes,
  passportScanRoutes,
  defencePackRoutes,
  invoiceRoutes,
  insightsRoutes,
  auditRoutes,
  liveRoutes,
  dueTimeRoutes,
  viewRoutes,
  orderExportRoutes,
  checkRoutes,
  retentionRoutes,
  shiftNoteRoutes,
  communicationRoutes,
  paymentRoutes,
  paymentRiskRoutes,
  payoutRoutes,
  inboundRoutes,
  conversationRoutes,
  trackReplyRoutes,
  waitingPolicyRoutes,
  selfServiceRoutes,
  ratingInsightsRoutes,
  routingRoutes,
  submissionRoutes,
  apiKeyRoutes,
  callBackRoutes,
];
