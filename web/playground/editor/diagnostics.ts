// From the package's issues (JSON pointer, message, line:column) to CodeMirror diagnostics:
// the span underlined starts at the issue's character and covers the token there — a key,
// a quoted string, or inside an expression the reference or member the engine names.
import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { DefinitionIssue } from 'rulestack';

export type Severity = 'error' | 'warning';

/** The end of the token that starts at `i` in a line. */
function tokenEnd(line: string, i: number): number {
  const c = line[i];
  if (c === undefined) return i;
  if (c === '"' || c === "'") {
    for (let j = i + 1; j < line.length; j++) {
      if (c === '"' && line[j] === '\\') j++;
      else if (line[j] === c) return j + 1;
    }
    return line.length;
  }
  const word = /^[$@]?[\w-]*[\w]/.exec(line.slice(i));
  if (word) return i + word[0].length;
  return i + 1;
}

/** Where in the document an issue is: [from, to). Without a place, the first line. */
export function issueRange(doc: Text, issue: DefinitionIssue): { from: number; to: number } {
  if (issue.line === undefined) {
    const first = doc.line(1);
    return { from: first.from, to: first.to };
  }
  const line = doc.line(Math.min(Math.max(1, issue.line), doc.lines));
  let i = Math.min(Math.max(0, (issue.column ?? 1) - 1), line.length);
  if (i === line.length && i > 0) i--; // an error at the end of a line: its last character
  return { from: line.from + i, to: line.from + Math.min(line.length, tokenEnd(line.text, i)) };
}

export function toDiagnostics(doc: Text, issues: DefinitionIssue[], severity: Severity): Diagnostic[] {
  return issues.map((issue) => ({
    ...issueRange(doc, issue),
    severity,
    message: issue.message,
    source: issue.path === '' ? '/' : issue.path,
  }));
}
