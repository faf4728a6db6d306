import { afterAll, describe, expect, it } from 'vitest';
import { passportPicturesInWorker } from '../pdf/build.js';
import { DEFAULT_PDF_WORKER_LIMITS } from '../pdf/worker-pool.js';
import { passportImage, SPECIMEN } from '../test/passport-image.js';
import { compareScan } from './compare.js';
import { readMrz, stopMrzReader } from './mrz.js';

/**
 * The passport scan reader on images the test draws (nothing downloaded): the ICAO 9303 specimen's
 * data page with its MRZ, clean, with noise and turned by 2°; a wrong check digit; a page that is not a
 * passport. Decoding runs on the PDF workers, OCR on the tesseract worker with the English data from disk.
 */

async function scan(png: Buffer) {
  const pictures = await passportPicturesInWorker(DEFAULT_PDF_WORKER_LIMITS, png, 'image/png', 15_000);
  expect(pictures).not.toBeNull();
  return readMrz(pictures!, 20_000);
}

afterAll(() => stopMrzReader());

describe('reading the machine-readable zone', () => {
  it('the ICAO specimen, clean: every value read, check digits hold', async () => {
    const started = Date.now();
    const read = await scan(passportImage(SPECIMEN));
    expect(read).toMatchObject({
      ok: true,
      values: {
        documentNumber: 'L898902C3',
        surname: 'ERIKSSON',
        givenNames: 'ANNA MARIA',
        nationality: 'UTO',
        issuingState: 'UTO',
        dateOfBirth: '1974-08-12',
        expiry: '2012-04-15',
      },
    });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('with noise and turned by 2°: still read', async () => {
    const read = await scan(passportImage(SPECIMEN, { noise: true, rotate: 2 }));
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.values.documentNumber).toBe('L898902C3');
  });

  it('a wrong check digit is unreadable, never a value', async () => {
    const wrong = [SPECIMEN[0]!, SPECIMEN[1]!.replace('L898902C36', 'L898902C37')];
    const read = await scan(passportImage(wrong));
    expect(read).toMatchObject({ ok: false, reason: 'check_digits' });
  });

  it('a page that is not a passport has no MRZ', async () => {
    const read = await scan(passportImage(null));
    expect(read).toMatchObject({ ok: false, reason: 'no_mrz' });
  });

  it('compared with an order: the passport number differs, the rest matches', () => {
    const fields = compareScan(
      {
        documentNumber: 'L898902C3',
        surname: 'ERIKSSON',
        givenNames: 'ANNA MARIA',
        nationality: 'SWE',
        issuingState: 'SWE',
        dateOfBirth: '1974-08-12',
        expiry: '2031-04-15',
        lines: [SPECIMEN[0]!, SPECIMEN[1]!],
      },
      {
        passportNumber: 'L898902C4',
        lastName: 'Eriksson',
        firstName: 'Anna-María',
        nationality: 'Sweden',
        dateOfBirth: '1974-08-12',
        passportExpiration: '2031-04-15',
      },
    );
    expect(fields.filter((f) => f.differs).map((f) => f.field)).toEqual(['passport_number']);
    expect(fields.find((f) => f.field === 'nationality')!.scan).toBe('Sweden');
  });
});
