import dayjs from 'dayjs';
import { MAX_INSIGHTS_DAYS } from '../../shared/contracts/insights';

export const PRESETS = [
  { key: 'today', label: 'Today' },
  { key: '7d', label: '7 d' },
  { key: '30d', label: '30 d' },
  { key: 'month', label: 'This month' },
  { key: 'custom', label: 'Custom' },
] as const;
export type Preset = (typeof PRESETS)[number]['key'];

export interface Period {
  from: string;
  to: string;
}

/** The days of a preset, ending today (service time zone). */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, today: string): Period {
  const t = dayjs(today);
  const back = (n: number) => t.subtract(n - 1, 'day').format('YYYY-MM-DD');
  if (preset === 'today') return { from: today, to: today };
  if (preset === '7d') return { from: back(7), to: today };
  if (preset === '30d') return { from: back(30), to: today };
  return { from: t.startOf('month').format('YYYY-MM-DD'), to: today };
}

/** The period of the same length just before (for the comparison). */
export function previousPeriod({ from, to }: Period): Period {
  const days = dayjs(to).diff(dayjs(from), 'day') + 1;
  return {
    from: dayjs(from).subtract(days, 'day').format('YYYY-MM-DD'),
    to: dayjs(from).subtract(1, 'day').format('YYYY-MM-DD'),
  };
}

export function validPeriod(p: Partial<Period>): p is Period {
  const ok = (d?: string) => !!d && /^\d{4}-\d{2}-\d{2}$/.test(d) && dayjs(d).isValid();
  return (
    ok(p.from) && ok(p.to) && p.to! >= p.from! && dayjs(p.to).diff(dayjs(p.from), 'day') < MAX_INSIGHTS_DAYS
  );
}
