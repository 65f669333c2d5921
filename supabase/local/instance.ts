/**
 * A local backend instance as its data dir records it: its settings (`local-backend.json`), the pid of its
 * server (`local-backend.pid`), its log, cluster and stored files; and whether it runs. The CLI (cli.ts)
 * manages instances with these; the integration suite asks whether its workers' instances run without
 * starting a CLI process per test file (each costs half a second of a core).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import type { LocalBackendOptions } from './server.ts';

/** An instance's settings, stored as `<dataDir>/local-backend.json`: the server's options a start remembers. */
export type Instance = Pick<LocalBackendOptions, 'dataDir' | 'apiPort' | 'dbPort' | 'migrationsDir' | 'seedFile' | 'configFile'>;

/** The files of an instance's data dir. */
export const files = (dataDir: string) => ({
  settings: join(dataDir, 'local-backend.json'),
  pid: join(dataDir, 'local-backend.pid'),
  log: join(dataDir, 'local-backend.log'),
  cluster: join(dataDir, 'postgres'),
  storage: join(dataDir, 'storage'),
});

/** What the data dir remembers of its instance (nothing for a new one). */
export function storedSettings(dataDir: string): Partial<Instance> {
  try {
    return JSON.parse(readFileSync(files(dataDir).settings, 'utf8'));
  } catch {
    return {};
  }
}

export const apiUrl = (instance: Instance) => `http://127.0.0.1:${instance.apiPort}`;

export function readPid(instance: Instance): number | undefined {
  try {
    const pid = Number(readFileSync(files(instance.dataDir).pid, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function healthy(instance: Instance): Promise<boolean> {
  try {
    const response = await fetch(`${apiUrl(instance)}/auth/v1/health`, {
      headers: { apikey: LOCAL_SUPABASE.anonKey },
      signal: AbortSignal.timeout(2_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Its server's process is alive and its API answers. */
export async function running(instance: Instance): Promise<boolean> {
  const pid = readPid(instance);
  return pid !== undefined && alive(pid) && (await healthy(instance));
}

/** Whether the instance of this data dir (on the ports it recorded) runs. */
export async function runningAt(dataDir: string): Promise<boolean> {
  const { apiPort, dbPort = 0 } = storedSettings(dataDir);
  return apiPort !== undefined && running({ dataDir, apiPort, dbPort });
}
