// A developer's bad input is refused up front with an error that starts `rulestack:` and says
// what was wrong and where, before anything is done: simulateParallel's onProgress, rs.bot's
// game, omniscient, level and kind, createGame's and a bot's seeds, runScenario's seed.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { loadEngine, Game, type Rulestack, type BotOptions, type ParallelSimulateOptions } from '../index.js';
import { TIC_TAC_TOE_YAML } from './fixtures.js';

const TTT = parseYaml(TIC_TAC_TOE_YAML) as Record<string, unknown>;
const DUEL = parseYaml(readFileSync(fileURLToPath(new URL('../../examples/duel.yaml', import.meta.url)), 'utf8')) as Record<string, unknown>;

let rs: Rulestack;
before(async () => {
  rs = await loadEngine();
});

/** The definition, and how often it has been read (0: nothing was done with it). */
function watched(definition: Record<string, unknown>): { definition: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const definition2 = new Proxy(definition, {
    get: (t, k, r) => (reads++, Reflect.get(t, k, r)),
    ownKeys: (t) => (reads++, Reflect.ownKeys(t)),
    getOwnPropertyDescriptor: (t, k) => (reads++, Reflect.getOwnPropertyDescriptor(t, k)),
  });
  return { definition: definition2, reads: () => reads };
}

/** Runs `body` with the module's `name` call counted; the count. */
async function counting(name: 'simulate' | 'runScenario', body: () => unknown): Promise<number> {
  const m = rs.module as unknown as Record<string, (...a: unknown[]) => unknown>;
  const real = m[name]!;
  let calls = 0;
  m[name] = (...a: unknown[]) => (calls++, real.apply(m, a));
  try {
    await body();
  } finally {
    m[name] = real;
  }
  return calls;
}

/** A game of tic-tac-toe; after `body`, its state and log are checked unchanged. */
function unchanged(body: (game: Game) => void): void {
  const game = rs.createGame(TTT, { seed: 3 });
  try {
    game.apply('0', game.legalMoves('0')[0]!);
    const hash = game.stateHash();
    const events = game.log().length;
    body(game);
    assert.equal(game.stateHash(), hash);
    assert.equal(game.log().length, events);
  } finally {
    game.dispose();
  }
}

describe('simulateParallel: onProgress', () => {
  test('anything but a function is a TypeError before a game is played or the definition read', async () => {
    for (const [onProgress, shown] of [[5, '5'], ['log', '"log"'], [{}, '{}'], [true, 'true'], [[], '[]']] as const) {
      for (const workers of [1, 2]) {
        const { definition, reads } = watched(TTT);
        const calls = await counting('simulate', () =>
          assert.rejects(rs.simulateParallel(definition, { games: 4, seed: 1, workers, onProgress } as unknown as ParallelSimulateOptions), {
            name: 'TypeError',
            message: `rulestack: simulateParallel: onProgress must be a function, not ${shown}`,
          }),
        );
        assert.equal(calls, 0, `workers ${workers}: no engine call`);
        assert.equal(reads(), 0, `workers ${workers}: the definition not read`);
      }
    }
  });

  test('a function is called after each batch; null or undefined is none', async () => {
    const seen: number[] = [];
    const r = await rs.simulateParallel(TTT, { games: 4, seed: 1, workers: 1, batch: 2, onProgress: (done) => seen.push(done) });
    assert.deepEqual(seen, [2, 4]);
    for (const onProgress of [null, undefined])
      assert.deepEqual(await rs.simulateParallel(TTT, { games: 4, seed: 1, workers: 1, batch: 2, onProgress } as ParallelSimulateOptions), r);
  });
});

