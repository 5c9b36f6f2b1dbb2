// axe-core in the page (the accessibility scans of layout, steps and screens specs): the
// serious and critical violations in a part of the page (a selector) or all of it.
import type { Page } from '@playwright/test';
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Each serious or critical violation as "rule: the first nodes it names"; [] when there is none. */
export async function seriousViolations(page: Page, context = 'html'): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (ctx) => {
    type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(ctx, { resultTypes: ['violations'] });
    // CodeMirror's scroller holds the editable text (contenteditable, focusable), which this rule does not count
    const editorScroller = (v: Violation) => v.id === 'scrollable-region-focusable' && v.nodes.every((n) => n.target.join(' ').endsWith('.cm-scroller'));
    return r.violations
      .filter((v) => (v.impact === 'serious' || v.impact === 'critical') && !editorScroller(v))
      .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }, context);
}
