import { writeFileSync } from 'node:fs';
import { expect, loginAs, test } from './fixtures.js';

/**
 * Decision 072: 'All' on a folder of ~100,000 rows — time to first rows and long tasks while scrolling.
 * A measurement, not a test: `npm run bench` runs it against the server it seeded (bench/perf-all.config.ts)
 * and passes the folder through the environment; everywhere else it is skipped.
 */
const base = process.env.BENCH_BASE_URL;
const folderPath = process.env.BENCH_ALL_PATH ?? 'order-history';
const rows = Number(process.env.BENCH_ALL_ROWS ?? 0);
const out = process.env.BENCH_ALL_OUT;

interface Measured {
  firstRowsMs?: number;
  domRows?: number;
  scrolledPx?: number;
  longTasksWhileScrolling?: number;
  maxLongTaskMs?: number;
  error?: string;
}

declare global {
  interface Window {
    __longTasks: { start: number; duration: number }[];
  }
}

test.skip(!base || !out, 'run by `npm run bench` against its seeded server (100,000-row folder)');

test("'All' on a 100,000-row folder: first rows and scrolling without long tasks", async ({ page }) => {
  const measured: Measured = {};
  try {
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          window.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await loginAs(page, 'Admin');
    await page.goto(`/admin/${folderPath}`);
    const firstRow = page.locator('table tbody tr').first();
    await expect(firstRow).toBeVisible({ timeout: 30_000 });

    const allResponse = page.waitForResponse(
      // 'All' arrives in chunks: the first rows come with the first chunk (500 rows).
      (r) =>
        r.url().includes('/api/admin/get-orders-list/') &&
        (r.url().includes('limit=500') || r.url().includes(`limit=${rows}`)),
      { timeout: 60_000 },
    );
    const t0 = Date.now();
    await page.getByLabel('Show').selectOption('All');
    await allResponse;
    await expect(page.locator('table tbody tr').nth(5)).toBeVisible({ timeout: 60_000 });
    measured.firstRowsMs = Date.now() - t0;
    measured.domRows = await page.locator('table tbody tr').count();

    // Scroll the way a user flings through the list, then drags the scrollbar to the middle and the end.
    const scrolled = await page.evaluate(async () => {
      const table = document.querySelector('table');
      let el: HTMLElement | null = table?.parentElement ?? null;
      while (
        el &&
        !(el.scrollHeight > el.clientHeight + 100 && /(auto|scroll)/.test(getComputedStyle(el).overflowY))
      ) {
        el = el.parentElement;
      }
      const scroller = el ?? (document.scrollingElement as HTMLElement);
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const start = performance.now();
      for (let i = 0; i < 150; i++) {
        scroller.scrollTop += 300;
        await frame();
      }
      scroller.scrollTop = scroller.scrollHeight / 2;
      await frame();
      await frame();
      scroller.scrollTop = scroller.scrollHeight;
      for (let i = 0; i < 10; i++) await frame();
      await new Promise((r) => setTimeout(r, 300));
      const tasks = window.__longTasks.filter((t) => t.start >= start);
      return {
        px: scroller.scrollTop,
        count: tasks.length,
        max: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
      };
    });
    measured.scrolledPx = Math.round(scrolled.px);
    measured.longTasksWhileScrolling = scrolled.count;
    measured.maxLongTaskMs = Math.round(scrolled.max);
    expect(measured.scrolledPx).toBeGreaterThan(1000);
  } catch (err) {
    measured.error = (err as Error).message.split('\n')[0];
    throw err;
  } finally {
    if (out) writeFileSync(out, JSON.stringify(measured));
  }
});
