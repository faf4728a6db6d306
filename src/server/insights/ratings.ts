import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { envelope } from '../../shared/contracts/common.js';
import {
  type RatingInsights,
  ratingInsights,
  ratingInsightsQuery,
} from '../../shared/contracts/self-service.js';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { ok } from '../http/envelope.js';
import { sqlValue } from '../db/sql-lists.js';

const security = [{ staffToken: [] }];
const TZ = sql.raw(`'${SERVICE_TIME_ZONE}'`);

/** The customers' ratings (docs/product.md, "Customers help themselves"): per week, comments, per member. */
export async function ratingFigures(db: DbOrTx, weeks: number): Promise<RatingInsights> {
  const since = sql`date_trunc('week', now() at time zone ${TZ}) - make_interval(weeks => ${weeks - 1})`;
  const [perWeek, comments, staff] = await Promise.all([
    db.execute<{ week: string; count: number; good: number; asked: number; answered: number }>(sql`
      with weeks as (select generate_series(${since}, date_trunc('week', now() at time zone ${TZ}), interval '1 week') as week),
      rated as (
        select date_trunc('week', r.updated_at at time zone ${TZ}) as week, count(*)::int as count,
               count(*) filter (where r.score >= 4)::int as good
        from order_ratings r where r.updated_at at time zone ${TZ} >= ${since} group by 1),
      asked as (
        select date_trunc('week', q.sent_at at time zone ${TZ}) as week, count(*)::int as asked,
               count(r.order_id)::int as answered
        from rating_requests q left join order_ratings r on r.order_id = q.order_id
        where q.sent_at at time zone ${TZ} >= ${since} group by 1)
      select to_char(w.week, 'YYYY-MM-DD') as week, coalesce(rated.count, 0) as count, coalesce(rated.good, 0) as good,
             coalesce(asked.asked, 0) as asked, coalesce(asked.answered, 0) as answered
      from weeks w left join rated on rated.week = w.week left join asked on asked.week = w.week
      order by w.week`),
    db.execute<{ order_id: string; score: number; comment: string; at: string }>(sql`
      select order_id::text, score, comment, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
      from order_ratings where comment <> '' order by updated_at desc limit 20`),
    db.execute<{
      staff_id: number | null;
      name: string | null;
      count: number;
      average: string;
      good: number;
    }>(sql`
      select c.actor_id as staff_id, s.name, count(*)::int as count, avg(r.score)::text as average,
             count(*) filter (where r.score >= 4)::int as good
      from order_ratings r
      left join lateral (
        select e.actor_id from order_events e
        where e.order_id = r.order_id and e.action = 'status' and e.to_value = ${sqlValue('Completed')}
        order by e.created_at desc, e.id desc limit 1) c on true
      left join staff_users s on s.id = c.actor_id
      where r.updated_at at time zone ${TZ} >= ${since}
      group by c.actor_id, s.name order by count(*) desc, s.name`),
  ]);
  return {
    weeks: perWeek.rows.map((w) => ({
      week: w.week,
      count: Number(w.count),
      goodShare: Number(w.count) ? Number(w.good) / Number(w.count) : null,
      responseRate: Number(w.asked) ? Number(w.answered) / Number(w.asked) : null,
    })),
    comments: comments.rows.map((c) => ({
      orderId: Number(c.order_id),
      score: Number(c.score),
      comment: c.comment,
      at: c.at,
    })),
    staff: staff.rows.map((s) => ({
      staffId: s.staff_id === null ? null : Number(s.staff_id),
      name: s.name ?? 'System',
      count: Number(s.count),
      average: Math.round(Number(s.average) * 100) / 100,
      goodShare: Number(s.good) / Number(s.count),
    })),
  };
}

export const ratingInsightsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/insights/ratings',
    {
      config: { permission: 'insights.read' },
      schema: {
        tags: ['insights'],
        summary:
          'Customer ratings per week (share of 4–5, response rate, count), the latest comments, per staff member',
        security,
        querystring: ratingInsightsQuery,
        response: { 200: envelope(ratingInsights) },
      },
    },
    async (request) => ok(await ratingFigures(app.ctx.db, request.query.weeks), 'Ratings'),
  );
};
