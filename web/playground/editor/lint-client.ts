// The page's side of lint-worker.ts: check(text) resolves to the package's answer for that
// text. Only the newest request is answered; an older one resolves to null (stale).
import type { DefinitionIssue } from 'rulestack';
import type { LintRequest, LintResponse } from '../lint-worker.js';

export interface CheckResult {
  errors: DefinitionIssue[];
  warnings: DefinitionIssue[];
}

export class LintClient {
  #worker: Worker | null = null;
  #failed = false;
  #next = 1;
  #waiting = new Map<number, (r: CheckResult | null) => void>();

  #start(): Worker | null {
    if (this.#failed || typeof Worker !== 'function') return null;
    if (this.#worker) return this.#worker;
    try {
      this.#worker = new Worker(new URL('../lint-worker.ts', import.meta.url), { type: 'module' });
    } catch {
      this.#failed = true;
      return null;
    }
    this.#worker.addEventListener('message', (e: MessageEvent<LintResponse>) => {
      const done = this.#waiting.get(e.data.id);
      if (!done) return;
      this.#waiting.delete(e.data.id);
      if ('failed' in e.data) {
        console.warn('rulestack playground: live checking failed:', e.data.failed);
        done(null);
      } else done({ errors: e.data.errors, warnings: e.data.warnings });
    });
    this.#worker.addEventListener('error', (e) => {
      // no live checking then; Load still reports every error
      console.warn('rulestack playground: the lint worker failed; errors show on Load only', e.message);
      this.#failed = true;
      this.#worker?.terminate();
      this.#worker = null;
      for (const done of this.#waiting.values()) done(null);
      this.#waiting.clear();
    });
    return this.#worker;
  }

  /** The issues of this text, or null when it was superseded or cannot be checked. */
  check(text: string): Promise<CheckResult | null> {
    const w = this.#start();
    if (!w) return Promise.resolve(null);
    for (const done of this.#waiting.values()) done(null); // superseded
    this.#waiting.clear();
    const id = this.#next++;
    const req: LintRequest = { id, text };
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      w.postMessage(req);
    });
  }
}
