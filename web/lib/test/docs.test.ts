// Every YAML block of docs/language.md loads: a whole game as it is, a fragment merged into
// a small base game, a scenario run against the game it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadEngine } from '../index.js';
import { quoteBareOperators } from '../definition.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const doc = readFileSync(repo('docs/language.md'), 'utf8');
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);

const base: Record<string, any> = {
  name: 'Doc base',
  players: { count: 2, properties: { life: 20, energy: 3, mana: 5 } },
  settings: { cancel_zone: 'Discard' },
  zones: [
    { name: 'Deck', per_player: true, visibility: 'nobody', ordered: true },
    { name: 'Hand', per_player: true, visibility: 'owner' },
    { name: 'Discard', per_player: true },
    { name: 'Board' }, { name: 'MainBoard' }, { name: 'Graveyard' },
  ],
  entities: [{ id: 'Card', type: 'card', properties: { cost: 1, speed: 1 } }],
  flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] },
  actions: [{ name: 'Noop', mutations: [] }],
};

function merge(fragment: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = structuredClone(base);
  for (const [k, v] of Object.entries(fragment)) {
    if (Array.isArray(v) && Array.isArray(out[k])) {
      const names = new Set(v.map((x: any) => x?.name ?? x?.id).filter(Boolean));
      out[k] = [...out[k].filter((x: any) => !names.has(x?.name ?? x?.id)), ...v];
    } else out[k] = v;
  }
  return out;
}

test('docs/language.md has its examples', () => {
  assert.ok(blocks.length >= 12, `found ${blocks.length} YAML blocks`);
});

blocks.forEach((text, i) => {
  const value = parse(quoteBareOperators(text)) as Record<string, any>;
  const first = text.split('\n').find((l) => l.trim() && !l.trim().startsWith('#')) ?? '';
  test(`docs/language.md YAML block ${i + 1} (${first.trim().slice(0, 40)}) loads and works`, async () => {
    const rs = await loadEngine();
    if ('steps' in value) {
      const game = parse(quoteBareOperators(readFileSync(repo(`docs/${value.game}`), 'utf8')));
      const result = rs.runScenario({ ...value, game });
      assert.deepEqual(result.failures, [], JSON.stringify(result.failures));
      assert.equal(result.ok, true);
      return;
    }
    const def = 'name' in value && 'flow' in value ? value : merge(value);
    assert.deepEqual(rs.validate(def), []);
    const game = rs.createGame(def, { seed: 1 });
    try {
      assert.ok(game.view().players.length >= 1);
    } finally {
      game.dispose();
    }
  });
});

test("README.md's game loads and plays to the end", async () => {
  const rs = await loadEngine();
  const readme = readFileSync(repo('README.md'), 'utf8');
  const text = readme.match(/```yaml\n([\s\S]*?)```/)?.[1];
  assert.ok(text, 'README has a YAML game');
  assert.deepEqual(rs.validate(text), []);
  const r = rs.simulate(text, { games: 50, seed: 1 });
  assert.equal(r.errors, 0);
  assert.equal(r.unfinished, 0);
  assert.ok(r.wins['0']! > 0 && r.wins['1']! > 0, JSON.stringify(r.wins));
  // MCTS bots, which may pass turn after turn: the turn limit ends their games too
  const m = rs.simulate(text, { games: 4, seed: 1, bot: 'mcts', iterations: 100 });
  assert.equal(m.errors, 0);
  assert.equal(m.unfinished, 0);
  assert.equal(m.games, 4);
});
