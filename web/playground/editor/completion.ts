// Completion in the definition editor: keys where a key goes (the JSON Schema's, for the
// object at the cursor), the values the schema lists (operations, visibility, …), triggers
// ($Before./$After. and the events the schema's trigger pattern names, @ and the actions
// declared), `$` references (docs/language.md's table, the one list with what each means),
// and the names the definition being edited declares: templates, zones, properties,
// players, actions. After a `.` in an expression: the built-in members docs/language.md
// lists for what the value before it is (an entity, a zone, a queue item, a list) and the
// definition's property names.
import { insertCompletionText, startCompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { SchemaContext, type Schema } from './schema-context.js';
import { eachPair, enclosingMapping, enclosingPair, listItems, pathOf, siblingKeys, siblingValue, unquote } from './tree-path.js';

/** What completion reads besides the text: the schema, and the references of the language. */
export interface CompletionData {
  schema: SchemaContext;
  references: Completion[];
  members: BuiltinMembers;
}

/** What a value before a `.` is, as far as its words tell. */
export type ValueKind = 'entity' | 'zone' | 'item' | 'list';

/** The built-in members of each kind of value (a list's are its methods and `size`; a zone has them too). */
export type BuiltinMembers = Record<ValueKind, string[]>;

/** The backquoted names in a piece of docs/language.md. */
const namesIn = (text: string | undefined) => [...(text ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]!);

/** The built-in members docs/language.md lists: of an entity, a zone, a queue item; a list's methods. */
export function builtinMembersFrom(languageDoc: string): BuiltinMembers {
  return {
    entity: namesIn(/Built-in members of an entity: ([\s\S]*?)\. Every declared property/.exec(languageDoc)?.[1]),
    zone: namesIn(/works on entities, players, zones \(([^)]*)\)/.exec(languageDoc)?.[1]),
    item: namesIn(/an item has ([^|]*?), and reads other members/.exec(languageDoc)?.[1]),
    // the methods table's `list.…` forms (not its functions, `count(list)`)
    list: [...new Set([...languageDoc.matchAll(/^\| (`list\.[^|]*)\|/gm)].flatMap((row) => [...row[1]!.matchAll(/`list\.(\w+)/g)].map((m) => m[1]!)))],
  };
}

/** What the value a chain of words names is ("$queue.top" an item, "$zone.@Hand" a zone, "$targets" a list, else an entity or player). */
export function valueKind(base: string, types: readonly string[]): ValueKind {
  const last = base.slice(base.lastIndexOf('.') + 1);
  if (/^\$queue\.(top|items\[.*\])$/.test(base) || base === '$event.action') return 'item';
  if (/^\$zone\.@\w+$/.test(base) || /\.zone(\.@\w+)?$/.test(base) || /^\$event\.(zone|from)$/.test(base)) return 'zone';
  if (/^\$(entity\.all|player\.all|players|targets|queue\.items)$/.test(base) || ['tags', 'entities', 'targets'].includes(last)) return 'list';
  if (/^\$entity\.\w+$/.test(base) && types.includes(last)) return 'list';
  return 'entity';
}

