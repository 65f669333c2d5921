import type { Config } from '@netlify/functions';

/** Liveness probe for deploy checks and the test suites: answers without touching the database. */
export default async (_req: Request) => Response.json({ status: 'ok' });

export const config: Config = { path: '/api/health', method: 'GET' };
