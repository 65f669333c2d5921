/**
 * "Chrome 120 on macOS" from a User-Agent header, for the Sessions list. Hand-written on purpose: the list
 * only needs the browser family, its major version and the operating system of the browsers people use,
 * and a parser library would add a dependency (and its update cycle) for a label. Order matters: Edge,
 * Opera and Samsung Internet also say "Chrome", Chrome also says "Safari", iPads may claim to be a Mac.
 */

/** What a User-Agent tells the Sessions list. */
export interface UserAgentInfo {
  /** Browser family, e.g. 'Chrome'; 'Unknown browser' when not recognised. */
  browser: string;
  /** Major version, when the header carries one. */
  version: string | null;
  /** Operating system, e.g. 'macOS'; 'Unknown OS' when not recognised. */
  os: string;
  /** Phones and tablets are 'mobile'. */
  mobile: boolean;
}

/** [family, pattern whose first group is the version], first match wins. */
const BROWSERS: Array<[string, RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
];

/** [name, pattern], first match wins (iOS before macOS: iPhones say "like Mac OS X"). */
const SYSTEMS: Array<[string, RegExp]> = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/** Browser, version and OS of a User-Agent header (null or empty gives the unknown values). */
export function parseUserAgent(header: string | null | undefined): UserAgentInfo {
  const ua = header?.trim() ?? '';
  const browser = BROWSERS.find(([, pattern]) => pattern.test(ua));
  const os = SYSTEMS.find(([, pattern]) => pattern.test(ua));
  return {
    browser: browser?.[0] ?? 'Unknown browser',
    version: browser ? (browser[1].exec(ua)?.[1] ?? null) : null,
    os: os?.[0] ?? 'Unknown OS',
    mobile: /\bMobi(?:le)?\b|\biPhone\b|\biPad\b|\bAndroid\b/.test(ua),
  };
}

/** "Chrome 120 on macOS", "Firefox on Linux", or "Unknown device" when nothing was recognised. */
export function describeUserAgent(header: string | null | undefined): string {
  const info = parseUserAgent(header);
  const browser = info.browser === 'Unknown browser' ? null : `${info.browser}${info.version ? ` ${info.version}` : ''}`;
  const os = info.os === 'Unknown OS' ? null : info.os;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? (os ? `A browser on ${os}` : 'Unknown device');
}