/** `$` references and what they are, from the References table of docs/language.md. */
export function referencesFrom(languageDoc: string): Completion[] {
  const out: Completion[] = [];
  const table = /\| reference \| value \|\n\|[-| ]+\|\n((?:\|.*\|\n)+)/.exec(languageDoc)?.[1] ?? '';
  for (const row of table.split('\n')) {
    const [, refs, info] = /^\| (.*?) \| (.*) \|$/.exec(row) ?? [];
    if (!refs || !info) continue;
    for (const [, ref] of refs.matchAll(/`(\$[\w.@]+)`/g)) {
      out.push({ label: ref!, type: 'variable', info: info.replace(/`/g, '') });
    }
  }
  return out;
}

let data: Promise<CompletionData> | undefined;

/** Fetched once, when completion is first wanted (a chunk of its own: the page loads without it). */
export function completionData(): Promise<CompletionData> {
  data ??= Promise.all([import('../../../schema/rulestack.schema.json'), import('../../../docs/language.md?raw')]).then(
    ([schema, doc]) => ({ schema: new SchemaContext(schema.default as Schema), references: referencesFrom(doc.default), members: builtinMembersFrom(doc.default) }),
    (e: unknown) => {
      data = undefined; // try again next time
      throw e;
    },
  );
  return data;
}

export interface DeclaredNames {
  templates: string[];
  types: string[];
  zones: string[];
  actions: string[];
  players: string[];
  properties: string[];
}

/** The names the definition in the editor declares (read from its syntax tree, so half-typed text still has them). */
export function declaredNames(state: EditorState): DeclaredNames {
  const sets = { templates: new Set<string>(), types: new Set<string>(), zones: new Set<string>(), actions: new Set<string>(), players: new Set<string>(), properties: new Set<string>() };
  const scalar = (v: unknown) => (v ? unquote(state.sliceDoc((v as { from: number }).from, (v as { to: number }).to)) : '');
  eachPair(state, syntaxTree(state).topNode, (key, value, path) => {
    const where = path.join('/');
    const top = path[0];
    const last = path[path.length - 1];
    if (top === 'zones' && path.length === 2 && key === 'name') sets.zones.add(scalar(value));
    else if (top === 'entities' && path.length === 2 && key === 'id') sets.templates.add(scalar(value));
    else if (top === 'entities' && path.length === 2 && key === 'type') sets.types.add(scalar(value));
    else if (/(^|\/)actions\/\[\]$/.test(where) && key === 'name') sets.actions.add(scalar(value));
    else if (where === 'players' && key === 'ids') for (const id of listItems(state, value)) sets.players.add(id);
    else if (last === 'properties' || last === 'per_turn') sets.properties.add(key);
    else if (key === 'property' && value) sets.properties.add(scalar(value));
  });
  const list = (s: Set<string>) => [...s].filter((x) => x !== '' && !/[\s{}[\]]/.test(x));
  return { templates: list(sets.templates), types: list(sets.types), zones: list(sets.zones), actions: list(sets.actions), players: list(sets.players), properties: list(sets.properties) };
}

const opt = (label: string, type: string, detail?: string, info?: string): Completion => ({ label, type, detail, info });

/** Which declared names a value under this key names. */
function namesFor(key: string | undefined, n: DeclaredNames): Completion[] {
  const templates = n.templates.map((t) => opt(t, 'class', 'template'));
  const zones = n.zones.map((z) => opt(z, 'namespace', 'zone'));
  const actions = n.actions.map((a) => opt(a, 'function', 'action'));
  const players = n.players.map((p) => opt(p, 'constant', 'player'));
  const properties = n.properties.map((p) => opt(p, 'property', 'property'));
  switch (key) {
    case 'template':
      return templates;
    case 'property':
      return properties;
    case 'valid_actions':
      return actions;
    case 'cancel_zone':
      return zones;
    case 'first_player':
    case 'owner':
    case 'winner':
      return players;
    default:
      return [...templates, ...zones, ...actions, ...players, ...properties];
  }
}

/** Inside an expression: the `$…` word before the cursor. */
function referenceOptions(word: string, n: DeclaredNames, d: CompletionData): Completion[] {
  if (/^\$zone\.@\w*$/.test(word)) return n.zones.map((z) => opt(`$zone.@${z}`, 'namespace', 'zone'));
  if (/^\$(Before|After)\.@/.test(word)) return n.actions.map((a) => opt(`${word.slice(0, word.indexOf('@'))}@${a}`, 'function', 'action'));
  if (/^\$(Before|After)\b/.test(word)) return triggerOptions(n, d);
  const member = /^(\$[\w.@[\]]*)\.(\w*)$/.exec(word);
  // the table's forms with a placeholder (`$entity.<type>`, `$zone.@Name`) stand for the text's names
  const refs = [
    ...d.references.filter((r) => !/<|@Name$/.test(r.label)),
    ...n.types.map((t) => opt(`$entity.${t}`, 'variable', 'template type')),
    ...n.zones.map((z) => opt(`$zone.@${z}`, 'namespace', 'zone')),
  ];
  if (member && !refs.some((r) => r.label.startsWith(word))) return memberOptions(member[1]!, n, d);
  return refs;
}

/** After `base.`: the built-in members of what `base` is, then (an entity, player or item) the definition's properties. */
function memberOptions(base: string, n: DeclaredNames, d: CompletionData): Completion[] {
  const kind = valueKind(base, n.types);
  // a zone is also a list of its entities: `.contains(v)`, `.where(...)`
  const names = kind === 'zone' ? [...new Set([...d.members.zone, ...d.members.list])] : d.members[kind];
  const builtins = names.map((m) => opt(`${base}.${m}`, kind === 'list' ? 'method' : 'property', `built-in (${kind === 'item' ? 'queue item' : kind})`));
  const own = kind === 'entity' || kind === 'item' ? n.properties.filter((p) => !d.members[kind].includes(p)).map((p) => opt(`${base}.${p}`, 'property', 'property')) : [];
  return [...builtins, ...own];
}

/** `$Before.` and `$After.`: a pick writes it and opens the list again, on the events and actions (as `$Before.` does typed). */
const TRIGGER_STARTS: Completion[] = ['Before', 'After'].map((when) => ({
  label: `$${when}.`,
  type: 'keyword',
  detail: `trigger ${when.toLowerCase()} an event or action`,
  apply: (view, completion, from, to) => {
    view.dispatch(insertCompletionText(view.state, completion.label, from, to));
    startCompletion(view);
  },
}));

function triggerOptions(n: DeclaredNames, d: CompletionData): Completion[] {
  const out: Completion[] = [];
  for (const when of ['Before', 'After']) {
    for (const e of d.schema.events) out.push(opt(`$${when}.${e}`, 'event', 'event'));
    for (const a of n.actions) out.push(opt(`$${when}.@${a}`, 'function', 'named action'));
  }
  return out;
}

/** The keys the schema allows in the object at `path`, less those written there already. */
function keyOptions(d: CompletionData, path: string[], written: Set<string>, operation: string | undefined, apply: (key: string) => string): Completion[] {
  return d.schema
    .keysAt(path, operation)
    .filter((k) => !written.has(k.key) && k.key !== '$schema')
    .map((k) => ({ label: k.key, type: 'property', detail: k.required ? 'required' : undefined, info: k.description, apply: apply(k.key), boost: k.required ? 1 : 0 }));
}

export function definitionCompletion(json: () => boolean) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const { state, pos } = context;
    const d = await completionData();
    if (context.aborted) return null;
    const word = context.matchBefore(/["']?[$@\w.[\]-]*$/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    // what is completed starts after an opening quote
    const from = word.from + (/^["']/.test(word.text) ? 1 : 0);
    const node = syntaxTree(state).resolveInner(pos, -1);
    const at = pathOf(state, node);
    const before = state.sliceDoc(state.doc.lineAt(pos).from, pos);
    const pair = enclosingPair(node);
    const names = declaredNames(state);

    const operation = siblingValue(state, pair, 'operation');
    // a value. After `key: ` with no value yet the tree may end at the mapping: the line says which key
    const lineKey = /(?:^\s*(?:-\s+)?|[{,]\s*)["']?([\w$]+)["']?\s*:\s+["']?[^,{}[\]:]*$/.exec(before)?.[1];
    const path = lineKey !== undefined && at.path[at.path.length - 1] !== lineKey ? [...at.path, lineKey] : at.path;
    const { values, trigger } = d.schema.valuesAt(path, operation);

    // `$…`: a reference (or a trigger), wherever it is in an expression
    const ref = /\$[$@\w.[\]]*$/.exec(state.sliceDoc(Math.max(0, pos - 200), pos));
    if (ref && !at.onKey) {
      // a trigger's `$`, `$Be`…: the start of `$Before.`/`$After.`, not a reference
      const options = trigger && /^\$\w*$/.test(ref[0]) ? TRIGGER_STARTS : referenceOptions(ref[0], names, d);
      // (asked again at each character: what follows a `.` or `@` is another list)
      return { from: pos - ref[0].length, options, validFor: /^\$\w*$/ };
    }

    // JSON keys get their closing quote (unless it is there) and the colon
    const closed = state.sliceDoc(pos, pos + 1) === '"';
    const apply = (key: string) => (json() ? (closed ? key : `${key}": `) : `${key}: `);
    const keys = (path: string[]) => keyOptions(d, path, siblingKeys(state, pair), operation, apply);
    if (at.onKey) return { from, options: keys(at.path), validFor: /^\w*$/ };
    // JSON: a half-typed key (`"pla`) is no key yet in the tree: the object around it says where
    if (json() && /(^\s*|[{,]\s*)"[\w$]*$/.test(before)) {
      const map = enclosingMapping(node);
      return map ? { from, options: keys(pathOf(state, map).path), validFor: /^\w*$/ } : null;
    }

    const valueKey = path[path.length - 1];
    if (trigger) return { from, options: triggerOptions(names, d) };
    const options: Completion[] = values.map((v) => opt(v, 'enum', valueKey === 'operation' ? 'operation' : undefined));
    options.push(...namesFor(valueKey === '[]' ? path[path.length - 2] : valueKey, names));
    // a bare word where an object may start (a new list item, a half-typed key): its keys too
    if (!json() && /^\s*(-\s+)?["']?[\w-]*$/.test(before)) options.push(...keys(valueKey === '[]' || pair === null ? path : path.slice(0, -1)));
    return options.length ? { from, options } : null;
  };
}
