/**
 * Content-Security-Policy violations in the site's pages, recorded while a test runs (tests/e2e/fixtures.ts
 * fails the test when there were any). Two sources: the `securitypolicyviolation` events of every document
 * of the site (an init script reports them with the violated directive and the blocked URI), and the
 * browser's console messages about the policy, which also cover contexts a test opens itself and problems
 * with the policy text.
 */
import type { BrowserContext } from '@playwright/test';

/** What the init script reports of one violation event. */
interface ViolationEvent {
  directive: string;
  blockedUri: string;
  documentUri: string;
  sourceFile: string;
  line: number;
  sample: string;
}

const BINDING = '__recordCspViolation';

export class CspViolations {
  readonly #origin: string;
  readonly #events: string[] = [];
  readonly #console: string[] = [];

  constructor(siteUrl: string) {
    this.#origin = new URL(siteUrl).origin;
  }

  /** What was recorded, one line each, naming the directive and the blocked URI. */
  get found(): readonly string[] {
    return [...this.#events, ...this.#console];
  }

  /** Records violation events and console messages in the context's pages; call before opening any. */
  async watch(context: BrowserContext): Promise<void> {
    await context.exposeBinding(BINDING, ({ frame }, event: ViolationEvent) => {
      if (new URL(frame.url()).origin !== this.#origin) return;
      const where = event.sourceFile ? ` (${event.sourceFile}:${event.line})` : '';
      const sample = event.sample ? ` sample "${event.sample}"` : '';
      this.#events.push(`${event.directive} blocked '${event.blockedUri}' on ${event.documentUri}${where}${sample}`);
    });
    await context.addInitScript((binding) => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const record = (window as unknown as Record<string, (event: ViolationEvent) => void>)[binding];
        record?.({
          directive: event.effectiveDirective,
          blockedUri: event.blockedURI,
          documentUri: event.documentURI,
          sourceFile: event.sourceFile,
          line: event.lineNumber,
          sample: event.sample,
        });
      });
    }, BINDING);
    this.listen(context);
  }

  /** Records the console's policy messages only: for contexts a test creates, already open when seen. */
  listen(context: BrowserContext): void {
    context.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) this.#console.push(`console (${message.location().url}): ${message.text()}`);
    });
  }
}
