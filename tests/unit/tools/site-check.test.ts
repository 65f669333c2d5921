/**
 * site:check probes every HTTP function of netlify/functions: a new function without a probe, or a probe of a
 * function that moved, fails here instead of going unchecked on deployed sites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_PROBES } from '../../../tools/site-check.ts';

const FUNCTIONS = join(import.meta.dirname, '../../../netlify/functions');
const httpFunctions = readdirSync(FUNCTIONS)
  .filter((file) => file.endsWith('.mts'))
  .map((file) => ({ fn: file.replace(/\.mts$/, ''), source: readFileSync(join(FUNCTIONS, file), 'utf8') }))
  .filter(({ source }) => !/export const config[^;]*\bschedule:/.test(source));

describe('site:check function probes', () => {
  it('probe every HTTP function once', () => {
    expect(FUNCTION_PROBES.map(({ fn }) => fn).sort()).toEqual(httpFunctions.map(({ fn }) => fn).sort());
  });

  it.each(FUNCTION_PROBES.map((probe) => [probe.fn, probe] as const))('%s: the probe calls an address and method the function declares', (_fn, probe) => {
    const source = httpFunctions.find(({ fn }) => fn === probe.fn)!.source;
    const config = source.match(/export const config: Config = (\{.*\});/)![1]!;
    const paths = [...config.matchAll(/'(\/[^']*)'/g)].map((match) => new RegExp(`^${match[1]!.replace(/:[a-z]+/g, '[^/]+').replace(/\*/g, '.*')}$`));
    expect(paths.some((path) => path.test(probe.path))).toBe(true);
    const methods = [...config.matchAll(/'(GET|POST)'/g)].map((match) => match[1]);
    if (methods.length > 0) expect(methods).toContain(probe.method);
  });
});
