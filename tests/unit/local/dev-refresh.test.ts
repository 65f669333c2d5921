import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEV_REFRESH_FILE, refreshAstroDev } from '../../../netlify/local/dev-refresh.ts';

describe('refreshAstroDev', () => {
  it('marks the module of the database reads as changed (its time, not its content), so astro dev reads afresh', async () => {
    const before = statSync(DEV_REFRESH_FILE).mtimeMs;
    const content = readFileSync(DEV_REFRESH_FILE, 'utf8');
    const lines: string[] = [];
    expect(await refreshAstroDev((line) => lines.push(line))).toBeNull();
    expect(statSync(DEV_REFRESH_FILE).mtimeMs).toBeGreaterThan(before);
    expect(readFileSync(DEV_REFRESH_FILE, 'utf8')).toBe(content);
    expect(DEV_REFRESH_FILE).toMatch(/src\/lib\/site\/build-snapshot\.ts$/);
    expect(lines).toEqual([expect.stringContaining('npm run dev renders pages on request')]);
  });
});
