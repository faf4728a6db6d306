import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

export interface LighthouseResult {
  page: string;
  url: string;
  score: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  error?: string;
}

/** TOOLCHAIN.md: the flags the system Chromium needs here. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Lighthouse (performance category, desktop preset) on each page, one Chromium for all. */
export async function runLighthouse(pages: { page: string; url: string }[]): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const out: LighthouseResult[] = [];
  try {
    for (const p of pages) {
      try {
        const result = await lighthouse(
          p.url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
          desktopConfig,
        );
        const lhr = result?.lhr;
        const metric = (id: string) => lhr?.audits[id]?.numericValue ?? null;
        out.push({
          ...p,
          score: lhr?.categories.performance?.score ?? null,
          lcpMs: metric('largest-contentful-paint'),
          tbtMs: metric('total-blocking-time'),
          cls: metric('cumulative-layout-shift'),
          ...(lhr?.runtimeError ? { error: lhr.runtimeError.message } : {}),
        });
      } catch (err) {
        out.push({ ...p, score: null, lcpMs: null, tbtMs: null, cls: null, error: (err as Error).message });
      }
    }
  } finally {
    chrome.kill();
  }
  return out;
}
