// Checks the editor's text off the main thread, as the user types: the package's check()
// (errors, or warnings for a definition without errors), each with its JSON pointer and its
// line:column. JSON text is checked as YAML (JSON is YAML), which gives its issues places too.
import { loadEngine } from 'rulestack';
import type { DefinitionIssue } from 'rulestack';

export interface LintRequest {
  id: number;
  text: string;
}

export type LintResponse = { id: number; errors: DefinitionIssue[]; warnings: DefinitionIssue[] } | { id: number; failed: string };

const post = (r: LintResponse) => (self as unknown as Worker).postMessage(r);

/** Valid JSON text: read it as YAML for the positions; broken JSON: as JSON, for a JSON syntax error. */
function formatOf(text: string): 'json' | 'yaml' | 'auto' {
  if (!/^\s*[{[]/.test(text)) return 'auto';
  try {
    JSON.parse(text);
    return 'yaml';
  } catch {
    return 'json';
  }
}

self.addEventListener('message', async (e: MessageEvent<LintRequest>) => {
  const { id, text } = e.data;
  try {
    const rs = await loadEngine();
    post({ id, ...rs.check(text, { format: formatOf(text) }) });
  } catch (err) {
    post({ id, failed: err instanceof Error ? err.message : String(err) });
  }
});
