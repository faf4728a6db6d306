import { createRequire } from 'node:module';
import { parse } from 'mrz';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/**
 * Reading a passport's machine-readable zone (ICAO 9303, TD3: two lines of 44 characters): OCR with
 * tesseract.js on its own worker thread, the English data loaded from disk (@tesseract.js-data/eng;
 * nothing is downloaded, nothing is cached), then the `mrz` parser with its check digits.
 */

const require = createRequire(import.meta.url);
const ENG = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

/** One OCR worker for the process, started on first use; a job past its time limit ends it. */
let ocr: Promise<Worker> | null = null;
/** Jobs run one at a time: the OCR worker is one thread. */
let queue: Promise<unknown> = Promise.resolve();

function ocrWorker(): Promise<Worker> {
  if (!ocr) {
    ocr = (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: ENG.langPath,
        gzip: ENG.gzip,
        cacheMethod: 'none',
        // Never asked: langPath is a folder on disk; set so a wrong path fails instead of downloading.
        cachePath: ENG.langPath,
      });
      await worker.setParameters({
        tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
      });
      return worker;
    })();
    ocr.catch(() => {
      ocr = null;
    });
  }
  return ocr;
}

/** Ends the OCR worker (tests, shutdown, a job past its time limit). */
export async function stopMrzReader(): Promise<void> {
  const running = ocr;
  ocr = null;
  if (running) await (await running.catch(() => null))?.terminate();
}

export class MrzTimeout extends Error {}
/** The OCR queue is full: the scan is refused before it waits (the caller answers 503 or tries later). */
export class MrzBusy extends Error {}

/**
 * Reads running or waiting for the OCR worker at most: a read waits its turn (its time limit starts
 * when its OCR starts), and beyond this many a new one is refused rather than waiting for minutes.
 */
const MAX_READS = 16;
let reads = 0;

/**
 * The text tesseract reads from a PNG, within `timeoutMs` counted from when the OCR worker takes the job
 * (the worker is ended past it), and how long the OCR itself took.
 */
