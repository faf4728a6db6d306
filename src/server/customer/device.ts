import { UAParser } from 'ua-parser-js';

export interface DeviceInfo {
  device: string;
  deviceType: string;
  browser: string;
  os: string;
}

const UNKNOWN = 'Unknown';

/**
 * The Downloaded History columns from a user agent (spec §2): device (vendor and model), device type,
 * browser as name-version (spec §3 "dash-separated parts") and OS as name and version. ua-parser-js
 * reports no type for desktops, so a known desktop OS without a type is a desktop.
 */
export function parseUserAgent(userAgent: string | null | undefined): DeviceInfo {
  if (!userAgent) return { device: UNKNOWN, deviceType: UNKNOWN, browser: UNKNOWN, os: UNKNOWN };
  const ua = UAParser(userAgent.slice(0, 1024));
  const os = [ua.os.name, ua.os.version].filter(Boolean).join(' ') || UNKNOWN;
  const browser = [ua.browser.name, ua.browser.version].filter(Boolean).join('-') || UNKNOWN;
  const desktop = !ua.device.type && /Windows|Mac OS|Linux|Ubuntu|Chrom(e|ium) OS|Fedora|Debian/.test(os);
  const deviceType = ua.device.type ?? (desktop ? 'desktop' : UNKNOWN);
  const model = [ua.device.vendor, ua.device.model].filter(Boolean).join(' ');
  const device = model || (desktop ? 'Desktop computer' : UNKNOWN);
  return { device, deviceType, browser, os };
}
