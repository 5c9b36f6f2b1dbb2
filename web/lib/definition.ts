// Reading a definition: an object, JSON text or YAML text → JSON text for the engine,
// plus a way back from a JSON pointer to a line/column of the YAML source.
// The YAML reader (the `yaml` package) is imported dynamically, by loadYaml(), so a bundle
// that only ever passes objects or JSON text need not load it (bundlers put it in a chunk of
// its own). loadEngine() calls loadYaml() unless it is given `{ yaml: false }`.
import type { Document, Node as YamlNode } from 'yaml';
import { DefinitionError, type DefinitionIssue } from './errors.js';
import { shown } from './options.js';

type YamlModule = typeof import('yaml');
let Y: YamlModule | undefined;
let yamlLoading: Promise<void> | undefined;

/**
 * Loads the YAML reader (once). Reading YAML text — `createGame`, `validate`, `restore`,
 * `parse` given YAML — needs it; `loadEngine()` loads it unless `{ yaml: false }`.
 */
export function loadYaml(): Promise<void> {
  if (Y) return Promise.resolve();
  if (!yamlLoading) {
    yamlLoading = import('yaml').then(
      (m) => {
        Y = m;
      },
      (e: unknown) => {
        yamlLoading = undefined; // allow a retry
        throw e;
      },
    );
  }
  return yamlLoading;
}

/** Whether the YAML reader is loaded (see loadYaml). */
export function yamlLoaded(): boolean {
  return Y !== undefined;
}

function yamlModule(): YamlModule {
  if (!Y) {
    throw new Error(
      'rulestack: reading YAML text needs the YAML reader, which is not loaded: ' +
        'call loadEngine() without { yaml: false }, or await loadYaml() first (or pass an object or JSON text)',
    );
  }
  return Y;
}

export type DefinitionFormat = 'json' | 'yaml' | 'auto';

export interface Position {
  line: number;
  column: number;
}

export interface ParsedDefinition {
  /** The definition as JSON text (what the engine reads). */
  json: string;
  /** The definition as a plain object. */
  value: unknown;
  format: 'object' | 'json' | 'yaml';
  /** Where a JSON pointer is in the YAML source (its deepest existing ancestor when the
   * pointer itself is not there); undefined for non-YAML input. With `column` (1-based, in
   * the string the pointer names: an expression's text, as the engine counts it), the
   * position of that character of the string in the source instead. */
  locate(pointer: string, column?: number): Position | undefined;
}

/** Splits a JSON pointer ("/a/0/b~1c") into its unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  const p = pointer.startsWith('/') ? pointer.slice(1) : pointer;
  return p.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function keyString(Y: YamlModule, key: unknown): string {
  if (Y.isScalar(key)) return String(key.value);
  if (Y.isNode(key)) return String(key.toJSON());
  return String(key);
}

function makeYamlLocator(
  Y: YamlModule,
  doc: Document,
  text: string,
  pos: (offset: number) => Position,
): (pointer: string, column?: number) => Position | undefined {
  const { isMap, isSeq, isPair, isAlias, isNode, isScalar } = Y;
  return (pointer: string, column?: number) => {
    let node: unknown = doc.contents;
    if (!node || !isNode(node)) return { line: 1, column: 1 };
    let best: Position = pos((node as YamlNode).range?.[0] ?? 0);
    let guard = 0;
    for (const seg of pointerSegments(pointer)) {
      while (isAlias(node) && guard++ < 100) node = node.resolve(doc);
      if (isMap(node)) {
        let found: unknown;
        // Last one wins, as in the JSON conversion.
        for (const item of node.items) if (isPair(item) && keyString(Y, item.key) === seg) found = item;
        if (!found || !isPair(found)) return best;
        const key = found.key as YamlNode | null;
        const value = found.value as YamlNode | null;
        const anchor = (isNode(key) && key.range) ? key.range[0] : value?.range?.[0];
        if (anchor !== undefined) best = pos(anchor);
        node = value;
      } else if (isSeq(node)) {
        if (!/^(0|[1-9][0-9]*)$/.test(seg)) return best;
        const item = node.items[Number(seg)];
        if (item === undefined) return best;
        const r = (item as YamlNode | null)?.range;
        if (r) best = pos(r[0]);
        node = item;
      } else {
        return best;
      }
    }
    // an alias as the value named (`condition: *c`): its anchor's text is where the error is
    if (isAlias(node)) {
      while (isAlias(node) && guard++ < 100) node = node.resolve(doc);
      const r = (node as YamlNode | null | undefined)?.range;
      if (r) best = pos(r[0]);
    }
    if (column !== undefined && isScalar(node) && typeof node.value === 'string' && node.range) {
      // at most the value's last character that is not a line break: an error at the end of
      // the expression ("the expression ended") is placed there, not past a block scalar's
      // final line break on the next key's line
      let last = node.value.length - 1;
      while (last > 0 && (node.value[last] === '\n' || node.value[last] === '\r')) last--;
      const at = scalarCharOffset(text, node.range[0], node.type, Math.min(utf8Index(node.value, column - 1), Math.max(last, 0)));
      if (at !== undefined) return pos(at);
    }
    return best;
  };
}

/** How many spaces start at offset i. */
function spacesAt(text: string, i: number): number {
  let j = i;
  while (text[j] === ' ') j++;
  return j - i;
}