export async function recognise(png: Uint8Array, timeoutMs: number): Promise<{ text: string; ms: number }> {
  const job = queue.then(async () => {
    const worker = await ocrWorker();
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MrzTimeout(`OCR ran longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([worker.recognize(Buffer.from(png)), limit]);
      return { text: result.data.text, ms: Date.now() - started };
    } catch (err) {
      if (err instanceof MrzTimeout) await stopMrzReader();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  });
  queue = job.catch(() => undefined);
  return job;
}

/** The values of a valid MRZ. Dates as YYYY-MM-DD. */
export interface MrzValues {
  documentNumber: string;
  surname: string;
  givenNames: string;
  /** ICAO three-letter code (UTO is the specimen's Utopia). */
  nationality: string;
  issuingState: string;
  dateOfBirth: string | null;
  expiry: string | null;
  lines: [string, string];
}

export type MrzRead =
  | { ok: true; values: MrzValues }
  | { ok: false; reason: 'no_mrz' | 'check_digits'; lines: string[] };

const MRZ_LINE = /^[A-Z0-9<]{30,50}$/;

/** OCR text cleaned into candidate MRZ lines: no spaces, common misreads of the filler fixed. */
function candidateLines(text: string): string[] {
  return text
    .toUpperCase()
    .split(/\r?\n/)
    .map((l) => l.replace(/\s/g, '').replace(/[«‹]/g, '<'))
    .filter((l) => MRZ_LINE.test(l) && l.includes('<'));
}

/** A country code read by OCR: digits it confuses with letters read as those letters. */
const lettersOf = (code: string) =>
  code
    .replace(/</g, '')
    .replace(/0/g, 'O')
    .replace(/1/g, 'I')
    .replace(/5/g, 'S')
    .replace(/8/g, 'B')
    .replace(/2/g, 'Z');

const toLength44 = (line: string) => (line.length >= 44 ? line.slice(0, 44) : line.padEnd(44, '<'));

/** YYMMDD as a date: births in the past century when the year would be in the future, expiries ahead. */
function mrzDate(value: string | null | undefined, kind: 'birth' | 'expiry'): string | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const now = new Date().getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > now ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  return `${century + yy}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
}

const CHECKED = new Set([
  'documentNumberCheckDigit',
  'birthDateCheckDigit',
  'expirationDateCheckDigit',
  'personalNumberCheckDigit',
  'compositeCheckDigit',
]);

/** Characters OCR confuses in this font, each with what it may have been. */
const CONFUSED: Record<string, string[]> = {
  '0': ['O', 'D', 'Q'],
  O: ['0'],
  D: ['0'],
  Q: ['0'],
  '1': ['I'],
  I: ['1'],
  '2': ['Z'],
  Z: ['2', '7'],
  '7': ['Z'],
  '5': ['S'],
  S: ['5'],
  '8': ['B'],
  B: ['8'],
  '6': ['G'],
  G: ['6'],
  '4': ['A'],
  A: ['4'],
};

type Parsed = ReturnType<typeof parse>;

function parsePair(pair: [string, string]): Parsed | null {
  try {
    const result = parse(pair, { autocorrect: true });
    return result.format === 'TD3' ? result : null;
  } catch {
    return null;
  }
}

const failingDigits = (r: Parsed) => r.details.filter((d) => !d.valid && CHECKED.has(d.field ?? ''));

/**
 * The pair as read, or the one repair of a single confused character that makes every check digit
 * hold (only inside the ranges a failing check digit covers). The check digits decide, never a guess.
 */
function repaired(pair: [string, string]): { pair: [string, string]; result: Parsed } | null {
  const first = parsePair(pair);
  if (!first) return null;
  const failing = failingDigits(first);
  if (!failing.length) return { pair, result: first };
  const positions = new Set<string>();
  for (const d of failing)
    for (const r of (d.ranges ?? []).slice(1))
      for (let c = r.start; c < r.end; c++) positions.add(`${r.line}:${c}`);
  for (const pos of positions) {
    const [line, col] = pos.split(':').map(Number) as [number, number];
    for (const alt of CONFUSED[pair[line]![col]!] ?? []) {
      const next: [string, string] = [...pair];
      next[line] = `${pair[line]!.slice(0, col)}${alt}${pair[line]!.slice(col + 1)}`;
      const result = parsePair(next);
      if (result && !failingDigits(result).length) return { pair: next, result };
    }
  }
  return null;
}

/** The 44-character windows of a line OCR read too long (a speck before or after it). */
function windows(line: string): string[] {
  if (line.length <= 44) return [toLength44(line)];
  return Array.from({ length: line.length - 43 }, (_, i) => line.slice(i, i + 44));
}

/**
 * The MRZ in OCR text: the last two consecutive TD3-like lines, parsed with autocorrection of the
 * letters OCR confuses with digits by position; valid when every check digit holds (an unknown country
 * code, as the specimen's UTO, is kept as read).
 */
export function parseMrzText(text: string): MrzRead {
  const lines = candidateLines(text);
  for (let i = lines.length - 2; i >= 0; i--) {
    if (!lines[i]!.startsWith('P')) continue;
    const firsts = windows(lines[i]!).filter((l) => l.startsWith('P'));
    const seconds = windows(lines[i + 1]!);
    let found: { pair: [string, string]; result: Parsed } | null = null;
    for (const a of firsts) {
      for (const b of seconds) {
        found = repaired([a, b]);
        if (found) break;
      }
      if (found) break;
    }
    if (!found) {
      if (parsePair([toLength44(lines[i]!), toLength44(lines[i + 1]!)]))
        return {
          ok: false,
          reason: 'check_digits',
          lines: [toLength44(lines[i]!), toLength44(lines[i + 1]!)],
        };
      continue;
    }
    const { pair, result } = found;
    const f = result.fields;
    return {
      ok: true,
      values: {
        documentNumber: (f.documentNumber ?? '').replace(/</g, ''),
        surname: (f.lastName ?? '').trim(),
        givenNames: (f.firstName ?? '').trim(),
        nationality: f.nationality ?? lettersOf(pair[1].slice(10, 13)),
        issuingState: f.issuingState ?? lettersOf(pair[0].slice(2, 5)),
        dateOfBirth: mrzDate(f.birthDate, 'birth'),
        expiry: mrzDate(f.expirationDate, 'expiry'),
        lines: pair,
      },
    };
  }
  return { ok: false, reason: 'no_mrz', lines };
}

/** Reads the MRZ of the prepared pictures: the bottom band first, the whole picture when that fails. */
export async function readMrz(
  pictures: { band: Uint8Array; whole: Uint8Array },
  timeoutMs: number,
): Promise<MrzRead> {
  if (reads >= MAX_READS) throw new MrzBusy('the OCR queue is full');
  reads++;
  try {
    const first = await recognise(pictures.band, timeoutMs);
    const band = parseMrzText(first.text);
    if (band.ok || band.reason === 'check_digits') return band;
    // The time limit is the OCR's own work: the wait in the queue, before either job, does not count.
    const left = timeoutMs - first.ms;
    if (left < 1000) return band;
    return parseMrzText((await recognise(pictures.whole, left)).text);
  } finally {
    reads--;
  }
}
