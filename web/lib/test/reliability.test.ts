// Issue 13, reliability: no input, snapshot or long game can crash, poison or exhaust the
// engine. Unknown players are refused clearly; a trap in the wasm module discards that instance
// and the next call runs in a fresh one; a long game's log stays bounded; the command lines
// read only regular files of bounded size, a scenario's game only from the scenario's folder,
// and refuse numbers out of range.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import createEngineModule from '../wasm/engine.mjs';
import type { EngineModule } from '../wasm/engine.mjs';
import { loadEngine, EngineCrashedError, IllegalMoveError, Rulestack, type Game, type Move } from '../index.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const TTT = readFileSync(repo('examples/tictactoe.yaml'), 'utf8');
const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
const NATIVE = repo('build/native/rulestack-native');

/** A game whose one action logs 5 events and never ends the game. */
const ENDLESS_YAML = `name: Endless
players: { count: 2 }
zones: [ { name: Board } ]
flow:
  phases: [ { name: Main, valid_actions: [Noop] } ]
actions:
  - name: Noop
    queue: false
    mutations: []
`;

let rs: Rulestack;
before(async () => {
  rs = await loadEngine();
});

/** The prototype of the module's Session class (to make one of its methods trap). */
const sessionProto = (m: EngineModule) => (m.Session as unknown as { prototype: Record<string, unknown> }).prototype;

/** Plays the first legal move of the player to act, n times. */
function playFirst(game: Game, n: number): void {
  for (let i = 0; i < n; i++) {
    const who = game.view().toAct[0];
    if (who === undefined) return;
    game.apply(who, game.legalMoves(who)[0]!);
  }
}

// ------------------------------------------------------------------ 1. unknown players

describe('unknown players', () => {
  test('view, legalMoves, log and bot.choose throw a RangeError that names the players', () => {
    const game = rs.createGame(TTT, { seed: 1 });
    try {
      assert.deepEqual(game.players, ['0', '1']);
      const unknown = /^rulestack: unknown player '9' \(players: 0, 1\)$/;
      assert.throws(() => game.view('9'), (e: unknown) => e instanceof RangeError && unknown.test(e.message));
      assert.throws(() => game.legalMoves('9'), (e: unknown) => e instanceof RangeError && unknown.test(e.message));
      assert.throws(() => game.log('9'), (e: unknown) => e instanceof RangeError && unknown.test(e.message));
      assert.throws(() => rs.bot(game).choose('9'), (e: unknown) => e instanceof RangeError && unknown.test(e.message));
      // numbers that name no player, and the empty string
      for (const p of [-1, 2, 1.5, Number.NaN, '']) {
        assert.throws(() => game.view(p), RangeError, String(p));
        assert.throws(() => game.legalMoves(p), RangeError, String(p));
        assert.throws(() => rs.bot(game).choose(p), RangeError, String(p));
      }
      assert.throws(() => game.legalMoves(-1), /unknown player -1 \(players: 0, 1\)/);
      assert.throws(() => game.view(Number.NaN), /unknown player NaN \(players: 0, 1\)/);
      // what is no player reference at all: a TypeError
      for (const p of [{}, true, undefined, [0]]) {
        assert.throws(() => game.legalMoves(p as never), TypeError);
      }
      // the spectator: no player, or null
      assert.deepEqual(game.view().toAct, ['0']);
      assert.deepEqual(game.view(null), game.view());
      assert.ok(game.log(null).length > 0);
      // a known player by number or by id
      assert.deepEqual(game.legalMoves(0), game.legalMoves('0'));
    } finally {
      game.dispose();
    }
  });

  test('apply with an unknown player: IllegalMoveError unknown_player, nothing changes', () => {
    const game = rs.createGame(TTT, { seed: 1 });
    try {
      const move = game.legalMoves('0')[0]!;
      const hash = game.stateHash();
      const logLength = game.log().length;
      for (const p of ['9', -1, 2, 0.5, '', {}, null]) {
        assert.throws(
          () => game.apply(p as never, move),
          (e: unknown) =>
            e instanceof IllegalMoveError &&
            e.reason === 'unknown_player' &&
            /^unknown player .* \(players: 0, 1\)$|^invalid player/.test(e.message) &&
            e.move === move,
          String(p),
        );
      }
      assert.throws(() => game.apply(-1, move), (e: unknown) => e instanceof IllegalMoveError && e.player === '-1');
      assert.equal(game.stateHash(), hash);
      assert.equal(game.log().length, logLength);
      game.apply(0, move); // the game goes on
      assert.deepEqual(game.view().toAct, ['1']);
    } finally {
      game.dispose();
    }
  });

  test('named players: numbers are not their ids', () => {
    const def = parseYaml(ENDLESS_YAML) as Record<string, unknown>;
    const game = rs.createGame({ ...def, players: { ids: ['alice', 'bob'] } }, { seed: 1 });
    try {
      assert.deepEqual(game.players, ['alice', 'bob']);
      assert.throws(() => game.view(0), /unknown player 0 \(players: alice, bob\)/);
      assert.ok(game.legalMoves('alice').length > 0);
    } finally {
      game.dispose();
    }
  });
});