/** Whether only blanks are left on the line from offset i. */
function lineEndsAfterBlanks(text: string, i: number): boolean {
  let j = i;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return text[j] === '\n' || text[j] === '\r';
}

/** The index in `s` of the character that starts at UTF-8 byte `bytes` (the engine counts bytes). */
function utf8Index(s: string, bytes: number): number {
  let b = 0;
  let i = 0;
  while (i < s.length && b < bytes) {
    const c = s.codePointAt(i)!;
    b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    i += c >= 0x10000 ? 2 : 1;
  }
  return i;
}

/**
 * The offset in the source of the `index`-th character of a scalar's value, the scalar
 * starting at `start`: quotes, escapes (`''`, `\n`, `\u00e9`), a block scalar's header and
 * indentation, and folded line breaks (a break with the spaces around it is one character
 * of the value) are stepped over as the YAML reader reads them.
 */
function scalarCharOffset(text: string, start: number, type: string | undefined, index: number): number | undefined {
  let i = start;
  let indent = -1; // a block scalar's content indentation
  if (type === 'QUOTE_SINGLE' || type === 'QUOTE_DOUBLE') i++;
  else if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
    const nl = text.indexOf('\n', i);
    if (nl < 0) return undefined;
    i = nl + 1;
    while (text[i] === '\n' || text[i] === '\r') i++; // leading blank lines
    indent = spacesAt(text, i);
    i += indent;
  }
  for (let k = 0; k < index; k++) {
    if (i >= text.length) return undefined;
    const c = text[i]!;
    if (c === '\n' || c === '\r' || (indent < 0 && (c === ' ' || c === '\t') && lineEndsAfterBlanks(text, i))) {
      // a line break: one character of the value; then the next line's indentation
      const nl = text.indexOf('\n', i);
      if (nl < 0) return undefined;
      i = nl + 1;
      if (indent >= 0) i += Math.min(indent, spacesAt(text, i));
      else while (text[i] === ' ' || text[i] === '\t') i++;
    } else if (type === 'QUOTE_SINGLE' && c === "'") i += 2; // ''
    else if (type === 'QUOTE_DOUBLE' && c === '\\') {
      const e = text[i + 1];
      i += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    } else i += 1;
  }
  return i;
}

/** Position of a character offset in text (1-based line and column). */
function offsetPosition(text: string, offset: number): Position {
  return positionsIn(text)(offset);
}

/** How many of the ascending `xs` are below `x` (a binary search). */
function countBelow(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Offset → line and column in `text`, each in O(log n) once the newlines are listed: a text
 * with many errors (a few hundred KB of YAML can hold 100,000) is not scanned once per error.
 */
function positionsIn(text: string): (offset: number) => Position {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  return (offset) => {
    const line = countBelow(newlines, offset); // the newlines before it
    return { line: line + 1, column: offset - (line > 0 ? newlines[line - 1]! : -1) };
  };
}

/**
 * Where JSON.parse failed (node 20's messages carry no position): a small scanner that
 * returns the offset of the first character that is not valid JSON, and what it expected.
 */
export function jsonErrorAt(text: string): { offset: number; expected: string } | undefined {
  let i = 0;
  const n = text.length;
  let fail: { offset: number; expected: string } | undefined;
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const err = (expected: string): false => {
    if (!fail) fail = { offset: i, expected };
    return false;
  };
  const str = (): boolean => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return true;
      }
      if (c < 32) return err('a closing quote');
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) return err('4 hex digits');
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else return err('an escape sequence');
      } else i++;
    }
    return err('a closing quote');
  };
  const value = (depth: number): boolean => {
    ws();
    if (depth > 10000) return err('less nesting');
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return true;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') return err('a string key');
        if (!str()) return false;
        ws();
        if (text[i] !== ':') return err("':'");
        i++;
        if (!value(depth + 1)) return false;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return true;
        }
        return err("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return true;
      }
      for (;;) {
        if (!value(depth + 1)) return false;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return true;
        }
        return err("',' or ']'");
      }
    }
    if (c === '"') return str();
    const lit = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 400));
    if (lit) {
      i += lit[0].length;
      return true;
    }
    return err('a value');
  };
  if (value(0)) {
    ws();
    if (i < n) err('the end of the text');
  }
  return fail;
}

