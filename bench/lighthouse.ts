import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.js';

export interface LighthouseResult {
  page: string;
  url: string;
  score: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  error?: string;
}

/** The flags the system Chromium needs on these machines (e2e/chromium.ts). */
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

/** Lighthouse (performance category, desktop preset) on each page, one Chromium for all. */
export async function runLighthouse(pages: { page: string; url: string }[]): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  const out: LighthouseResult[] = [];
  try {
    for (const p of pages) {
      // A fresh Chromium sometimes loses the first trace (NO_NAVSTART): one more try.
      for (let attempt = 0; attempt < 2; attempt++) {
        const r = await measure(chrome.port, p);
        if (!r.error || attempt === 1) {
          out.push(r);
          break;
        }
      }
    }
  } finally {
    chrome.kill();
  }
  return out;
}

async function measure(port: number, p: { page: string; url: string }): Promise<LighthouseResult> {
  try {
    const result = await lighthouse(
      p.url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      desktopConfig,
    );
    const lhr = result?.lhr;
    const metric = (id: string) => lhr?.audits[id]?.numericValue ?? null;
    return {
      ...p,
      score: lhr?.categories.performance?.score ?? null,
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      ...(lhr?.runtimeError ? { error: lhr.runtimeError.message } : {}),
    };
  } catch (err) {
    return { ...p, score: null, lcpMs: null, tbtMs: null, cls: null, error: (err as Error).message };
  }
}
