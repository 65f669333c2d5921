import { describe, expect, it } from 'vitest';
import health, { config } from '../../netlify/functions/health.mts';

describe('health function', () => {
  it('answers GET /api/health with status ok as JSON', async () => {
    expect(config.path).toBe('/api/health');
    const response = await health(new Request('http://localhost/api/health'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
