// What the JSON Schema (schema/rulestack.schema.json, the one list of the language's keys)
// allows at a path of keys and list items: the keys of the object there, or its values.
import schemaJson from '../../../schema/rulestack.schema.json';

type Schema = Record<string, any>;
const schema = schemaJson as Schema;

function deref(s: Schema | undefined): Schema | undefined {
  let n = s;
  for (let guard = 0; n?.$ref && guard < 20; guard++) n = schema.$defs[String(n.$ref).replace('#/$defs/', '')];
  return n;
}

/** The alternatives a node stands for (oneOf/anyOf branches; a mutation's operations). */
function variants(s: Schema | undefined, operation?: string): Schema[] {
  const n = deref(s);
  if (!n) return [];
  const alts = [...(n.oneOf ?? []), ...(n.anyOf ?? [])].map(deref).filter(Boolean) as Schema[];
  if (alts.length) return alts.flatMap((a) => variants(a, operation));
  if (n.allOf) {
    // a mutation: the variant its operation names, or every variant while none is written
    const thens = (n.allOf as Schema[]).filter((p) => p.if && p.then && (operation === undefined || p.if.properties?.operation?.const === operation));
    return [n, ...thens.map((p) => deref(p.then)!)];
  }
  return [n];
}

/** The schema node at a path ('[]' for a list item); siblings: the mapping's other keys, for a mutation's operation. */
export function schemaAt(path: string[], operation?: string): Schema[] {
  let nodes: Schema[] = [schema];
  for (const seg of path) {
    const next: Schema[] = [];
    for (const n of nodes.flatMap((x) => variants(x, operation))) {
      if (seg === '[]') {
        if (n.items) next.push(n.items);
      } else if (n.properties?.[seg]) next.push(n.properties[seg]);
      else if (n.additionalProperties && typeof n.additionalProperties === 'object') next.push(n.additionalProperties);
    }
    nodes = next;
  }
  return nodes;
}

export interface KeyInfo {
  key: string;
  required: boolean;
  description?: string;
}

/** The keys an object at this path may have. */
export function keysAt(path: string[], operation?: string): KeyInfo[] {
  const out = new Map<string, KeyInfo>();
  for (const n of schemaAt(path, operation).flatMap((x) => variants(x, operation))) {
    const required = new Set<string>(n.required ?? []);
    for (const [key, sub] of Object.entries<Schema>(n.properties ?? {})) {
      const prev = out.get(key);
      const description = sub.description ?? deref(sub)?.description;
      out.set(key, { key, required: (prev?.required ?? false) || required.has(key), description });
    }
  }
  return [...out.values()];
}

/** The values the schema lists for this path (an enum or const), and whether it is a trigger. */
export function valuesAt(path: string[], operation?: string): { values: string[]; trigger: boolean } {
  const values = new Set<string>();
  let trigger = false;
  for (const n of schemaAt(path, operation).flatMap((x) => variants(x, operation))) {
    for (const v of n.enum ?? []) if (typeof v === 'string') values.add(v);
    if (n === schema.$defs.trigger) trigger = true;
  }
  return { values: [...values], trigger };
}

/** The events a trigger may name: the schema's trigger pattern lists them. */
export const EVENTS: string[] = /\(\\\$\?\(([A-Za-z|]+)\)/.exec(String(schema.$defs.trigger.pattern))?.[1]?.split('|') ?? [];
