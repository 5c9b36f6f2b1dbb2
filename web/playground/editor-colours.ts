// The editor's syntax colours, from the page's theme: CodeMirror's default highlight style
// with each colour read from a CSS variable (--syn-<colour>) that style.css sets for the dark
// theme only, so YAML keys and strings stay readable on a dark background.
import { defaultHighlightStyle, HighlightStyle } from '@codemirror/language';

export const pageHighlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((s) => (typeof s.color === 'string' ? { ...s, color: `var(--syn-${s.color.slice(1)}, ${s.color})` } : s)),
);