// ------------------------------------------------------------------ 2. traps

/** A real trap: a tiny wasm module whose function executes `unreachable`. */
const trapModule = new WebAssembly.Module(
  new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 8, 1, 4, 116, 114, 97, 112, 0, 0, 10, 5, 1, 3, 0, 0, 11]),
);
const trap = new WebAssembly.Instance(trapModule).exports.trap as () => never;
/** A real stack overflow in wasm: a function that calls itself without end. */
const recurseModule = new WebAssembly.Module(
  new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 11, 1, 7, 114, 101, 99, 117, 114, 115, 101, 0, 0, 10, 6, 1, 4, 0, 16, 0, 11]),
);
const recurse = new WebAssembly.Instance(recurseModule).exports.recurse as () => never;

describe('a trap in the engine', () => {
  test('the probes trap for real', () => {
    assert.throws(trap, (e: unknown) => e instanceof WebAssembly.RuntimeError && /unreachable/.test(e.message));
    assert.throws(recurse, (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message));
  });

  test('a trap discards the instance: the next call runs in a fresh one, the old games are lost', async () => {
    const game = rs.createGame(TTT, { seed: 5 });
    playFirst(game, 2);
    const snap = game.snapshot();
    const hash = game.stateHash();
    const before = rs.restarts;
    const dead = rs.module;
    dead.validateDefinition = () => trap();
    assert.throws(
      () => rs.validate(TTT),
      (e: unknown) =>
        e instanceof EngineCrashedError &&
        e.crashedNow &&
        e.cause instanceof WebAssembly.RuntimeError &&
        /crashed in validate \(RuntimeError: unreachable\)/.test(e.message),
    );
    // the next call: a fresh instance
    assert.deepEqual(rs.validate(TTT), []);
    assert.notEqual(rs.module, dead);
    assert.equal(rs.restarts, before + 1);
    // the game lived in the crashed instance: every call says so
    for (const call of [() => game.view(), () => game.legalMoves('0'), () => game.snapshot(), () => rs.bot(game).choose('0')]) {
      assert.throws(call, (e: unknown) => e instanceof EngineCrashedError && !e.crashedNow && /restarted/.test(e.message) && /snapshot/.test(e.message));
    }
    assert.throws(() => game.apply('0', { action: 'pass' }), EngineCrashedError);
    game.dispose(); // nothing to free, no error
    assert.ok(game.disposed);
    // restored from its snapshot, in the fresh engine
    const back = rs.restore(TTT, snap);
    assert.equal(back.stateHash(), hash);
    playFirst(back, 1);
    back.dispose();
    // loadEngine gives the same Rulestack, with a live engine
    const again = await loadEngine();
    assert.equal(again, rs);
    assert.notEqual(again.module, dead);
    assert.match(again.version(), /\d+\.\d+/);
  });

  test('a trap in a game call and a stack overflow are crashes too; other errors are not', () => {
    const a = rs.createGame(TTT, { seed: 1 });
    const b = rs.createGame(TTT, { seed: 2 });
    sessionProto(rs.module).apply = () => trap();
    assert.throws(() => a.apply('0', a.legalMoves('0')[0]!), (e: unknown) => e instanceof EngineCrashedError && e.crashedNow && /game\.apply/.test(e.message));
    assert.throws(() => b.view(), (e: unknown) => e instanceof EngineCrashedError && !e.crashedNow); // same instance
    a.dispose();
    b.dispose();
    const c = rs.createGame(TTT, { seed: 3 }); // a fresh instance: its Session.apply is the engine's
    c.apply('0', c.legalMoves('0')[0]!);
    const restarts = rs.restarts;
    rs.module.runScenario = () => recurse();
    assert.throws(() => rs.runScenario({}), (e: unknown) => e instanceof EngineCrashedError && e.cause instanceof RangeError);
    assert.equal(rs.restarts, restarts); // restarted lazily, on the next call
    assert.throws(() => c.view(), EngineCrashedError);
    c.dispose();
    assert.equal(rs.runScenario({ game: parseYaml(TTT), seed: 1, steps: [] }).ok, true);
    assert.equal(rs.restarts, restarts + 1);
    // an error that is no crash leaves the instance alone
    const m = rs.module;
    const real = m.validateDefinition;
    m.validateDefinition = () => {
      throw new TypeError('not a crash');
    };
    assert.throws(() => rs.validate(TTT), (e: unknown) => e instanceof TypeError && !(e instanceof EngineCrashedError));
    m.validateDefinition = real;
    assert.equal(rs.module, m);
    assert.equal(rs.restarts, restarts + 1);
  });

  test('several real traps in a row, each in a fresh instance, then a working game', () => {
    const before = rs.restarts;
    for (let i = 0; i < 5; i++) {
      sessionProto(rs.module).load = () => trap();
      assert.throws(() => rs.createGame(TTT, { seed: i }), EngineCrashedError);
    }
    const game = rs.createGame(TTT, { seed: 1 });
    playFirst(game, 5);
    game.dispose();
    assert.equal(rs.restarts, before + 5);
  });

  test('10,000 traps in a row, then a working createGame of examples/tictactoe.yaml', async () => {
    // Each fresh instance traps in its first call (a stub module: 10,000 real instances would
    // take minutes), until the 10,001st, a real engine.
    const real: EngineModule = await createEngineModule({ wasmBinary: readFileSync(repo('dist/wasm/engine.wasm')) });
    const stub = (): EngineModule => {
      const crash = (): never => {
        throw new WebAssembly.RuntimeError('unreachable');
      };
      return {
        Session: class {
          constructor() {
            crash();
          }
        },
        validateDefinition: crash,
        runScenario: crash,
        simulate: crash,
        languageKeys: crash,
        version: crash,
      } as unknown as EngineModule;
    };
    let started = 0;
    const engine = new Rulestack(stub(), () => (++started < 10_000 ? stub() : real));
    const ttt = parseYaml(TTT) as Record<string, unknown>; // (reading the YAML 10,000 times would be the slow part)
    let crashes = 0;
    for (let i = 0; i < 10_000; i++) {
      try {
        engine.createGame(ttt, { seed: i });
      } catch (e) {
        if (!(e instanceof EngineCrashedError) || !e.crashedNow) throw e;
        crashes++;
      }
    }
    assert.equal(crashes, 10_000);
    assert.equal(engine.restarts, 9_999); // the first stub was there from the start
    const game = engine.createGame(TTT, { seed: 1 });
    assert.equal(engine.restarts, 10_000);
    assert.deepEqual(game.view().toAct, ['0']);
    assert.equal(game.legalMoves('0').length, 9);
    playFirst(game, 9);
    assert.notEqual(game.view().result, null);
    game.dispose();
  });

  test("the engine's out of memory (its answer to load, restore, validate, simulate) is a RangeError, not the input's fault", () => {
    // the engine's answer when an allocation fails (tests/memory_test.cpp makes it fail for real)
    const oom = (what: string) => JSON.stringify({ errors: [{ path: '', message: `${what}: the engine is out of memory` }], outOfMemory: true });
    const engine = new Rulestack({
      Session: class {
        load = () => oom('createGame');
        restore = () => oom('restore');
        delete() {}
      },
      validateDefinition: () => oom('validate'),
      simulate: () => oom('simulate'),
    } as unknown as EngineModule);
    const ttt = parseYaml(TTT) as Record<string, unknown>;
    const isOom = (what: string) => (e: unknown) => e instanceof RangeError && e.message === `rulestack: ${what}: the engine is out of memory`;
    assert.throws(() => engine.createGame(ttt, { seed: 1 }), isOom('createGame'));
    assert.throws(() => engine.restore(ttt, '{}'), isOom('restore'));
    assert.throws(() => engine.validate(ttt), isOom('validate'));
    assert.throws(() => engine.simulate(ttt, { games: 1 }), isOom('simulate'));
  });

  test('without a way to restart, a crash is final and says so', () => {
    const engine = new Rulestack({ version: () => trap() } as unknown as EngineModule);
    assert.throws(() => engine.version(), (e: unknown) => e instanceof EngineCrashedError && e.crashedNow);
    assert.throws(() => engine.version(), (e: unknown) => e instanceof EngineCrashedError && /await loadEngine\(\)/.test(e.message));
  });
});

