/**
 * Debian's Chromium for the benchmark's browser measurements (CHROME_PATH overrides, as in the e2e config),
 * and what a response costs on the wire.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from '@playwright/test';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium from doing background work of its own while it is measured. */
export const QUIET_FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, args: [...QUIET_FLAGS, '--disable-quic'] });
}

/** Raw bytes of a response body and its gzip size: as transferred when the server compressed it, else zlib level 9. */
export async function responseBytes(response: Response): Promise<{ raw: number; gzip: number }> {
  const body = await response.body().catch(() => Buffer.alloc(0));
  const encoded = (await response.headerValue('content-encoding'))?.trim();
  if (encoded && encoded !== 'identity') {
    return { raw: body.length, gzip: (await response.request().sizes()).responseBodySize };
  }
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

/** What kind of bytes a response carries, from its content type. */
export function responseKind(response: Response): 'js' | 'css' | 'html' | 'other' {
  const type = response.headers()['content-type'] ?? '';
  if (/javascript|ecmascript/.test(type)) return 'js';
  if (type.includes('text/css')) return 'css';
  if (type.includes('text/html')) return 'html';
  return 'other';
}
