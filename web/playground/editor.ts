// The definition editor: CodeMirror 6 with YAML or JSON highlighting (chosen from the text),
// line numbers, undo, search, completion (editor/completion.ts), and the package's check()
// run in a worker as you type (lint-worker.ts): every error and warning underlined at its
// place, its message on hover, and listed under the editor (editor/issues-panel.ts).
// Tab indents; Escape then Tab leaves the editor (CodeMirror's tab-focus mode).
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, linter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import type { DefinitionIssue } from 'rulestack';
import { pageHighlightStyle } from './editor-colours.js';
import { completionData, definitionCompletion } from './editor/completion.js';
import { toDiagnostics } from './editor/diagnostics.js';
import { panelEntries, renderIssues, type IssuesPanelElements } from './editor/issues-panel.js';
import { LintClient, type CheckResult } from './editor/lint-client.js';

/** JSON text starts with `{` or `[`; anything else is YAML (as the package reads it). */
export const looksJson = (text: string) => /^\s*[{[]/.test(text);

export interface EditorOptions {
  /** Ctrl+Enter (Cmd+Enter) in the editor. */
  onRun?: () => void;
  /** After every change of the text by the user (typing, completion, undo, indenting). */
  onChange?: () => void;
}

/** The editor an element holds (`#editor-box`), for scripts and tests that read or set its text. */
export type EditorHost = HTMLElement & { rulestackEditor?: Editor };

export class Editor {
  readonly view: EditorView;
  readonly #cursor: HTMLElement | null;
  readonly #issues: IssuesPanelElements;
  readonly #language = new Compartment();
  readonly #lint = new LintClient();
  readonly #onRun: (() => void) | undefined;
  #json = false;
  #title: string | undefined;

  constructor(parent: HTMLElement, cursor: HTMLElement | null, issues: IssuesPanelElements, opts: EditorOptions = {}) {
    this.#cursor = cursor;
    this.#issues = issues;
    this.#onRun = opts.onRun;
    this.view = new EditorView({
      parent,
      state: this.#state(''),
      dispatchTransactions: (trs, view) => {
        view.update(trs);
        if (trs.some((t) => t.docChanged)) {
          this.#title = undefined;
          opts.onChange?.();
        }
        this.#pickLanguage();
        this.#showCursor();
        this.#renderIssues();
      },
    });
    this.view.contentDOM.setAttribute('aria-label', 'Game definition (YAML or JSON). Escape then Tab leaves the editor');
    // completion's data (schema, references) is a chunk of its own: fetched once the editor is used
    this.view.contentDOM.addEventListener('focus', () => void completionData().catch(() => {}), { once: true });
    this.#showCursor();
    (parent as EditorHost).rulestackEditor = this;
  }

  #state(doc: string): EditorState {
    this.#json = looksJson(doc);
    const extensions: Extension[] = [
      keymap.of([{ key: 'Mod-Enter', run: () => (this.#onRun?.(), true) }]),
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      search({ top: true }),
      syntaxHighlighting(pageHighlightStyle, { fallback: true }), // the default style's colours, dark in the dark theme
      indentUnit.of('  '),
      EditorState.tabSize.of(2),
      this.#language.of(this.#json ? json() : yaml()),
      autocompletion({ override: [definitionCompletion(() => this.#json)] }),
      linter((view) => this.#check(view), { delay: 300 }),
      lintGutter(),
      keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
      editorTheme,
    ];
    return EditorState.create({ doc, extensions });
  }

  async #check(view: EditorView): Promise<Diagnostic[]> {
    const doc = view.state.doc;
    const r = await this.#lint.check(doc.toString());
    // stale (the text changed meanwhile) or no checker: keep what is shown
    if (r === null || view.state.doc !== doc) return diagnosticsNow(view);
    return [...toDiagnostics(doc, r.errors, 'error'), ...toDiagnostics(doc, r.warnings, 'warning')];
  }

  get value(): string {
    return this.view.state.doc.toString();
  }

  /** New text (an example, a revert): a fresh state, so undo does not reach the previous text. */
  set value(text: string) {
    this.view.setState(this.#state(text));
    this.#title = undefined;
    this.#showCursor();
    this.#renderIssues();
  }

  /** The issues the page found (on Load) for the text as it is now, shown until the next check. */
  report(result: CheckResult, title?: string): void {
    const doc = this.view.state.doc;
    this.#title = title;
    this.view.dispatch(setDiagnostics(this.view.state, [...toDiagnostics(doc, result.errors, 'error'), ...toDiagnostics(doc, result.warnings, 'warning')]));
    this.#renderIssues();
  }

  /** Puts the cursor at a document offset, scrolls it into view (centred both ways: a place far along a long line shows what follows it) and focuses the editor. */
  goToOffset(from: number): void {
    this.view.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: 'center', x: 'center' }) });
    this.view.focus();
  }

  /** Moves the cursor to line:column (1-based). */
  goTo(line: number, column = 1): void {
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(1, line), doc.lines));
    this.goToOffset(l.from + Math.min(Math.max(0, column - 1), l.length));
  }

  /** The 1-based line and column of the cursor. */
  cursor(): { line: number; column: number } {
    const head = this.view.state.selection.main.head;
    const line = this.view.state.doc.lineAt(head);
    return { line: line.number, column: head - line.from + 1 };
  }

  #pickLanguage(): void {
    const want = looksJson(this.view.state.sliceDoc(0, 200));
    if (want === this.#json) return;
    this.#json = want;
    this.view.dispatch({ effects: this.#language.reconfigure(want ? json() : yaml()) });
  }

  #showCursor(): void {
    if (!this.#cursor) return;
    const { line, column } = this.cursor();
    this.#cursor.textContent = `${line}:${column}`;
  }

  #renderIssues(): void {
    renderIssues(this.#issues, panelEntries(this.view.state), (from) => this.goToOffset(from), this.#title);
  }
}

function diagnosticsNow(view: EditorView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of panelEntries(view.state)) out.push({ ...e.diagnostic, from: e.from, to: e.to });
  return out;
}

const editorTheme = EditorView.theme({
  '&': { flex: '1', minWidth: '0', height: '100%', fontSize: '12.5px', backgroundColor: 'transparent' },
  '&.cm-focused': { outline: 'none' }, // the box around the editor shows the focus (.editor:focus-within)
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '18px', overflow: 'auto' },
  // the page's theme (style.css), light or dark
  '.cm-gutters': { backgroundColor: 'var(--gutter-bg)', borderRight: '1px solid var(--line)', color: 'var(--faint)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '.cm-content': { caretColor: 'var(--ink)' },
  '.cm-lintRange-warning': { backgroundImage: 'none', textDecoration: 'underline wavy #c99a2e', textUnderlineOffset: '3px' },
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy #c0392b', textUnderlineOffset: '3px' },
  '.cm-tooltip-lint': { maxWidth: '60ch', whiteSpace: 'pre-wrap' },
});
