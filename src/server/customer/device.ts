import Bowser from 'bowser';

export interface DeviceInfo {
  device: string;
  deviceType: string;
  browser: string;
  os: string;
}

const UNKNOWN = 'Unknown';

/**
 * The Downloaded History columns from a user agent: device (vendor and model), device type, browser as
 * name-version (dash-separated parts) and OS as name and version. Parsed with bowser (MIT); Windows is
 * named by its marketing version ("Windows 10"), not the NT kernel number.
 */
export function parseUserAgent(userAgent: string | null | undefined): DeviceInfo {
  if (!userAgent) return { device: UNKNOWN, deviceType: UNKNOWN, browser: UNKNOWN, os: UNKNOWN };
  const ua = Bowser.parse(userAgent.slice(0, 1024));
  const osVersion = ua.os.name === 'Windows' ? ua.os.versionName : ua.os.version;
  const os = [ua.os.name, osVersion].filter(Boolean).join(' ') || UNKNOWN;
  const browser = [ua.browser.name, ua.browser.version].filter(Boolean).join('-') || UNKNOWN;
  const deviceType = ua.platform.type || UNKNOWN;
  const model = ua.platform.model ? [ua.platform.vendor, ua.platform.model].filter(Boolean).join(' ') : '';
  const device = model || (deviceType === 'desktop' ? 'Desktop computer' : UNKNOWN);
  return { device, deviceType, browser, os };
}
