// From the package's issues (JSON pointer, message, line:column) to CodeMirror diagnostics:
// the span underlined starts at the issue's character and covers the token there — a key,
// a quoted string, or inside an expression the reference or member the engine names. The
// package places an entry's issue at its key; one about the key's value (an unknown
// operation, a number out of range) is underlined on the value instead.
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

/**
 * Issues about a key itself, which stay on it: an unknown key and a property named as a
 * built-in are the key's name; a missing key's path is its object's (placed at the key
 * that holds the object, or the list item).
 */
const ABOUT_THE_KEY = /^(?:unknown key |missing required key |property '.*' hides the built-in member )/;

/** How many flow collections (`{`, `[`) are open before `i` on the line (quoted strings skipped). */
function flowDepth(line: string, i: number): number {
  let depth = 0;
  for (let k = 0; k < i; k++) {
    const c = line[k];
    if (c === '"' || c === "'") k = tokenEnd(line, k) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
  }
  return depth;
}

/** The end of the value that starts at `j`: a quoted string, a flow collection (to its bracket on this line), or a plain scalar (to a comment or the line's end; in a flow collection, to its next `,`, `]` or `}`). */
function valueEnd(line: string, j: number, inFlow: boolean): number {
  const c = line[j];
  if (c === '"' || c === "'") return tokenEnd(line, j);
  let end = line.length;
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let k = j; k < line.length; k++) {
      const d = line[k];
      if (d === '"' || d === "'") k = tokenEnd(line, k) - 1;
      else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return k + 1;
    }
  } else {
    const stop = (inFlow ? /[,\]}]|[ \t]#/ : /[ \t]#/).exec(line.slice(j));
    if (stop) end = j + stop.index;
  }
  while (end > j + 1 && /\s/.test(line[end - 1]!)) end--;
  return end;
}

/**
 * The value's span when the issue is about the value of the key at `i` (the last key of its
 * path, written there as `key:` or `"key":`, its value on the same line, not a block scalar
 * whose text starts on the next); else null.
 */
function valueSpan(line: string, i: number, issue: DefinitionIssue): { from: number; to: number } | null {
  const slash = issue.path.lastIndexOf('/');
  if (slash < 0 || ABOUT_THE_KEY.test(issue.message)) return null;
  const key = issue.path.slice(slash + 1).replace(/~1/g, '/').replace(/~0/g, '~');
  for (const written of [key, `"${key}"`, `'${key}'`]) {
    if (!line.startsWith(written, i)) continue;
    const colon = /^[ \t]*:[ \t]*(?=[^\s#|>])/.exec(line.slice(i + written.length));
    if (!colon) continue;
    const j = i + written.length + colon[0].length;
    return { from: j, to: valueEnd(line, j, flowDepth(line, i) > 0) };
  }
  return null;
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
  const value = valueSpan(line.text, i, issue);
  if (value) return { from: line.from + value.from, to: line.from + value.to };
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
