import { describe, expect, it } from 'vitest';
import { netlifyCliReads, ORIGINAL_CONTENT_TYPE, passableHeaders, restoreContentType } from '../../../netlify/local/unparsable-content-type.ts';

describe('a Content-Type netlify-cli cannot parse', () => {
  it("is told apart by netlify-cli's own type-is: a subtype starting with a dot, or none, is not read", () => {
    expect(['image/png', 'application/json; charset=utf-8', 'application/x-custom', 'text/plain'].map(netlifyCliReads)).toEqual([true, true, true, true]);
    expect(['image/.png', 'json', 'text', '/png'].map(netlifyCliReads)).toEqual([false, false, false, false]);
  });

  it('passes as octet-stream with the original aside; a readable one, or no body, passes as it is; a forged marker is dropped', () => {
    expect(passableHeaders({ 'content-type': 'image/.png', host: 'x' }, true)).toEqual({ 'content-type': 'application/octet-stream', [ORIGINAL_CONTENT_TYPE]: 'image/.png', host: 'x' });
    expect(passableHeaders({ 'content-type': 'image/png', [ORIGINAL_CONTENT_TYPE]: 'text/html' }, true)).toEqual({ 'content-type': 'image/png' });
    expect(passableHeaders({ 'content-type': 'json' }, false)).toEqual({ 'content-type': 'json' });
  });

  it("gets its own type back in the function's event, in both header maps", () => {
    const event = {
      headers: { 'content-type': 'application/octet-stream', [ORIGINAL_CONTENT_TYPE]: 'image/.png' },
      multiValueHeaders: { 'content-type': ['application/octet-stream'], [ORIGINAL_CONTENT_TYPE]: ['image/.png'] },
    };
    restoreContentType(event);
    expect(event).toEqual({ headers: { 'content-type': 'image/.png' }, multiValueHeaders: { 'content-type': ['image/.png'] } });
    const untouched = { headers: { 'content-type': 'image/png' } };
    restoreContentType(untouched);
    expect(untouched).toEqual({ headers: { 'content-type': 'image/png' } });
  });
});