// ------------------------------------------------------------------ 3. the log of a long game

describe('the log of a long game', () => {
  test('logLimit keeps the last events; dropped counts the others, for every reader', () => {
    const full = rs.createGame(ENDLESS_YAML, { seed: 1 });
    const kept = rs.createGame(ENDLESS_YAML, { seed: 1, logLimit: 50 });
    try {
      assert.equal(kept.logLimit, 50);
      assert.equal(full.logLimit, 100_000);
      for (let i = 0; i < 300; i++) {
        playFirst(full, 1);
        playFirst(kept, 1);
        if (i % 37 !== 0) continue;
        const all = full.log();
        const some = kept.log();
        assert.equal(all.dropped, 0);
        assert.equal(some.length, Math.min(50, all.length));
        assert.equal(some.dropped, all.length - some.length);
        assert.deepEqual(some, all.slice(all.length - some.length));
        assert.deepEqual(kept.log('1'), full.log('1').slice(-some.length));
        assert.equal(kept.log(null).dropped, some.dropped);
      }
      assert.equal(kept.stateHash(), full.stateHash());
      // undo takes a move's events off the log, as in the full game; those dropped before do
      // not come back: the log holds fewer than logLimit then
      const droppedBefore = kept.log().dropped;
      for (let i = 0; i < 3; i++) {
        assert.ok(full.undo());
        assert.ok(kept.undo());
        const all = full.log();
        const some = kept.log();
        assert.equal(some.length + some.dropped, all.length);
        assert.deepEqual(some, all.slice(all.length - some.length));
        assert.equal(some.dropped, droppedBefore);
      }
      assert.ok(kept.log().length < 50);
      playFirst(full, 1);
      playFirst(kept, 1);
      assert.deepEqual(kept.log(), full.log().slice(Math.max(droppedBefore, full.log().length - 50)));
      // a restored game has the default limit
      const back = rs.restore(ENDLESS_YAML, kept.snapshot());
      assert.equal(back.logLimit, 100_000);
      back.dispose();
    } finally {
      full.dispose();
      kept.dispose();
    }
  });

  test('undone far enough, the log is empty: the events it had dropped do not come back', () => {
    const game = rs.createGame(TTT, { seed: 1, logLimit: 5 });
    try {
      const setup = game.log().length + game.log().dropped; // the events of the game's start
      game.apply('0', { action: 'Mark', targets: ['NW'] });
      game.apply('1', { action: 'Mark', targets: ['C'] });
      assert.equal(game.log().length, 5);
      assert.ok(game.undo() && game.undo());
      // (before: the last 5 of the start's events came back)
      assert.deepEqual([...game.log()], []);
      assert.equal(game.log().dropped, setup);
      // the next move's events are shown (up to the limit), none of the start's
      const events = game.apply('0', { action: 'Mark', targets: ['SE'] }).length;
      assert.equal(game.log().length, Math.min(5, events));
      assert.equal(game.log().dropped, setup + Math.max(0, events - 5));
    } finally {
      game.dispose();
    }
  });

  test('a bad logLimit is refused', () => {
    for (const bad of [0, -1, 1.5, 10_000_001, Number.NaN]) {
      assert.throws(() => rs.createGame(TTT, { logLimit: bad }), RangeError, String(bad));
    }
    assert.throws(() => rs.createGame(TTT, { logLimit: '10' as unknown as number }), TypeError);
    rs.createGame(TTT, { logLimit: 1 }).dispose();
    rs.createGame(TTT, { logLimit: 10_000_000 }).dispose();
  });

  test('past 100,000 events the log keeps the last 100,000, and the heap stops growing', () => {
    const game = rs.createGame(ENDLESS_YAML, { seed: 3 });
    const heap = () => (rs.module as unknown as { HEAP8: Int8Array }).HEAP8.buffer.byteLength;
    try {
      const move: Move = { action: 'Noop' };
      const who = game.view().toAct[0]!;
      for (let i = 0; i < 30_000; i++) game.apply(who, move); // 5 events a move
      const log = game.log();
      assert.equal(log.length, 100_000);
      assert.equal(log.dropped, 4 + 30_000 * 5 - 100_000);
      const atStart = heap();
      for (let i = 0; i < 30_000; i++) game.apply(who, move);
      assert.equal(game.log().length, 100_000);
      assert.equal(heap(), atStart, 'the heap grew');
    } finally {
      game.dispose();
    }
  });
});

