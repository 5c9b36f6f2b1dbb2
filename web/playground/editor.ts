// The definition editor: a plain <textarea> with a line-number gutter that marks the lines
// that have errors, and a way to move the cursor to a line:column.

export class Editor {
  readonly textarea: HTMLTextAreaElement;
  readonly #gutter: HTMLElement;
  readonly #cursor: HTMLElement | null;
  #lines = 0;
  #errorLines = new Set<number>();

  constructor(textarea: HTMLTextAreaElement, gutter: HTMLElement, cursor: HTMLElement | null) {
    this.textarea = textarea;
    this.#gutter = gutter;
    this.#cursor = cursor;
    textarea.addEventListener('input', () => this.#renderGutter());
    textarea.addEventListener('scroll', () => this.#syncScroll());
    for (const ev of ['keyup', 'click', 'select', 'focus']) {
      textarea.addEventListener(ev, () => this.#showCursor());
    }
    // Tab inserts two spaces (YAML has no tabs) instead of leaving the editor.
    textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        document.execCommand('insertText', false, '  ');
      }
    });
    this.#renderGutter();
  }

  get value(): string {
    return this.textarea.value;
  }

  set value(text: string) {
    this.textarea.value = text;
    this.textarea.scrollTop = 0;
    this.textarea.setSelectionRange(0, 0);
    this.#renderGutter();
    this.#showCursor();
  }

  /** Marks these (1-based) lines in the gutter. */
  setErrorLines(lines: Iterable<number>): void {
    this.#errorLines = new Set(lines);
    this.#lines = -1; // force a redraw
    this.#renderGutter();
  }

  /** Moves the cursor to line:column (1-based), selects that line's text and scrolls to it. */
  goTo(line: number, column = 1): void {
    const text = this.textarea.value;
    let start = 0;
    for (let l = 1; l < line; l++) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      start = nl + 1;
    }
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const pos = Math.min(start + Math.max(0, column - 1), end);
    this.textarea.focus();
    this.textarea.setSelectionRange(pos, pos);
    // Scroll so that the line sits a third of the way down.
    const lh = parseFloat(getComputedStyle(this.textarea).lineHeight) || 18;
    this.textarea.scrollTop = Math.max(0, (line - 1) * lh - this.textarea.clientHeight / 3);
    this.#syncScroll();
    this.#showCursor();
  }

  /** The 1-based line and column of the cursor. */
  cursor(): { line: number; column: number } {
    const before = this.textarea.value.slice(0, this.textarea.selectionStart);
    const lines = before.split('\n');
    return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
  }

  #renderGutter(): void {
    const n = this.textarea.value.split('\n').length;
    if (n === this.#lines) return;
    this.#lines = n;
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) {
      const div = document.createElement('div');
      div.textContent = String(i);
      if (this.#errorLines.has(i)) div.className = 'err';
      frag.append(div);
    }
    // room for the horizontal scrollbar of the textarea
    frag.append(document.createElement('br'), document.createElement('br'));
    this.#gutter.replaceChildren(frag);
    this.#syncScroll();
  }

  #syncScroll(): void {
    this.#gutter.scrollTop = this.textarea.scrollTop;
  }

  #showCursor(): void {
    if (!this.#cursor) return;
    const { line, column } = this.cursor();
    this.#cursor.textContent = `${line}:${column}`;
  }
}