function jsonSyntaxIssue(text: string, err: unknown): DefinitionIssue {
  const at = jsonErrorAt(text);
  if (!at) {
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { path: '', message: `JSON syntax error: ${message}` };
  }
  const found = at.offset >= text.length ? 'the end of the text' : JSON.stringify(text[at.offset]);
  const p = offsetPosition(text, at.offset);
  return { path: '', message: `JSON syntax error: expected ${at.expected}, found ${found}`, line: p.line, column: p.column };
}

function notAnObject(format: ParsedDefinition['format']): DefinitionError {
  const issue: DefinitionIssue = { path: '', message: 'the definition must be an object (a mapping)' };
  if (format === 'yaml') {
    issue.line = 1;
    issue.column = 1;
  }
  return new DefinitionError([issue]);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Spec 002 writes `operation: -` (and `+`, `*`, `/`, `=`) unquoted. Strict YAML reads a
 * lone `-` as a list item and `*` as an alias, so such a bare operator value is quoted
 * first. Only whole-value operators change; columns after them on that line shift by 2.
 */
export function quoteBareOperators(text: string): string {
  return quoteYaml(text).text;
}

/**
 * The quoting done before YAML is parsed, and the way back from an offset in the quoted text
 * to one in the author's. Two rewrites:
 * - a bare operator value (above);
 * - an expression in a flow mapping (`{ target: $players[0], value: min($x, 3) }`): there
 *   `[`, `]`, `{`, `}` and `,` end a plain value, so an unquoted value that holds a `$` is
 *   quoted up to the `,` or `}` that really ends it (brackets, parentheses and quotes inside
 *   it are skipped over); so is a lone operator there (`{ operation: -, value: 2 }`). Block
 *   style needs no quoting and gets none.
 */
export function quoteYaml(source: string): { text: string; original: (offset: number) => number } {
  const inserted: number[] = []; // offsets in the output of every inserted quote character
  let out = '';
  const push = (s: string, quote = false) => {
    if (quote) inserted.push(out.length);
    out += s;
  };
  const lines = source.split(/(?<=\n)/);
  let depth = 0; // flow collections open ({ or [), across lines
  for (const whole of lines) {
    const bare = /^(\s*(?:-\s+)?[A-Za-z_$][\w$]*:[ \t]+)([-+*/=])([ \t]*(?:#.*)?)(\r?\n?)$/.exec(whole);
    if (depth === 0 && bare) {
      push(bare[1]!);
      push("'", true);
      push(bare[2]!);
      push("'", true);
      push(bare[3]! + bare[4]!);
      continue;
    }
    let i = 0;
    const n = whole.length;
    let afterKey = false; // just after `key:` inside a flow mapping: a value may start here
    while (i < n) {
      const c = whole[i]!;
      if (c === '#' && (i === 0 || /\s/.test(whole[i - 1]!))) {
        push(whole.slice(i)); // a comment, to the end of the line
        break;
      }
      if (c === "'" || c === '"') {
        const end = quotedEnd(whole, i);
        push(whole.slice(i, end));
        i = end;
        afterKey = false;
        continue;
      }
      // in block style a bracket opens a flow collection only where a value begins
      if ((c === '{' || c === '[') && (depth > 0 || /(^|[:-])[ \t]*$/.test(whole.slice(0, i)))) depth++;
      else if ((c === '}' || c === ']') && depth > 0) depth--;
      if (depth > 0 && c === ':' && /[ \t]/.test(whole[i + 1] ?? '')) {
        push(c);
        i++;
        afterKey = true;
        continue;
      }
      if (afterKey && !/[ \t]/.test(c)) {
        afterKey = false;
        const end = flowValueEnd(whole, i);
        const value = whole.slice(i, end).replace(/[ \t]+$/, '');
        // quotes that need no escape inside (an expression with both kinds stays as it is)
        const q = !value.includes("'") ? "'" : !value.includes('"') && !value.includes('\\') ? '"' : '';
        // (a lone operator too: `operation: -` or `*` would be read as a list item or an alias)
        if (q && (/^[-+*/=]$/.test(value) || (value.includes('$') && !/^[|>&*!'"{[]/.test(value)))) {
          push(q, true);
          push(value);
          push(q, true);
          i += value.length;
          continue;
        }
      }
      push(c);
      i++;
    }
  }
  return {
    text: out,
    original: (offset: number) => {
      const k = countBelow(inserted, offset);
      return offset - k;
    },
  };
}

/** The offset just past the quoted scalar that starts at i (or the end of the line). */
function quotedEnd(line: string, i: number): number {
  const q = line[i]!;
  for (let j = i + 1; j < line.length; j++) {
    if (q === '"' && line[j] === '\\') j++;
    else if (line[j] === q) {
      if (q === "'" && line[j + 1] === "'") j++;
      else return j + 1;
    }
  }
  return line.length;
}

/** Where a plain value in a flow mapping really ends: a `,`, `}` or `]` outside the
 * brackets, parentheses and quotes of the expression, a comment, or the end of the line. */
function flowValueEnd(line: string, i: number): number {
  let nest = 0;
  for (let j = i; j < line.length; j++) {
    const c = line[j]!;
    if (c === "'" || c === '"') {
      j = quotedEnd(line, j) - 1;
    } else if (c === '(' || c === '[') nest++;
    else if (c === ')' || (c === ']' && nest > 0)) nest--;
    else if (nest === 0 && (c === ',' || c === '}' || c === ']' || c === '\n' || c === '\r')) return j;
    else if (nest === 0 && c === '#' && /\s/.test(line[j - 1] ?? '')) return j;
  }
  return line.length;
}

function parseYaml(source: string): ParsedDefinition {
  const Y = yamlModule();
  const { text, original } = quoteYaml(source);
  const lc = new Y.LineCounter();
  // (keys are checked unique below: yaml's own check is quadratic)
  const doc = Y.parseDocument(text, { lineCounter: lc, prettyErrors: false, keepSourceTokens: true, uniqueKeys: false });
  const position = positionsIn(source);
  const where = (offset: number) => position(original(offset));
  const errors = [
    // yaml appends " at line L, column C" when prettyErrors is on; it's off, so the message is bare.
    ...doc.errors.map((e) => ({ offset: e.pos[0], message: syntaxMessage(e.message.split('\n')[0]!) })),
    ...duplicateKeys(Y, doc).map((offset) => ({ offset, message: 'Map keys must be unique' })),
  ];
  if (errors.length > 0) {
    throw new DefinitionError(
      errors
        .sort((a, b) => a.offset - b.offset)
        .map(({ offset, message }) => ({ path: '', message: `YAML syntax error: ${message}`, ...where(offset) })),
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    throw new DefinitionError([
      { path: '', message: `YAML error: ${e instanceof Error ? e.message : String(e)}`, line: 1, column: 1 },
    ]);
  }
  if (!isPlainObject(value)) throw notAnObject('yaml');
  const locate = makeYamlLocator(Y, doc, text, where);
  return { json: definitionText(value, locate), value, format: 'yaml', locate };
}

/**
 * The definition's JSON text for the engine. What JSON cannot say is refused here, where it
 * is: a structure that contains itself (a YAML alias inside its own anchor), and a number
 * that is not finite (YAML's .inf and .nan, JSON's 1e999, a JS Infinity), which
 * JSON.stringify would turn into null without a word.
 */
function definitionText(value: unknown, locate: (pointer: string, column?: number) => Position | undefined = noLocation): string {
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new DefinitionError([
      { path: '', message: /circular/i.test(why) ? 'the definition contains itself (a YAML alias inside its own anchor, or an object that holds itself): it cannot be read as JSON' : `the definition is not JSON-serializable: ${why}` },
    ]);
  }
  const found: Array<{ path: string; value: number }> = [];
  nonFinite(value, '', new Set(), found);
  if (found.length)
    throw new DefinitionError(found.map((at) => ({ path: at.path, message: `expected a finite number, found ${at.value}`, ...locate(at.path) })));
  return json;
}

/** Every number that is not finite (Infinity, -Infinity, NaN) in a value JSON can write, with its JSON pointer, in document order. */
function nonFinite(v: unknown, path: string, seen: Set<object>, found: Array<{ path: string; value: number }>): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) found.push({ path, value: v });
    return;
  }
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
  for (const [k, x] of entries) nonFinite(x, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen, found);
}

const noLocation = (): undefined => undefined;

/** yaml's message, with its parser's own stack running out (block nesting thousands deep) said as such. */
function syntaxMessage(message: string): string {
  return /maximum call stack/i.test(message) ? 'nested too deeply to read' : message;
}

/**
 * Where keys repeat in a mapping: a scalar key of the same value as an earlier one of that
 * mapping (as yaml's own check, which compares each key with every key before it: 16,000 keys
 * took it 1.4 s, and the server reads definitions on its one thread). Linear, by value.
 */
function duplicateKeys(Y: YamlModule, doc: Document): number[] {
  const offsets: number[] = [];
  Y.visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!Y.isScalar(key)) continue;
        if (seen.has(key.value)) offsets.push(key.range?.[0] ?? 0);
        else seen.add(key.value);
      }
    },
  });
  return offsets;
}

