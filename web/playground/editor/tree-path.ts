// Where a position is in the definition, read from the editor's syntax tree (YAML or JSON):
// the path of keys and list items from the root ('[]' for an item), and whether the position
// is on a key. Both grammars name their nodes differently; this is the one place that knows.
import type { SyntaxNode } from '@lezer/common';
import type { EditorState } from '@codemirror/state';

const PAIR = new Set(['Pair', 'Property']);
const KEY = new Set(['Key', 'PropertyName']);
const MAPPING = new Set(['BlockMapping', 'FlowMapping', 'Object']);
const FLOW_LIST = new Set(['FlowSequence', 'Array']);
const PUNCT = new Set(['[', ']', '{', '}', ',', ':', '-']);

/** A key's text without its quotes. */
export function keyText(state: EditorState, pair: SyntaxNode): string | null {
  const key = pair.firstChild;
  if (!key || !KEY.has(key.name)) return null;
  return unquote(state.sliceDoc(key.from, key.to));
}

export function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

/** The value node of a pair (after its ':'), if any. */
export function pairValue(pair: SyntaxNode): SyntaxNode | null {
  for (let c = pair.firstChild; c; c = c.nextSibling) if (c.name === ':') return c.nextSibling;
  return null;
}

/** The keys and list items from the root down to `node` (the pair of a key `node` is in excluded). */
export function pathOf(state: EditorState, node: SyntaxNode): { path: string[]; onKey: boolean } {
  const path: string[] = [];
  let onKey = false;
  let child: SyntaxNode | null = null;
  for (let n: SyntaxNode | null = node; n; child = n, n = n.parent) {
    if (KEY.has(n.name)) onKey = true;
    else if (PAIR.has(n.name)) {
      if (onKey && child && KEY.has(child.name)) continue; // the key being written: not a step
      const k = keyText(state, n);
      if (k !== null) path.push(k);
    } else if (n.name === 'Item' || (FLOW_LIST.has(n.name) && child && !PUNCT.has(child.name))) path.push('[]');
  }
  return { path: path.reverse(), onKey };
}

/** The keys already written in the mapping that holds this pair. */
export function siblingKeys(state: EditorState, pair: SyntaxNode | null): Set<string> {
  const out = new Set<string>();
  const map = pair?.parent;
  if (!map || !MAPPING.has(map.name)) return out;
  for (let c = map.firstChild; c; c = c.nextSibling) {
    if (PAIR.has(c.name) && c !== pair) {
      const k = keyText(state, c);
      if (k !== null) out.add(k);
    }
  }
  return out;
}

/** The scalar value of another key of the mapping that holds this pair (a mutation's `operation`). */
export function siblingValue(state: EditorState, pair: SyntaxNode | null, key: string): string | undefined {
  for (let c = pair?.parent?.firstChild; c; c = c.nextSibling) {
    if (PAIR.has(c.name) && keyText(state, c) === key) {
      const v = pairValue(c);
      return v ? unquote(state.sliceDoc(v.from, v.to)) : undefined;
    }
  }
  return undefined;
}

/** The mapping (object) a node is in: its nearest ancestor, or the document's top mapping. */
export function enclosingMapping(node: SyntaxNode): SyntaxNode | null {
  for (let n: SyntaxNode | null = node; n; n = n.parent) {
    if (MAPPING.has(n.name)) return n;
    if (!n.parent) for (let c = n.firstChild; c; c = c.nextSibling) if (MAPPING.has(c.name)) return c;
  }
  return null;
}

/** The pair a node is in (itself, or its nearest ancestor). */
export function enclosingPair(node: SyntaxNode | null): SyntaxNode | null {
  for (let n = node; n; n = n.parent) if (PAIR.has(n.name)) return n;
  return null;
}

/** Every pair in the tree, with its path (for the names a definition declares). */
export function eachPair(state: EditorState, top: SyntaxNode, f: (key: string, value: SyntaxNode | null, path: string[]) => void): void {
  const cursor = top.cursor();
  do {
    if (PAIR.has(cursor.name)) {
      const n = cursor.node;
      const k = keyText(state, n);
      if (k !== null) f(k, pairValue(n), pathOf(state, n).path.slice(0, -1));
    }
  } while (cursor.next());
}

/** The scalar texts of a list value (`[a, b]` or a block list), unquoted. */
export function listItems(state: EditorState, list: SyntaxNode | null): string[] {
  if (!list) return [];
  const out: string[] = [];
  for (let c = list.firstChild; c; c = c.nextSibling) {
    const v = c.name === 'Item' ? c.firstChild : c;
    if (v && !PUNCT.has(v.name) && /Literal|String|Number/.test(v.name)) out.push(unquote(state.sliceDoc(v.from, v.to)));
  }
  return out;
}
