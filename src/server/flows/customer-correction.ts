import { eq } from 'drizzle-orm';
import {
  CUSTOMER_EDITABLE_FIELDS,
  type CustomerEditableField,
  customerFields,
} from '../../shared/contracts/self-service.js';
import type { FieldChange } from '../../shared/contracts/checks.js';
import type { MessageKey } from '../../shared/i18n/format.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { orders } from '../db/schema.js';
import {
  badRequest,
  conflict,
  HttpError,
  httpErrorOf,
  tooManyRequests,
  unauthorized,
} from '../http/errors.js';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import { inTransaction } from '../orders/transaction.js';
import { correctOrder } from '../orders/corrections.js';
import { customerAnswered, WAITING_STATUSES } from '../orders/customer-answers.js';
import type { CheckSettings } from '../orders/order-checks.js';
import {
  CUSTOMER_EDITS_PER_DAY,
  customerEditsToday,
  customerOrder,
  customerSide,
  selfServiceOpen,
} from '../customer/self-service.js';
import type { OrderStatus } from '../../shared/constants.js';
import { now } from '../clock.js';

/** A refusal already worded for the customer (not replaced by the stale-version message). */
class CustomerRefusal extends HttpError {}

/**
 * The customer corrects their details on the track page (docs/product.md, "Customers help themselves"):
 * the fields validated as at intake (a refused field named in the customer's language), refused from
 * Awaiting Govt on (409 saying how to reach support), over 10 edits a day (429) or on a stale version
 * (409); then the staff correction with the actor `customer` (event, audit, checks again), the "Customer
 * edited" flag, and an order waiting on the customer back as an answer brings it, in one transaction.
 */
export async function customerCorrection(
  ctx: { db: Db; config: Config; settings: CheckSettings },
  orderId: number,
  body: { expectedVersion: number; fields: Record<string, unknown>; lang?: string | undefined },
  ip: string | null,
): Promise<{ changes: FieldChange[]; version: number; message: string }> {
  const { db, config, settings } = ctx;
  const order = await customerOrder(db, orderId);
  if (!order || order.processStatus === 'Deleted') throw unauthorized(CUSTOMER_MSG.sessionExpired);
  const side = customerSide(config, order, body.lang);
  const label = (f: string) => side.t(`self.field.${f}` as MessageKey);

  for (const key of Object.keys(body.fields)) {
    if (!(CUSTOMER_EDITABLE_FIELDS as readonly string[]).includes(key)) {
      throw badRequest(side.t('self.unknownField'), {
        errors: [{ field: key.slice(0, 40), message: side.t('self.unknownField') }],
      });
    }
  }
  const parsed = customerFields.safeParse(body.fields);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '');
      return { field, message: side.t('self.fieldInvalid', { field: label(field) }) };
    });
    throw badRequest(errors[0]!.message, { errors });
  }
  const fields = parsed.data as Partial<Record<CustomerEditableField, unknown>>;
  if (!Object.values(fields).some((v) => v !== undefined)) throw badRequest(side.t('self.noChange'));

  try {
    return await inTransaction(db, async (tx) => {
      let from: OrderStatus = order.processStatus as OrderStatus;
      const result = await correctOrder(
        tx,
        'customer',
        orderId,
        { ...fields, expectedVersion: body.expectedVersion } as Parameters<typeof correctOrder>[3],
        settings,
        now(),
        ip,
        async (locked) => {
          from = locked.processStatus as OrderStatus;
          if (!selfServiceOpen(locked.processStatus)) {
            throw new CustomerRefusal(
              409,
              side.t('self.editClosed', { orderId: String(orderId), supportEmail: side.supportEmail }),
            );
          }
          if ((await customerEditsToday(tx, orderId)) >= CUSTOMER_EDITS_PER_DAY) {
            throw new CustomerRefusal(429, side.t('self.tooManyEdits'));
          }
        },
        { customerEdited: true },
      );
      if (!result.changes.length) return { ...result, message: side.t('self.noChange') };
      // An order waiting on the customer comes back as their answer brings it (decision 307).
      if (!WAITING_STATUSES.includes(from)) {
        return { changes: result.changes, version: result.version, message: side.t('self.corrected') };
      }
      await customerAnswered(tx, orderId, 'details corrected on the track page', null);
      const [after] = await tx
        .select({ version: orders.version })
        .from(orders)
        .where(eq(orders.orderId, orderId));
      return { changes: result.changes, version: after!.version, message: side.t('self.corrected') };
    });
  } catch (err) {
    if (err instanceof CustomerRefusal) throw new HttpError(err.statusCode, err.message);
    // Every other conflict is a stale version (its staff wording names staff members: not shown).
    const refused = httpErrorOf(err);
    if (refused?.statusCode === 409) throw conflict(side.t('self.stale'));
    if (refused?.statusCode === 429) throw tooManyRequests(refused.message);
    throw err;
  }
}
