// The YAML reader is loaded only when asked: loadEngine({ yaml: false }) leaves it out (objects
// and JSON text work, YAML text says how to load it), loadEngine() and loadYaml() bring it.
// Each test file runs in a process of its own, so nothing has loaded it before this one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine, loadYaml, yamlLoaded, parseDefinition, DefinitionError } from '../index.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const TIC_TAC_TOE_YAML = readFileSync(repo('examples/tictactoe.yaml'), 'utf8');
// the same game as JSON (the build writes it): no YAML reader needed to get it
const TTT_JSON = readFileSync(fileURLToPath(new URL('../../build/examples-json/tictactoe.json', import.meta.url)), 'utf8');
const TTT = JSON.parse(TTT_JSON) as Record<string, unknown>;

test('in a process where importing yaml fails, { yaml: false } still plays a JSON game', () => {
  // a module hook that refuses to resolve 'yaml': any import of it would fail
  const hook = `export async function resolve(spec, ctx, next) {
    if (spec === 'yaml') throw new Error('yaml was imported');
    return next(spec, ctx);
  }`;
  const main = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
const { loadEngine } = await import(${JSON.stringify(new URL('../index.js', import.meta.url).href)});
const rs = await loadEngine({ yaml: false });
const game = rs.createGame(process.argv[1], { seed: 1 });
game.apply('0', { action: 'Mark', targets: ['NW'] });
console.log(JSON.stringify(game.view().toAct));
let yamlFailed = '';
try { await loadEngine(); } catch (e) { yamlFailed = e.message; }
console.log(yamlFailed);
`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', main, TTT_JSON], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const [toAct, yamlFailed] = r.stdout.trim().split('\n');
  assert.equal(toAct, '["1"]');
  // and the hook is real: asking for the YAML reader then fails on it
  assert.match(yamlFailed ?? '', /yaml was imported/);
});

test('{ yaml: false }: objects and JSON text work, the YAML reader is not loaded', async () => {
  const rs = await loadEngine({ yaml: false });
  assert.equal(yamlLoaded(), false);
  const a = rs.createGame(TTT, { seed: 3 });
  const b = rs.createGame(TTT_JSON, { seed: 3 });
  assert.equal(a.stateHash(), b.stateHash());
  a.apply('0', { action: 'Mark', targets: ['C'] });
  assert.notEqual(a.stateHash(), b.stateHash());
  a.dispose();
  b.dispose();
  assert.deepEqual(rs.validate(TTT_JSON), []);
  // a JSON syntax error is still a DefinitionError with its position (no YAML retry)
  assert.throws(() => rs.createGame('{\n "name": ]'), (e: unknown) => e instanceof DefinitionError && e.errors[0]!.line === 2);
  assert.equal(yamlLoaded(), false);
});

test('{ yaml: false }: YAML text throws an error that names the way to load the reader', async () => {
  const rs = await loadEngine({ yaml: false });
  assert.throws(() => rs.createGame(TIC_TAC_TOE_YAML), /YAML reader.*loadEngine\(\) without \{ yaml: false \}.*loadYaml\(\)/);
  assert.throws(() => parseDefinition(TIC_TAC_TOE_YAML), /loadYaml/);
});

test('loadYaml() then YAML text works; loadEngine() (default) loads it too and returns the same engine', async () => {
  const lean = await loadEngine({ yaml: false });
  await loadYaml();
  assert.equal(yamlLoaded(), true);
  const g = lean.createGame(TIC_TAC_TOE_YAML, { seed: 3 });
  const o = lean.createGame(TTT, { seed: 3 });
  assert.equal(g.stateHash(), o.stateHash());
  g.dispose();
  o.dispose();
  const full = await loadEngine();
  assert.equal(full, lean);
  assert.equal(parseDefinition('name: x\nplayers: { count: 2 }\n').format, 'yaml');
});
