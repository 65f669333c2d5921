/**
 * The local build hook's queue and notifications, with builds the test finishes itself: a call answers 200
 * and starts a build reported as building then ready (or error with the build's reason), every notification
 * signed so deploy-events' verification accepts it; calls during a build queue one follow-up, never a second
 * build at once; stopping the server stops the running build, which reports its failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBuildHook, type BuildHook } from '../../../netlify/local/build-hook.ts';
import { verifyDeployNotification } from '../../../src/lib/server/deploy-events.ts';

const SECRET = 'local-build-hook-test-secret';
type Notification = { id: string; state: string; error_message: string | null; title: string | null; context: string; url: string; verified: boolean };

let receiver: Server;
let notifications: Notification[];
let notifyUrl: string;
let hook: BuildHook | undefined;

/** Builds the test finishes by hand: each call waits until `finish(i, reason)`. */
function controlledBuilds() {
  const finishers: ((reason: string | null) => void)[] = [];
  const signals: AbortSignal[] = [];
  let running = 0;
  let mostAtOnce = 0;
  return {
    build: (signal: AbortSignal) =>
      new Promise<string | null>((resolve) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        signals.push(signal);
        const done = (reason: string | null) => {
          running -= 1;
          resolve(reason);
        };
        signal.addEventListener('abort', () => done('stopped by the test'));
        finishers.push(done);
      }),
    started: () => finishers.length,
    finish: (i: number, reason: string | null = null) => finishers[i]!(reason),
    mostAtOnce: () => mostAtOnce,
  };
}

const call = (url: string, init: RequestInit = { method: 'POST', body: '{}' }) => fetch(url, init);

beforeEach(async () => {
  notifications = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      void verifyDeployNotification(body, req.headers['x-webhook-signature'] as string, SECRET).then(
        () => true,
        () => false,
      ).then((verified) => {
        notifications.push({ ...(JSON.parse(body) as Notification), verified });
        res.writeHead(verified ? 202 : 401).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/deploy-events`;
});
afterEach(async () => {
  await hook?.close();
  hook = undefined;
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const start = (build: (signal: AbortSignal) => Promise<string | null>) =>
  startBuildHook({ build, notifyUrl, secret: SECRET, siteUrl: 'http://localhost:8888', log: () => {} });
const states = () => notifications.map((n) => `${n.id.slice(0, 8)} ${n.state}${n.error_message ? `: ${n.error_message}` : ''}`);

describe('the local build hook', () => {
  it('answers 200, builds, and reports building then ready, signed, as a production deploy', async () => {
    const builds = controlledBuilds();
    hook = await start(builds.build);
    expect(hook.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/build_hooks\/local-[0-9a-f-]{36}$/);
    const answer = await call(`${hook.url}?trigger_title=${encodeURIComponent('1 change(s): Post published: hello')}`);
    expect(answer.status).toBe(200);
    await expect.poll(() => notifications.length).toBe(1);
    expect(notifications[0]).toMatchObject({ state: 'building', context: 'production', title: '1 change(s): Post published: hello', url: 'http://localhost:8888', verified: true });
    builds.finish(0);
    await hook.idle();
    expect(notifications.map((n) => [n.id, n.state, n.verified])).toEqual([
      [notifications[0]!.id, 'building', true],
      [notifications[0]!.id, 'ready', true],
    ]);
  });

  it("reports a failed build as error with the build's reason", async () => {
    const builds = controlledBuilds();
    hook = await start(builds.build);
    await call(hook.url);
    await expect.poll(() => builds.started()).toBe(1);
    builds.finish(0, 'astro build exited with code 1: SITE_ORG=nope names no organization');
    await hook.idle();
    expect(notifications.map((n) => n.state)).toEqual(['building', 'error']);
    expect(notifications[1]).toMatchObject({ error_message: 'astro build exited with code 1: SITE_ORG=nope names no organization', verified: true });
  });

  it('queues one follow-up build for any number of calls during a build, and never runs two at once', async () => {
    const builds = controlledBuilds();
    hook = await start(builds.build);
    await call(hook.url);
    await expect.poll(() => builds.started()).toBe(1);
    for (let i = 0; i < 3; i += 1) expect((await call(hook.url)).status).toBe(200);
    expect(builds.started()).toBe(1);
    builds.finish(0);
    await expect.poll(() => builds.started()).toBe(2);
    builds.finish(1);
    await hook.idle();
    expect(builds.started()).toBe(2);
    expect(builds.mostAtOnce()).toBe(1);
    const [first, second] = [notifications[0]!.id, notifications[2]!.id];
    expect(first).not.toBe(second);
    expect(states()).toEqual([`${first.slice(0, 8)} building`, `${first.slice(0, 8)} ready`, `${second.slice(0, 8)} building`, `${second.slice(0, 8)} ready`]);
  });

  it('answers 404 to another path and 405 to another method, building nothing', async () => {
    const builds = controlledBuilds();
    hook = await start(builds.build);
    expect((await call(hook.url.replace(/local-[^/]+$/, 'local-guessed'))).status).toBe(404);
    expect((await call(hook.url, { method: 'GET' })).status).toBe(405);
    expect(builds.started()).toBe(0);
    expect(notifications).toEqual([]);
  });

  it('stops the running build when it closes, which reports its failure, and drops the queued one', async () => {
    const builds = controlledBuilds();
    hook = await start(builds.build);
    await call(hook.url);
    await expect.poll(() => builds.started()).toBe(1);
    await call(hook.url);
    const url = hook.url;
    await hook.close();
    hook = undefined;
    expect(builds.started()).toBe(1);
    expect(notifications.map((n) => [n.state, n.error_message])).toEqual([['building', null], ['error', 'stopped by the test']]);
    await expect(call(url)).rejects.toThrow();
  });
});
