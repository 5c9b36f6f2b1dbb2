// The JSON Schema (schema/rulestack.schema.json) must name exactly the keys the engine's
// loader accepts (its one key table, languageKeys()), and every shipped example must pass
// the schema's structural checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadEngine } from '../index.js';
import { quoteBareOperators } from '../definition.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
type Schema = Record<string, any>;
const schema: Schema = JSON.parse(readFileSync(repo('schema/rulestack.schema.json'), 'utf8'));
const opNames: Record<string, string> = { '=': 'set', '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide' };

function defFor(context: string): Schema {
  if (context === 'root') return schema;
  if (context.startsWith('mutation:')) {
    const op = context.slice('mutation:'.length);
    return schema.$defs[`mutation_${opNames[op] ?? op}`];
  }
  return schema.$defs[context];
}

test('the schema names exactly the keys the loader accepts, with the same required keys', async () => {
  const rs = await loadEngine();
  const keys: Record<string, { allowed: string[]; required: string[] }> = JSON.parse(rs.module.languageKeys());
  assert.ok(Object.keys(keys).length >= 30, 'the key table lists every object of the language');
  for (const [context, k] of Object.entries(keys)) {
    const def = defFor(context);
    assert.ok(def, `schema has a definition for ${context}`);
    assert.deepEqual(Object.keys(def.properties).sort(), [...k.allowed].sort(), `keys of ${context}`);
    const required = (def.required ?? []).filter((r: string) => !(context.startsWith('mutation:') && r === 'operation'));
    const want = k.required.filter((r) => !(context.startsWith('mutation:') && r === 'operation'));
    assert.deepEqual([...required].sort(), [...want].sort(), `required keys of ${context}`);
  }
});

// A small checker for the schema features used (type, properties, additionalProperties,
// required, items, $ref, enum, const, oneOf, allOf with if/then).
function check(node: unknown, s: Schema, path: string, errors: string[]): void {
  if (s.$ref) return check(node, schema.$defs[s.$ref.replace('#/$defs/', '')], path, errors);
  const types: string[] = s.type ? (Array.isArray(s.type) ? s.type : [s.type]) : [];
  const t = node === null ? 'null' : Array.isArray(node) ? 'array' : Number.isInteger(node) ? 'integer' : typeof node;
  if (types.length && !types.includes(t) && !(t === 'integer' && types.includes('number'))) {
    errors.push(`${path}: expected ${types.join('|')}, got ${t}`);
    return;
  }
  if (s.enum && !s.enum.includes(node)) errors.push(`${path}: not one of ${s.enum.join(', ')}`);
  if (s.const !== undefined && node !== s.const) errors.push(`${path}: expected ${s.const}`);
  if (s.oneOf) {
    const ok = s.oneOf.filter((o: Schema) => { const e: string[] = []; check(node, o, path, e); return e.length === 0; });
    if (ok.length !== 1) errors.push(`${path}: matches ${ok.length} of oneOf`);
  }
  if (s.allOf)
    for (const part of s.allOf) {
      const e: string[] = [];
      check(node, part.if, path, e);
      if (e.length === 0) check(node, part.then, path, errors);
    }
  if (t === 'object' && node && typeof node === 'object' && !Array.isArray(node)) {
    const o = node as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in o)) errors.push(`${path}: missing ${r}`);
    for (const [k, v] of Object.entries(o)) {
      if (s.properties?.[k]) check(v, s.properties[k], `${path}/${k}`, errors);
      else if (s.additionalProperties === false) errors.push(`${path}: unknown key ${k}`);
      else if (typeof s.additionalProperties === 'object') check(v, s.additionalProperties, `${path}/${k}`, errors);
    }
  }
  if (t === 'array' && s.items) (node as unknown[]).forEach((v, i) => check(v, s.items, `${path}/${i}`, errors));
}

test('web/lib/definition-types.ts is generated from the schema', async () => {
  const script = repo('scripts/definition-types.mjs');
  const { generate } = (await import(script)) as { generate: () => string };
  assert.equal(readFileSync(repo('web/lib/definition-types.ts'), 'utf8'), generate());
});

test('every shipped example passes the schema', () => {
  const files = readdirSync(repo('examples')).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 5);
  for (const f of files) {
    const def = parse(quoteBareOperators(readFileSync(repo(`examples/${f}`), 'utf8')));
    const errors: string[] = [];
    check(def, schema, '', errors);
    assert.deepEqual(errors, [], f);
  }
});

test('the schema rejects what the loader rejects: an unknown key and a MoveZone without destination', () => {
  const errors: string[] = [];
  check({ name: 'x', players: { count: 2 }, flow: { phases: [{ name: 'A' }] }, flwo: 1,
          setup: [{ operation: 'MoveZone', target: '$entity.all' }] }, schema, '', errors);
  assert.deepEqual(errors, [': unknown key flwo', '/setup/0: missing destination']);
});

test("the trigger pattern names exactly the events the engine knows (the editor's completion reads them there)", async () => {
  const rs = await loadEngine();
  const pattern: string = schema.$defs.trigger.pattern;
  const named = /\(\\\$\?\(([A-Za-z|]+)\)/.exec(pattern)![1]!.split('|');
  const game = (trigger: string) => ({
    name: 'T', players: { count: 2 },
    reactions: [{ trigger, mutations: [] }],
    flow: { phases: [{ name: 'Main', valid_actions: ['Go'] }] },
    actions: [{ name: 'Go', mutations: [] }],
  });
  for (const e of named) {
    assert.deepEqual(rs.validate(game(`$After.${e}`)), [], e);
    assert.ok(new RegExp(pattern).test(`$Before.$${e}`), e);
  }
  // the engine's own list, from its error for an unknown event
  const [bad] = rs.validate(game('$After.Bogus'));
  const listed = /\(events: ([A-Za-z, ]+), or @ActionName\)/.exec(bad!.message)![1]!.split(', ');
  assert.deepEqual([...named].sort(), [...listed].sort());
  assert.ok(!new RegExp(pattern).test('$After.Bogus'));
});
