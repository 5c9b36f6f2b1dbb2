// The list under the editor of every error and warning in the text (the lint diagnostics):
// each with its line:column, its JSON pointer and the message in full; a click (or Enter) on
// one puts the cursor at its place. Errors and warnings are told apart (class, colour).
import type { Diagnostic } from '@codemirror/lint';
import { forEachDiagnostic } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';

export interface IssuesPanelElements {
  box: HTMLElement;
  title: HTMLElement;
  list: HTMLElement;
}

export interface PanelEntry {
  diagnostic: Diagnostic;
  from: number;
  to: number;
  line: number;
  column: number;
}

/** The diagnostics in the state, in document order, with their line:column now. */
export function panelEntries(state: EditorState): PanelEntry[] {
  const out: PanelEntry[] = [];
  forEachDiagnostic(state, (diagnostic, from, to) => {
    const line = state.doc.lineAt(from);
    out.push({ diagnostic, from, to, line: line.number, column: from - line.from + 1 });
  });
  return out;
}

export function renderIssues(el: IssuesPanelElements, entries: PanelEntry[], go: (from: number) => void, title?: string): void {
  const errors = entries.filter((e) => e.diagnostic.severity === 'error').length;
  el.list.replaceChildren();
  el.box.hidden = entries.length === 0;
  el.box.classList.toggle('warn', entries.length > 0 && errors === 0);
  if (entries.length === 0) return;
  el.title.textContent = `${title ?? (errors > 0 ? 'Definition errors' : 'Warnings')} (${entries.length})`;
  for (const e of entries) {
    const li = document.createElement('li');
    li.className = `issue has-pos ${e.diagnostic.severity}`;
    li.tabIndex = 0;
    li.dataset.line = String(e.line);
    const pos = document.createElement('span');
    pos.className = 'pos';
    pos.textContent = `${e.line}:${e.column}`;
    const path = document.createElement('code');
    path.className = 'path';
    path.textContent = e.diagnostic.source ?? '/';
    const msg = document.createElement('span');
    msg.className = 'msg';
    msg.textContent = e.diagnostic.message;
    li.append(pos, path, msg);
    li.addEventListener('click', () => go(e.from));
    li.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        go(e.from);
      }
    });
    el.list.append(li);
  }
}
