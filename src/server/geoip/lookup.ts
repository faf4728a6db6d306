import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import maxmind, { type Reader, type Response } from 'maxmind';

countries.registerLocale(en);

/**
 * Country-level geo-IP from a CC0 database shipped as an npm package (docs/decisions/051): no download at
 * run time, ~8 MB in memory, opened once on first use.
 */
const DATABASE_FILE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

interface CountryRecord {
  country_code?: string;
}

export const UNKNOWN_LOCATION = 'Unknown';

let reader: Promise<Reader<Response>> | null = null;

function open(): Promise<Reader<Response>> {
  if (!reader) {
    const file = createRequire(import.meta.url).resolve(DATABASE_FILE);
    reader = maxmind.open(file).catch((err: unknown) => {
      reader = null;
      throw err;
    });
  }
  return reader;
}

/** Addresses that never belong to a place: loopback, private, link-local, documentation ranges. */
function isNonPublic(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) === 4) {
    const [a, b, c] = v4.split('.').map(Number) as [number, number, number];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 192 && b === 0 && c === 2) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) ||
      a >= 224
    );
  }
  const lower = ip.toLowerCase();
  return lower === '::1' || lower === '::' || /^f[cd]|^fe[89ab]|^2001:db8:/.test(lower);
}

/** The country of an IP address as an English name, or 'Unknown' (private, invalid or unlisted). */
export async function locateIp(ip: string | null | undefined): Promise<string> {
  if (!ip || isIP(ip) === 0 || isNonPublic(ip)) return UNKNOWN_LOCATION;
  try {
    // This database's records are { country_code }, not MaxMind's own shape.
    const record = (await open()).get(ip) as CountryRecord | null;
    const code = record?.country_code;
    if (!code) return UNKNOWN_LOCATION;
    return countries.getName(code, 'en') ?? code;
  } catch {
    return UNKNOWN_LOCATION;
  }
}
