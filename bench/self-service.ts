import type { Database } from '../src/server/db/client.js';
import { signCustomerToken } from '../src/server/customer/tokens.js';

/**
 * The benchmark rows of the customers' self-service (docs/product.md, "Customers help themselves"): a
 * customer correcting their passport number (PATCH /api/customer/orders/{id}) and a rating
 * (POST /api/customer/orders/{id}/rating), each with the order's own customer token. The orders come
 * from the seed: open New orders for the corrections, Completed ones for the ratings.
 */

interface SelfServiceOrder {
  orderId: number;
  token: string;
  version: number;
}
interface SelfServiceSamples {
  editable: SelfServiceOrder[];
  completed: SelfServiceOrder[];
}

/** How many orders each row cycles through: a correction takes at most 10 per order a day. */
const RING = 20_000;

/**
 * The orders of the rows, picked with the dataset (their tokens are signed once the server's secret is
 * known). Left out: the orders whose charge the webhook row disputes (order_id % 7 = 3: the dispute takes
 * them out of New and Completed), and, for the corrections, the travellers the intake row sends again
 * (`knownPassports`: the intake's duplicate search changes those orders, and their version with them).
 */
export async function pickSelfServiceOrders(database: Database, knownPassports: readonly string[]) {
  const pick = async (status: string, skipPassports: readonly string[]) => {
    const { rows } = await database.sql.query<{ order_id: string; version: number }>(
      `select order_id::text, version from orders
       where process_status = $1 and order_id % 7 <> 3
         and (passport_number is null or not (passport_number = any($2::text[])))
       order by order_id desc limit ${RING}`,
      [status, skipPassports],
    );
    return rows.map((r) => ({ orderId: Number(r.order_id), version: Number(r.version) }));
  };
  return { editable: await pick('New', knownPassports), completed: await pick('Completed', []) };
}
export type SelfServiceOrders = Awaited<ReturnType<typeof pickSelfServiceOrders>>;

/** Each order with its own customer token. */
export async function selfServiceSamples(
  orders: SelfServiceOrders,
  jwtSecret: string,
): Promise<SelfServiceSamples> {
  const sign = (list: { orderId: number; version: number }[]) =>
    Promise.all(list.map(async (o) => ({ ...o, token: await signCustomerToken(jwtSecret, o.orderId) })));
  return { editable: await sign(orders.editable), completed: await sign(orders.completed) };
}

/**
 * The next correction: the orders in turn, each with the version the previous correction left (the
 * server adds one per correction), a passport number not used before.
 */
export function nextCorrection(samples: SelfServiceSamples) {
  let n = 0;
  return () => {
    const o = samples.editable[n % samples.editable.length] ?? { orderId: 0, token: '', version: 0 };
    n += 1;
    const expectedVersion = o.version;
    o.version += 1;
    return {
      path: `/api/customer/orders/${o.orderId}`,
      token: o.token,
      body: {
        expectedVersion,
        fields: { passport_number: `BX${n.toString(36).toUpperCase().padStart(7, '0')}` },
      },
    };
  };
}

/**
 * The corrections' orders with the versions they have now: rows run before this one (claims, the job
 * API's claims, the checks) may have changed some of them since the dataset was read, and a correction
 * sent with an older version is refused with 409, as it should be. Answers how many orders there are.
 */
export async function refreshVersions(
  samples: SelfServiceSamples,
  exec: (text: string, params: unknown[]) => Promise<{ order_id: string; version: number }[]>,
): Promise<number> {
  const rows = await exec('select order_id::text, version from orders where order_id = any($1::bigint[])', [
    samples.editable.map((o) => o.orderId),
  ]);
  const now = new Map(rows.map((r) => [Number(r.order_id), Number(r.version)]));
  for (const o of samples.editable) o.version = now.get(o.orderId) ?? o.version;
  return samples.editable.length;
}

/** The next rating: the completed orders in turn, a good score with a comment (a later one replaces it). */
export function nextRating(samples: SelfServiceSamples) {
  let n = 0;
  return () => {
    const o = samples.completed[n % samples.completed.length] ?? { orderId: 0, token: '', version: 0 };
    n += 1;
    return {
      path: `/api/customer/orders/${o.orderId}/rating`,
      token: o.token,
      body: { score: 4 + (n % 2), comment: `Quick and clear, thank you (${n})` },
    };
  };
}