describe('rs.bot: the game, omniscient, level and kind', () => {
  test('a game that is not one of the package\'s is a TypeError that says what it was, and is not used', () => {
    const { definition: fake, reads } = watched({ players: ['0', '1'], disposed: false, view: () => null });
    const cases: Array<[unknown, string]> = [
      [undefined, 'undefined'],
      [null, 'null'],
      [5, '5'],
      ['game', '"game"'],
      [[], 'an array'],
      [{}, 'a plain object'],
      [fake, 'a plain object'],
      [rs, 'a Rulestack'],
      [Object.create(Game.prototype), 'an object made from Game.prototype (not by createGame or restore)'],
    ];
    for (const [game, shown] of cases) {
      assert.throws(() => rs.bot(game as Game, { level: 'easy' }), {
        name: 'TypeError',
        message: `rulestack: bot: game must be a Game from createGame or restore, not ${shown}`,
      });
    }
    assert.equal(reads(), 0, 'the object that is no game is not read');
    // a disposed game: as every call on it
    const game = rs.createGame(TTT, { seed: 1 });
    game.dispose();
    assert.throws(() => rs.bot(game), { name: 'Error', message: 'rulestack: this game has been disposed' });
  });

  test('omniscient is true or false, else a TypeError; nothing is done', () => {
    unchanged((game) => {
      for (const [omniscient, shown] of [[1, '1'], ['true', '"true"'], [null, 'null'], [{}, '{}'], [0n, '0n']] as const) {
        assert.throws(() => rs.bot(game, { kind: 'random', omniscient } as unknown as BotOptions), {
          name: 'TypeError',
          message: `rulestack: bot: omniscient must be true or false, not ${shown}`,
        });
      }
      for (const omniscient of [true, false, undefined]) assert.equal(rs.bot(game, { omniscient }).options.omniscient, omniscient);
    });
  });

  test("a level or kind it does not have is a RangeError, as simulate's bot is", () => {
    assert.throws(() => rs.simulate(TTT, { games: 1, bot: 'expert' as 'hard' }), {
      name: 'RangeError',
      message: 'rulestack: invalid bot: "expert" (random, mcts, easy, normal, hard)',
    });
    unchanged((game) => {
      for (const [level, shown] of [['expert', '"expert"'], ['Easy', '"Easy"'], [3, '3'], [null, 'null'], [1n, '1n']] as const) {
        assert.throws(() => rs.bot(game, { level } as unknown as BotOptions), {
          name: 'RangeError',
          message: `rulestack: invalid level: ${shown} (easy, normal, hard)`,
        });
      }
      for (const [kind, shown] of [['minimax', '"minimax"'], ['MCTS', '"MCTS"'], [3, '3'], [null, 'null']] as const) {
        assert.throws(() => rs.bot(game, { kind } as unknown as BotOptions), {
          name: 'RangeError',
          message: `rulestack: invalid kind: ${shown} (random, mcts)`,
        });
      }
    });
  });
});

describe('seeds', () => {
  test("createGame's seed that is not one is a TypeError in the package's form, before the definition is read", () => {
    const cases: Array<[unknown, string]> = [
      [1.9, 'invalid seed: 1.9 (a seed is a safe integer, a bigint or a string: not an integer)'],
      [2 ** 53, 'invalid seed: 9007199254740992 (a seed is a safe integer, a bigint or a string: beyond 2^53 a number is not exact, pass a bigint or a string)'],
      [NaN, 'invalid seed: NaN (a seed is a safe integer, a bigint or a string: not an integer)'],
      [2n ** 63n, 'invalid seed: 9223372036854775808n (a bigint seed is from -2^63 to 2^63-1)'],
      [true, 'invalid seed: true (a seed is an integer or a string)'],
    ];
    for (const [seed, message] of cases) {
      const { definition, reads } = watched(TTT);
      assert.throws(() => rs.createGame(definition, { seed: seed as number }), { name: 'TypeError', message: `rulestack: ${message}` });
      assert.equal(reads(), 0, String(seed));
    }
  });

  test("a bot's seed that is not one: the same form", () => {
    unchanged((game) => {
      assert.throws(() => rs.bot(game, { seed: 1.5 }), {
        name: 'TypeError',
        message: 'rulestack: invalid bot seed: 1.5 (a bot seed is a safe integer or a bigint: not an integer)',
      });
      assert.throws(() => rs.bot(game, { seed: '7' as unknown as number }), {
        name: 'TypeError',
        message: 'rulestack: invalid bot seed: 7 (a bot seed is a safe integer or a bigint)',
      });
      assert.throws(() => rs.bot(game, { seed: -(2n ** 63n) - 1n }), {
        name: 'TypeError',
        message: 'rulestack: invalid seed: -9223372036854775809n (a bigint seed is from -2^63 to 2^63-1)',
      });
    });
  });

  test("runScenario takes a bigint seed as createGame does: in range it is that integer's game, else createGame's TypeError", async () => {
    const steps = [{ expect: "$players[0].zone.@Hand.count == 6" }];
    const asNumber = rs.runScenario({ game: DUEL, seed: 5, steps });
    assert.equal(asNumber.ok, true, JSON.stringify(asNumber.failures));
    assert.deepEqual(rs.runScenario({ game: DUEL, seed: 5n, steps }), asNumber);
    // a seed beyond 2^53 deals as createGame deals it
    for (const seed of [2n ** 62n + 1n, -(2n ** 63n), 2n ** 63n - 1n]) {
      const game = rs.createGame(DUEL, { seed });
      const hand = game.view('0').zones['Hand:0'];
      game.dispose();
      const r = rs.runScenario({ game: DUEL, seed, steps: [{ expect: { path: '/zones/Hand:0', value: hand } }] });
      assert.deepEqual(r, { ok: true, steps: 1, failures: [] }, String(seed));
    }
    // out of range: createGame's error, and the engine is not called
    for (const seed of [2n ** 63n, -(2n ** 63n) - 1n]) {
      const calls = await counting('runScenario', () =>
        assert.throws(() => rs.runScenario({ game: DUEL, seed, steps }), {
          name: 'TypeError',
          message: `rulestack: invalid seed: ${seed}n (a bigint seed is from -2^63 to 2^63-1)`,
        }),
      );
      assert.equal(calls, 0);
    }
  });
});