// ------------------------------------------------------------------ 4. the command lines

describe('command lines: files and numbers', () => {
  let dir: string;
  const node = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  const native = (...args: string[]) => spawnSync(NATIVE, args, { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  const steps = [{ player: '0', move: { action: 'Mark', targets: ['C'] } }, { expect: '$players[0].r1 == 1' }];

  before(() => {
    assert.ok(existsSync(NATIVE), `${NATIVE} is missing (node scripts/build.mjs native)`);
    dir = mkdtempSync(path.join(tmpdir(), 'rulestack-reliability-'));
    const tttJson = JSON.stringify(parseYaml(TTT));
    writeFileSync(path.join(dir, 'ttt.json'), tttJson);
    writeFileSync(path.join(dir, 'big.json'), ' '.repeat(16 * 1024 * 1024 + 1));
    mkdirSync(path.join(dir, 'scen', 'games', 'folder'), { recursive: true });
    writeFileSync(path.join(dir, 'scen', 'games', 'ttt.json'), tttJson);
    writeFileSync(path.join(dir, 'scen', 'games', 'big.json'), ' '.repeat(16 * 1024 * 1024 + 1));
    symlinkSync(path.join(dir, 'ttt.json'), path.join(dir, 'scen', 'games', 'link.json'));
    spawnSync('mkfifo', [path.join(dir, 'scen', 'games', 'fifo.json')]);
    const scenario = (name: string, game: string) =>
      writeFileSync(path.join(dir, 'scen', `${name}.json`), JSON.stringify({ name, game, seed: 1, steps }));
    scenario('below', 'games/ttt.json');
    scenario('parent', '../ttt.json');
    scenario('absolute', path.join(dir, 'ttt.json'));
    scenario('devzero', '/dev/zero');
    scenario('folder', 'games/folder');
    scenario('link', 'games/link.json');
    scenario('fifo', 'games/fifo.json');
    scenario('big', 'games/big.json');
    writeFileSync(path.join(dir, 'err.json'), JSON.stringify({
      name: 'Err', players: { count: 2 }, zones: [{ name: 'Pile' }],
      actions: [{ name: 'Go', mutations: [{ operation: 'MoveZone', target: '$player.current', destination: '$player.current.zone' }] }],
      flow: { phases: [{ name: 'Main', valid_actions: ['Go'] }] }, end_conditions: [],
    }));
    writeFileSync(path.join(dir, 'warn.json'), JSON.stringify({
      name: 'Warn', players: { count: 2 }, zones: [{ name: 'Pile' }],
      actions: [{ name: 'Go', condition: '$player.current.ready == null', mutations: [{ operation: '=', target: '$player.current', property: 'ready', value: true }] }],
      flow: { phases: [{ name: 'Main', valid_actions: ['Go'] }] }, end_conditions: [],
    }));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const scen = (name: string) => path.join('scen', `${name}.json`);

  for (const [cli, run] of [['rulestack', node], ['rulestack-native', native]] as const) {
    test(`${cli} validate: warnings are printed, and the game is still valid (exit 0)`, () => {
      const r = run('validate', 'warn.json');
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'ok\n');
      assert.equal(r.stderr, "warning: warn.json: /actions/0/condition: at column 17: property 'ready' has no declared default: " +
        "it reads null until a mutation sets it (declare it in a template's or the players' properties)\n");
    });

    test(`${cli} simulate: each game that ended in an engine error is listed with its seed and message`, () => {
      const r = run('simulate', 'err.json', '--games', '3', '--seed', '10');
      assert.equal(r.status, 1);
      for (const [game, seed] of [[1, 10], [2, 11], [3, 12]])
        assert.match(r.stderr, new RegExp(`^simulate: game ${game} \\(seed ${seed}\\): /actions/0/mutations/0: destination is not a zone`, 'm'));
      assert.match(r.stderr, /simulate: 3 game\(s\) ended in an engine error\n/);
      const j = JSON.parse(run('simulate', 'err.json', '--games', '7', '--batch', '3', '--seed', '5', '--json').stdout);
      assert.equal(j.errors, 7);
      assert.equal(j.ok, false);
      assert.deepEqual(j.errorDetails.map((d: { game: number; seed: number }) => [d.game, d.seed]), [1, 2, 3, 4, 5, 6, 7].map((g) => [g, g + 4]));
    });

    test(`${cli} simulate --max-moves: games still on after that many moves are unfinished`, () => {
      // (tic-tac-toe has no win before its fifth move)
      const text = run('simulate', 'ttt.json', '--games', '6', '--max-moves', '4', '--json').stdout;
      // whole numbers written as JSON.stringify writes them (no "4.0")
      assert.match(text, /"meanLength":4,.*"winRates":\{"0":0,"1":0\},"draws":0,"drawRate":0,/);
      const j = JSON.parse(text);
      assert.deepEqual([j.ok, j.games, j.moves, j.unfinished, j.draws, j.maxMoves, j.meanLength], [true, 6, 24, 6, 0, 4, 4]);
      assert.deepEqual(j.wins, { '0': 0, '1': 0 });
      const m = JSON.parse(run('simulate', 'ttt.json', '--games', '2', '--bot', 'mcts', '--iterations', '5', '--max-moves', '3', '--json').stdout);
      assert.deepEqual([m.moves, m.unfinished, m.maxMoves], [6, 2, 3]);
      const human = run('simulate', 'ttt.json', '--games', '6', '--max-moves', '4');
      assert.match(human.stdout, /^unfinished {3}100\.0% \(6\)$/m);
      for (const bad of ['0', '100001', '2.5']) {
        const r = run('simulate', 'ttt.json', '--max-moves', bad);
        assert.equal(r.status, 2, bad);
        assert.match(r.stderr, /--max-moves must be an integer from 1 to 100000/);
      }
    });

    test(`${cli} test: a scenario's game is read from the scenario's folder or below it only`, () => {
      const ok = run('test', scen('below'));
      assert.equal(ok.status, 0, ok.stdout + ok.stderr);
      assert.equal(ok.stdout, 'PASS below\n');
      const outside = /is outside the scenario's folder scen \(a scenario's game must be in its folder or below it; --root DIR allows the games under DIR\)/;
      for (const name of ['parent', 'absolute', 'devzero', 'link']) {
        const r = run('test', scen(name));
        assert.equal(r.status, 1, `${name}: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, new RegExp(`^FAIL ${name}: game: \\S+ `), name);
        assert.match(r.stdout, outside, name);
      }
      assert.match(run('test', scen('parent')).stdout, /game: ttt\.json is outside/);
      // a path in the working folder or below it is shown relative to it, as given or not
      assert.equal(run('test', scen('absolute')).stdout, "FAIL absolute: game: ttt.json is outside the scenario's folder scen " +
        "(a scenario's game must be in its folder or below it; --root DIR allows the games under DIR)\n");
      assert.match(run('test', scen('devzero')).stdout, /game: \/dev\/zero is outside/);
      // --root widens the folder (here: the one above scen), and lifts no other rule
      const above = run('test', scen('parent'), '--root', '.');
      assert.equal(above.status, 0, above.stdout + above.stderr);
      assert.equal(above.stdout, 'PASS parent\n');
      const any = run('test', scen('parent'), scen('absolute'), scen('link'), '--root', '/');
      assert.equal(any.status, 0, any.stdout + any.stderr);
      assert.equal(any.stdout, 'PASS parent\nPASS absolute\nPASS link\n');
      const zero = run('test', scen('devzero'), '--root', '/');
      assert.equal(zero.status, 1);
      assert.match(zero.stdout, /^FAIL devzero: game: cannot read \/dev\/zero: not a regular file \(only regular files are read\)\n$/);
    });

    test(`${cli} test: a folder, a FIFO, a file over 16 MiB are refused, each with its reason`, () => {
      const cases: Array<[string, RegExp]> = [
        ['folder', /^FAIL folder: game: cannot read \S*games\/folder: is a directory\n$/],
        ['fifo', /^FAIL fifo: game: cannot read \S*games\/fifo\.json: not a regular file \(only regular files are read\)\n$/],
        ['big', /^FAIL big: game: cannot read \S*games\/big\.json: larger than 16 MiB \(the most a command reads\)\n$/],
      ];
      for (const [name, message] of cases) {
        const r = run('test', scen(name));
        assert.equal(r.status, 1, `${name}: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, message, name);
      }
    });

    test(`${cli} test: a folder runs the scenarios under it (steps or game), skips the games, and none is a failure`, () => {
      const folder = path.join('found', cli);
      mkdirSync(path.join(dir, folder, 'games'), { recursive: true });
      writeFileSync(path.join(dir, folder, 'games', 'ttt.json'), JSON.stringify(parseYaml(TTT)));
      writeFileSync(path.join(dir, folder, 'a.json'), JSON.stringify({ name: 'a', game: 'games/ttt.json', seed: 1, steps }));
      writeFileSync(path.join(dir, folder, 'b.json'), JSON.stringify({ name: 'b', game: 'games/ttt.json', seed: 1, step: steps }));
      const r = run('test', folder);
      assert.equal(r.status, 1, r.stderr);
      // the game beside them is no scenario; the one with a typo is, and says what it lacks
      assert.match(r.stdout, /^PASS a\nFAIL b: [^\n]*steps[^\n]*\n$/);
      mkdirSync(path.join(dir, 'empty', cli), { recursive: true });
      const none = run('test', path.join('empty', cli));
      assert.equal(none.status, 1);
      assert.equal(none.stdout, '');
      assert.match(none.stderr, /^test: no scenario in empty\/\S+ \(a scenario is a \.json/);
    });

    test(`${cli} play: --view naming no player is a usage error (exit 2)`, () => {
      const r = run('play', 'ttt.json', '--view', '7');
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr.split('\n')[0]!, /--view: no player "7" \(players: 0, 1\)/);
    });

    test(`${cli}: a GAME that is a device, a folder or too large is refused (exit 2)`, () => {
      const cases: Array<[string, RegExp]> = [
        ['/dev/zero', /cannot read \/dev\/zero: not a regular file \(only regular files are read\)/],
        ['scen', /cannot read scen: is a directory/],
        ['big.json', /cannot read big\.json: larger than 16 MiB/],
        ['scen/games/fifo.json', /cannot read scen\/games\/fifo\.json: not a regular file/],
      ];
      for (const [file, message] of cases) {
        const r = run('validate', file);
        assert.equal(r.status, 2, `${file}: ${r.stderr}`);
        assert.match(r.stderr, message, file);
      }
      const moves = run('play', 'ttt.json', '--moves', '/dev/zero');
      assert.equal(moves.status, 2);
      assert.match(moves.stderr, /cannot read \/dev\/zero: not a regular file/);
    });

    test(`${cli} simulate: numbers out of range are refused, never wrapped`, () => {
      const cases: Array<[string[], RegExp]> = [
        [['--iterations', '3000000000'], /--iterations must be an integer from 1 to 100000, not 3000000000/],
        [['--iterations', '4294967297'], /--iterations must be an integer from 1 to 100000, not 4294967297/],
        [['--games', '3000000000'], /--games must be an integer from 1 to 1000000, not 3000000000/],
        [['--batch', '3000000000'], /--batch must be an integer from 1 to 1000000, not 3000000000/],
        [['--seed', '99999999999999999999'], /--seed must be an integer from 0 to \d+, not 99999999999999999999/],
        [['--seed', '-1'], /--seed must be an integer from 0 to \d+, not -1/],
      ];
      for (const [args, message] of cases) {
        const r = run('simulate', 'ttt.json', ...args);
        assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr.split('\n')[0]!, message, args.join(' '));
        assert.equal(r.stdout, '');
      }
      // the MCTS budget: with random bots there is none to give
      const random = run('simulate', 'ttt.json', '--games', '2', '--iterations', '5');
      assert.equal(random.status, 2);
      assert.match(random.stderr.split('\n')[0]!, /--iterations is an MCTS budget: give it with --bot mcts, or with a level/);
      const ok = run('simulate', 'ttt.json', '--games', '2', '--bot', 'mcts', '--iterations', '3', '--json');
      assert.equal(ok.status, 0, ok.stderr);
      assert.equal(JSON.parse(ok.stdout).iterations, 3);
      assert.equal(JSON.parse(ok.stdout).ok, true);
    });
  }

  test('rulestack-native hashes: --games and --seed are range-checked too', () => {
    const r = native('hashes', 'ttt.json', '--games', '3000000000');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--games must be an integer from 1 to 1000000, not 3000000000/);
  });
});