/** The engine's bound on a definition (its JSON text): text above it is refused before it is
 * read, which for tens of megabytes of YAML would take seconds. */
const MAX_DEFINITION_BYTES = 8 << 20;

function tooLarge(): DefinitionError {
  return new DefinitionError([{ path: '', message: 'the definition is larger than 8 MB' }]);
}

/** The engine's bound on nesting: text nested deeper is refused before it is read (a reader
 * that recurses would run out of stack, a RangeError rather than the engine's answer). */
const MAX_DEFINITION_DEPTH = 200;

/** How deep `[` and `{` nest outside double-quoted strings (JSON's, YAML's flow style). */
function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) max = depth;
    } else if ((c === 93 /* ] */ || c === 125) /* } */ && depth > 0) depth--;
  }
  return max;
}

/** Bytes of text in UTF-8, counted only near the bound (a UTF-16 unit is 1 to 3 bytes). */
function utf8Length(text: string): number {
  if (text.length > MAX_DEFINITION_BYTES || text.length * 3 <= MAX_DEFINITION_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

/**
 * Reads a definition. Throws DefinitionError for syntax errors (with line/column)
 * and when the definition is not an object.
 */
export function parseDefinition(definition: unknown, format: DefinitionFormat = 'auto'): ParsedDefinition {
  if (format !== 'auto' && format !== 'json' && format !== 'yaml')
    throw new RangeError(`rulestack: format must be 'auto', 'json' or 'yaml', not ${shown(format)}`);
  if (typeof definition === 'string') {
    // a byte-order mark (as some editors write one) is not part of the text, as the engine reads it
    const text = definition.charCodeAt(0) === 0xfeff ? definition.slice(1) : definition;
    if (utf8Length(text) > MAX_DEFINITION_BYTES) throw tooLarge();
    if (bracketDepth(text) > MAX_DEFINITION_DEPTH) {
      throw new DefinitionError([{ path: '', message: `the definition is nested more than ${MAX_DEFINITION_DEPTH} levels deep` }]);
    }
    const looksJson = /^\s*[{[]/.test(text);
    if (format === 'json' || (format === 'auto' && looksJson)) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        if (format === 'json') throw new DefinitionError([jsonSyntaxIssue(text, e)]);
        // A YAML flow mapping also starts with '{': try YAML (when loaded) before giving up.
        if (!Y) throw new DefinitionError([jsonSyntaxIssue(text, e)]);
        try {
          return parseYaml(text);
        } catch {
          throw new DefinitionError([jsonSyntaxIssue(text, e)]);
        }
      }
      if (!isPlainObject(value)) throw notAnObject('json');
      return { json: definitionText(value), value, format: 'json', locate: noLocation };
    }
    return parseYaml(text);
  }
  if (definition instanceof Uint8Array) {
    if (definition.byteLength > MAX_DEFINITION_BYTES) throw tooLarge();
    return parseDefinition(new TextDecoder().decode(definition), format);
  }
  if (!isPlainObject(definition)) throw notAnObject('object');
  return { json: definitionText(definition), value: definition, format: 'object', locate: noLocation };
}

/** Adds line/column (from the YAML source) to engine errors: an entry's key, or, for an
 * expression's error or warning (`at column N: …`), that character of the expression. */
export function locateIssues(
  parsed: ParsedDefinition,
  errors: Array<{ path?: unknown; message?: unknown }>,
): DefinitionIssue[] {
  return errors.map((e) => {
    const issue: DefinitionIssue = {
      path: typeof e.path === 'string' ? e.path : '',
      message: typeof e.message === 'string' ? e.message : String(e.message ?? 'invalid'),
    };
    // an expression's error or warning is located at the character its column names
    const col = /^(?:expression error )?at column (\d+):/.exec(issue.message);
    const p = parsed.locate(issue.path, col ? Number(col[1]) : undefined);
    if (p) {
      issue.line = p.line;
      issue.column = p.column;
    }
    return issue;
  });
}