describe('boolean options: true or false, else a TypeError', () => {
  test("loadEngine's yaml", async () => {
    for (const [yaml, shown] of [['no', '"no"'], [0, '0'], [1, '1'], [null, 'null'], ['false', '"false"']] as const) {
      await assert.rejects(loadEngine({ yaml: yaml as unknown as boolean }), {
        name: 'TypeError',
        message: `rulestack: loadEngine: yaml must be true or false, not ${shown}`,
      });
    }
    assert.equal(await loadEngine({ yaml: false }), rs);
  });

  test("game.setTrace's on (left out too); nothing is changed", () => {
    const game = rs.createGame(TTT, { seed: 1 });
    game.setTrace(true);
    for (const [on, shown] of [['yes', '"yes"'], [undefined, 'undefined'], [1, '1'], [null, 'null']] as const) {
      assert.throws(() => (game.setTrace as (on?: unknown) => void)(...(on === undefined ? [] : [on])), {
        name: 'TypeError',
        message: `rulestack: setTrace: on must be true or false, not ${shown}`,
      });
    }
    game.apply('0', game.legalMoves('0')[0]!);
    assert.ok(game.steps().length > 0, 'tracing is still on');
    game.setTrace(false);
    game.undo();
    game.apply('0', game.legalMoves('0')[0]!);
    assert.deepEqual(game.steps(), []);
    game.dispose();
  });
});

describe('runScenario: what fails before it runs', () => {
  const steps = [{ expect: '$turn == 1' }];
  test('a scenario that contains itself is a DefinitionError, as such a definition is in createGame; nothing runs', async () => {
    const scenario: Record<string, unknown> = { game: DUEL, seed: 1, steps };
    scenario.again = scenario;
    const inGame: Record<string, unknown> = { ...DUEL };
    inGame.self = inGame;
    for (const s of [scenario, { game: inGame, steps }, { game: inGame, seed: 5n, steps }]) {
      const calls = await counting('runScenario', () =>
        assert.throws(() => rs.runScenario(s), {
          name: 'DefinitionError',
          message: 'invalid scenario: the scenario contains itself (an object that holds itself): it cannot be read as JSON',
        }),
      );
      assert.equal(calls, 0);
    }
    // (a definition that contains itself, for comparison)
    assert.throws(() => rs.createGame(inGame), { name: 'DefinitionError', message: /^invalid definition: \/: the definition contains itself/ });
  });

  test("a game given as text (a path, YAML) says that runScenario takes the definition itself", () => {
    for (const game of ['../examples/duel.yaml', 'name: T\nplayers: { count: 2 }\n']) {
      for (const s of [{ game, steps }, JSON.stringify({ game, steps })]) {
        const r = rs.runScenario(s);
        assert.equal(r.ok, false);
        assert.deepEqual(r.failures, [{
          message: "the scenario's game is text: runScenario takes an inline definition (an object: for YAML or JSON text, rs.parse(text).value), not a path or text (`rulestack test` reads a game's path)",
          step: -1,
        }]);
      }
    }
  });

  test("an inline game's error at its top shows no empty path", () => {
    const r = rs.runScenario({ game: { name: 'x' }, steps });
    assert.equal(r.ok, false);
    assert.ok(r.failures.length > 0);
    for (const f of r.failures) {
      assert.equal(f.step, -1);
      assert.doesNotMatch(f.message, /: : /);
    }
    assert.ok(r.failures.some((f) => f.message === "game definition: missing required key 'players'"), JSON.stringify(r.failures));
    // a deeper error keeps its path
    const deeper = rs.runScenario({ game: { ...DUEL, zones: [{ name: 7 }] }, steps });
    assert.match(deeper.failures[0]!.message, /^game definition: \/zones\/0/);
  });

  test('a key a scenario does not have (stepz) is its failure, as in the CLI; no step runs', () => {
    for (const s of [{ game: DUEL, seed: 1, steps, stepz: [] }, JSON.stringify({ name: 'n', game: DUEL, steps, stepz: [] })])
      assert.deepEqual(rs.runScenario(s), {
        failures: [{ message: "unknown key 'stepz' in the scenario (keys: name, game, seed, steps)", step: -1 }],
        ok: false,
        steps: 0,
      });
    assert.equal(rs.runScenario({ name: 'n', game: DUEL, seed: 1, steps }).ok, true);
  });
});

describe('game.on', () => {
  test('an unknown event name (one an object has too: toString) or a callback that is not a function is refused; nothing is subscribed', () => {
    unchanged((game) => {
      const on = game.on as (name: string, cb: unknown) => () => void;
      for (const name of ['moves', 'toString', '__proto__']) {
        assert.throws(() => on.call(game, name, () => {}), { name: 'RangeError', message: `rulestack: invalid game event: "${name}" (event, move, undo)` });
      }
      assert.throws(() => on.call(game, 'move', 'log'), { name: 'TypeError', message: 'rulestack: on: callback must be a function, not "log"' });
      // a real one still hears the next move
      const heard: string[] = [];
      const off = game.on('move', (m) => heard.push(m.player));
      game.apply('1', game.legalMoves('1')[0]!);
      off();
      game.undo();
      assert.deepEqual(heard, ['1']);
    });
  });
});
