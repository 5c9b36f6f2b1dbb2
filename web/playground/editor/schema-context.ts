// What the JSON Schema (schema/rulestack.schema.json, the one list of the language's keys)
// allows at a path of keys and list items: the keys of the object there, or its values.
// The schema is fetched with the rest of completion's data, when completion is first asked.

export type Schema = Record<string, any>;

export class SchemaContext {
  readonly #schema: Schema;
  /** The events a trigger may name: the schema's trigger pattern lists them. */
  readonly events: string[];

  constructor(schema: Schema) {
    this.#schema = schema;
    this.events = /\(\\\$\?\(([A-Za-z|]+)\)/.exec(String(schema.$defs.trigger.pattern))?.[1]?.split('|') ?? [];
  }

  keysAt(path: string[], operation?: string): KeyInfo[] {
    return keysAt(this.#schema, path, operation);
  }

  valuesAt(path: string[], operation?: string): { values: string[]; trigger: boolean } {
    return valuesAt(this.#schema, path, operation);
  }
}

function deref(schema: Schema, s: Schema | undefined): Schema | undefined {
  let n = s;
  for (let guard = 0; n?.$ref && guard < 20; guard++) n = schema.$defs[String(n.$ref).replace('#/$defs/', '')];
  return n;
}

/** The alternatives a node stands for (oneOf/anyOf branches; a mutation's operations). */
function variants(schema: Schema, s: Schema | undefined, operation?: string): Schema[] {
  const n = deref(schema, s);
  if (!n) return [];
  const alts = [...(n.oneOf ?? []), ...(n.anyOf ?? [])].map((a) => deref(schema, a)).filter(Boolean) as Schema[];
  if (alts.length) return alts.flatMap((a) => variants(schema, a, operation));
  if (n.allOf) {
    // a mutation: the variant its operation names, or every variant while none is written
    const thens = (n.allOf as Schema[]).filter((p) => p.if && p.then && (operation === undefined || p.if.properties?.operation?.const === operation));
    return [n, ...thens.map((p) => deref(schema, p.then)!)];
  }
  return [n];
}

/** The schema node at a path ('[]' for a list item); siblings: the mapping's other keys, for a mutation's operation. */
function schemaAt(schema: Schema, path: string[], operation?: string): Schema[] {
  let nodes: Schema[] = [schema];
  for (const seg of path) {
    const next: Schema[] = [];
    for (const n of nodes.flatMap((x) => variants(schema, x, operation))) {
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
function keysAt(schema: Schema, path: string[], operation?: string): KeyInfo[] {
  const out = new Map<string, KeyInfo>();
  for (const n of schemaAt(schema, path, operation).flatMap((x) => variants(schema, x, operation))) {
    const required = new Set<string>(n.required ?? []);
    for (const [key, sub] of Object.entries<Schema>(n.properties ?? {})) {
      const prev = out.get(key);
      const description = sub.description ?? deref(schema, sub)?.description;
      out.set(key, { key, required: (prev?.required ?? false) || required.has(key), description });
    }
  }
  return [...out.values()];
}

/** The values the schema lists for this path (an enum or const), and whether it is a trigger. */
function valuesAt(schema: Schema, path: string[], operation?: string): { values: string[]; trigger: boolean } {
  const values = new Set<string>();
  let trigger = false;
  for (const n of schemaAt(schema, path, operation).flatMap((x) => variants(schema, x, operation))) {
    for (const v of n.enum ?? []) if (typeof v === 'string') values.add(v);
    if (n === schema.$defs.trigger) trigger = true;
  }
  return { values: [...values], trigger };
}
