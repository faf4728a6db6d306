import { describe, expect, it } from 'vitest';
import { financeOrdersQuery, financeQuery } from './finance.js';
import { insightsQuery } from './insights.js';
import { reportRangeBody } from './reports.js';

/** The first problem a schema reports, as `path: message`. */
function problem(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join('.')}: ${issue.message}` : null;
}

describe('the one period of the insights and the reports', () => {
  it('reads the same days the same way in every period, whatever the field names', () => {
    expect(insightsQuery.parse({ from: ' 2026-01-01', to: '2026-01-31 ' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(financeQuery.parse({ from: '2026-01-01', to: '2026-01-31' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      group: 'month',
    });
    expect(reportRangeBody.parse({ fromDate: '2026-01-01', toDate: '2026-01-31' })).toEqual({
      fromDate: '2026-01-01',
      toDate: '2026-01-31',
    });
    for (const schema of [insightsQuery, financeQuery]) {
      expect(problem(schema.safeParse({ to: '2026-01-31' }))).toBe('from: Please select the From date.');
      expect(problem(schema.safeParse({ from: '2026-02-30', to: '2026-03-01' }))).toBe(
        'from: must be a date (YYYY-MM-DD)',
      );
      expect(problem(schema.safeParse({ from: '2026-02-02', to: '2026-02-01' }))).toBe(
        'to: The To date must be on or after the From date.',
      );
      expect(problem(schema.safeParse({ from: '2026-01-01', to: '2026-01-31', extra: '1' }))).toMatch(
        /extra/,
      );
    }
    expect(problem(reportRangeBody.safeParse({ fromDate: '2026-02-02', toDate: '2026-02-01' }))).toBe(
      'toDate: The To date must be on or after the From date.',
    );
  });

  it('keeps each screen its own longest period: 366 days for the insights, three years for the reports', () => {
    expect(insightsQuery.safeParse({ from: '2024-01-01', to: '2024-12-31' }).success).toBe(true);
    expect(problem(insightsQuery.safeParse({ from: '2024-01-01', to: '2025-01-01' }))).toBe(
      'to: The period can be at most 366 days.',
    );
    expect(financeQuery.safeParse({ from: '2023-01-02', to: '2026-01-01' }).success).toBe(true);
    expect(problem(financeQuery.safeParse({ from: '2023-01-01', to: '2026-01-01' }))).toBe(
      'to: The range can be at most 3 years.',
    );
    expect(problem(reportRangeBody.safeParse({ fromDate: '2021-01-01', toDate: '2024-01-01' }))).toBe(
      'toDate: The range can be at most 3 years.',
    );
  });

  it('a query with more fields keeps its own rules beside the period', () => {
    expect(
      problem(
        financeOrdersQuery.safeParse({
          from: '2026-01-01',
          to: '2026-01-31',
          figure: 'gross',
          reason: 'customer_request',
        }),
      ),
    ).toBe('reason: a reason goes with the refunds figure only');
    expect(
      financeOrdersQuery.parse({ from: '2026-01-01', to: '2026-01-31', figure: 'refunds', limit: '20' }),
    ).toMatchObject({ figure: 'refunds', limit: 20 });
  });
});
