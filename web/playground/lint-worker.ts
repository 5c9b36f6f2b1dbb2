// Checks the editor's text off the main thread, as the user types: the package's check()
// (errors, or warnings for a definition without errors), each with its JSON pointer and its
// line:column (JSON text too: see checkFormat).
import { loadEngine } from 'rulestack';
import type { DefinitionIssue } from 'rulestack';
import { checkFormat } from './editor/check-format.js';

export interface LintRequest {
  id: number;
  text: string;
}

export type LintResponse = { id: number; errors: DefinitionIssue[]; warnings: DefinitionIssue[] } | { id: number; failed: string };

const post = (r: LintResponse) => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', async (e: MessageEvent<LintRequest>) => {
  const { id, text } = e.data;
  try {
    const rs = await loadEngine();
    post({ id, ...rs.check(text, { format: checkFormat(text) }) });
  } catch (err) {
    post({ id, failed: err instanceof Error ? err.message : String(err) });
  }
});
