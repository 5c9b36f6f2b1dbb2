// The package API against the wasm engine (node:test). Run from the repo root after the build:
//   node --test dist/test/
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { loadEngine, DefinitionError, IllegalMoveError, SnapshotError, Game, type Rulestack, type Move, type GameDefinition, type SimulateOptions } from '../index.js';
import { TIC_TAC_TOE_YAML, BAD_DEFINITION_YAML, SYNTAX_ERROR_YAML, WARNING_YAML, WINNING_MOVES } from './fixtures.js';

const TTT_OBJECT = parseYaml(TIC_TAC_TOE_YAML) as Record<string, unknown>;
const TTT_JSON = JSON.stringify(TTT_OBJECT, null, 2);

const MINIMAL_YAML = `name: Minimal
players: { count: 2 }
zones: [ { name: Board } ]
flow:
  phases: [ { name: Main, valid_actions: [Noop] } ]
actions:
  - name: Noop
    mutations: []
`;

let rs: Rulestack;
before(async () => {
  rs = await loadEngine();
});

function placeMoves(moves: Move[]): Move[] {
  return moves.filter((m) => 'action' in m && m.action === 'Place');
}

describe('loading', () => {
  test('loadEngine instantiates once', async () => {
    const again = await loadEngine();
    assert.equal(again, rs);
    assert.match(rs.version(), /\d+\.\d+/);
  });

  test('a game from YAML text', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const v = game.view();
      assert.ok(Array.isArray(v.players));
      assert.deepEqual(
        v.players.map((p) => p.id),
        ['0', '1'],
      );
      assert.deepEqual(v.toAct, ['0']);
      assert.equal(v.result, null);
      assert.ok(Array.isArray(v.queue));
      assert.equal(typeof v.zones, 'object');
    } finally {
      game.dispose();
    }
  });

  test('JSON text, object and YAML give the same game', () => {
    const a = rs.createGame(TIC_TAC_TOE_YAML, { seed: 3 });
    const b = rs.createGame(TTT_JSON, { seed: 3 });
    const c = rs.createGame(TTT_OBJECT, { seed: 3 });
    try {
      assert.match(a.stateHash(), /^[0-9a-f]{16}$/);
      assert.equal(a.stateHash(), b.stateHash());
      assert.equal(a.stateHash(), c.stateHash());
      assert.deepEqual(a.view(), c.view());
    } finally {
      a.dispose();
      b.dispose();
      c.dispose();
    }
  });

  test('a typed GameDefinition object (the minimal game of language.md)', () => {
    const minimal: GameDefinition = {
      name: 'Minimal',
      players: { count: 2 },
      zones: [{ name: 'Board' }],
      flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] },
      actions: [{ name: 'Noop', mutations: [] }],
    };
    assert.deepEqual(rs.validate(minimal), []);
    const game = rs.createGame(minimal);
    try {
      const moves = game.legalMoves('0');
      assert.ok(moves.some((m) => 'action' in m && m.action === 'Noop'), JSON.stringify(moves));
    } finally {
      game.dispose();
    }
  });

  test('validate: a valid game has no errors', () => {
    assert.deepEqual(rs.validate(TIC_TAC_TOE_YAML), []);
    assert.deepEqual(rs.validate(TTT_OBJECT), []);
  });
});

describe('definition errors', () => {
  test('check(): errors and warnings apart; warnings have their YAML line/column and the game still loads', () => {
    const yaml = WARNING_YAML;
    const r = rs.check(yaml);
    assert.deepEqual(r.errors, []);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.path, '/actions/0/condition');
    assert.match(r.warnings[0]!.message, /^at column 17: property 'ready' has no declared default/);
    assert.equal(r.warnings[0]!.line, 5);
    // at the character the column names: 'ready' ("    condition: " is 15 characters, then 17)
    assert.equal(r.warnings[0]!.column, 15 + 17);
    assert.deepEqual(rs.validate(yaml), []); // validate: errors only
    rs.createGame(yaml, { seed: 1 }).dispose();
    // a definition with errors: its errors, no warnings
    const bad = rs.check(BAD_DEFINITION_YAML);
    assert.ok(bad.errors.length > 0);
    assert.deepEqual(bad.warnings, []);
    // a syntax error: the same
    assert.ok(rs.check(SYNTAX_ERROR_YAML).errors[0]!.message.startsWith('YAML syntax error'));
  });

  test('YAML syntax error → DefinitionError with line/column', () => {
    assert.throws(
      () => rs.createGame(SYNTAX_ERROR_YAML),
      (e: unknown) => {
        assert.ok(e instanceof DefinitionError);
        assert.ok(e.errors.length >= 1);
        const first = e.errors[0]!;
        assert.equal(typeof first.line, 'number');
        assert.equal(typeof first.column, 'number');
        assert.ok(first.line! >= 3, `line ${first.line}`);
        assert.match(first.message, /YAML/);
        return true;
      },
    );
    const errs = rs.validate(SYNTAX_ERROR_YAML);
    assert.ok(errs.length >= 1 && typeof errs[0]!.line === 'number');
  });

  test('JSON syntax error → DefinitionError', () => {
    assert.throws(() => rs.createGame('{"name": "x",'), DefinitionError);
  });

  test('a definition that is not an object', () => {
    assert.throws(() => rs.createGame('- just\n- a list\n'), DefinitionError);
    assert.throws(() => rs.createGame([] as unknown as Record<string, unknown>), DefinitionError);
  });

  test('engine errors get YAML line/column from their JSON pointer', () => {
    let err: DefinitionError | undefined;
    try {
      rs.createGame(BAD_DEFINITION_YAML).dispose();
    } catch (e) {
      if (e instanceof DefinitionError) err = e;
      else throw e;
    }
    assert.ok(err, 'expected a DefinitionError');
    const unknownKey = err.errors.find((x) => x.path === '/flwo');
    assert.ok(unknownKey, `no error at /flwo in ${JSON.stringify(err.errors)}`);
    assert.equal(unknownKey.line, 7);
    assert.equal(unknownKey.column, 1);
    const badOp = err.errors.find((x) => x.path.startsWith('/actions/0/mutations/0'));
    assert.ok(badOp, `no error under /actions/0/mutations/0 in ${JSON.stringify(err.errors)}`);
    assert.equal(badOp.line, 5);
    // validate() reports the same list and never throws
    const errs = rs.validate(BAD_DEFINITION_YAML);
    assert.deepEqual(errs, err.errors);
  });

  test('errors for object input have a path but no line', () => {
    const def = { ...TTT_OBJECT, flwo: 1 };
    const errs = rs.validate(def);
    const e = errs.find((x) => x.path === '/flwo');
    assert.ok(e, JSON.stringify(errs));
    assert.equal(e.line, undefined);
  });
});

describe('playing', () => {
  test('legal moves: only the player to act has moves, each fully specified', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const moves = placeMoves(game.legalMoves('0'));
      assert.equal(moves.length, 9);
      for (const m of moves) {
        assert.ok('targets' in m && Array.isArray(m.targets) && m.targets.length === 1);
      }
      assert.deepEqual(game.legalMoves('1'), []);
      // numbers are accepted as player ids
      assert.deepEqual(game.legalMoves(0), game.legalMoves('0'));
    } finally {
      game.dispose();
    }
  });

  test('apply returns the events and passes the turn', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const before = game.stateHash();
      const events = game.apply('0', { action: 'Place', targets: ['c4'] });
      assert.ok(Array.isArray(events) && events.length > 0);
      for (const ev of events) assert.equal(typeof ev.type, 'string');
      assert.notEqual(game.stateHash(), before);
      assert.deepEqual(game.view().toAct, ['1']);
      assert.equal(placeMoves(game.legalMoves('1')).length, 8);
      assert.ok(game.log().length >= events.length);
    } finally {
      game.dispose();
    }
  });

  test('an illegal move throws IllegalMoveError and changes nothing', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      game.apply('0', { action: 'Place', targets: ['c4'] });
      const hash = game.stateHash();
      const logLength = game.log().length;
      // not their turn
      assert.throws(
        () => game.apply('0', { action: 'Place', targets: ['c0'] }),
        (e: unknown) => {
          assert.ok(e instanceof IllegalMoveError);
          assert.equal(e.reason, 'not_your_priority');
          assert.equal(e.player, '0');
          assert.deepEqual(e.move, { action: 'Place', targets: ['c0'] });
          assert.ok(e.message.length > 0);
          return true;
        },
      );
      // a taken cell
      assert.throws(
        () => game.apply(1, { action: 'Place', targets: ['c4'] }),
        (e: unknown) => e instanceof IllegalMoveError && e.reason === 'bad_target',
      );
      // an unknown action
      assert.throws(
        () => game.apply('1', { action: 'Fly' }),
        (e: unknown) => e instanceof IllegalMoveError && e.reason === 'unknown_action',
      );
      assert.equal(game.stateHash(), hash);
      assert.equal(game.log().length, logLength);
    } finally {
      game.dispose();
    }
  });

  test('a full game ends with a winner', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      for (const { player, move } of WINNING_MOVES) game.apply(player, move);
      assert.deepEqual(game.view().result, { winner: '0' });
      assert.deepEqual(game.view().toAct, []);
      assert.throws(
        () => game.apply('1', { action: 'Place', targets: ['c5'] }),
        (e: unknown) => e instanceof IllegalMoveError && e.reason === 'game_over',
      );
    } finally {
      game.dispose();
    }
  });

  test('undo goes back one move', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const h0 = game.stateHash();
      assert.equal(game.undo(), false);
      game.apply('0', { action: 'Place', targets: ['c0'] });
      const h1 = game.stateHash();
      game.apply('1', { action: 'Place', targets: ['c8'] });
      assert.equal(game.undo(), true);
      assert.equal(game.stateHash(), h1);
      assert.equal(game.undo(), true);
      assert.equal(game.stateHash(), h0);
      assert.deepEqual(game.view().toAct, ['0']);
    } finally {
      game.dispose();
    }
  });

  test('snapshot/restore round trip keeps the hash and the play', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 5 });
    try {
      game.apply('0', { action: 'Place', targets: ['c0'] });
      game.apply('1', { action: 'Place', targets: ['c3'] });
      const snap = game.snapshot();
      assert.equal(typeof snap, 'object');
      const copy = rs.restore(TIC_TAC_TOE_YAML, snap);
      const fromText = rs.restore(TTT_OBJECT, JSON.stringify(snap));
      try {
        assert.equal(copy.stateHash(), game.stateHash());
        assert.equal(fromText.stateHash(), game.stateHash());
        assert.deepEqual(copy.view(), game.view());
        game.apply('0', { action: 'Place', targets: ['c1'] });
        copy.apply('0', { action: 'Place', targets: ['c1'] });
        assert.equal(copy.stateHash(), game.stateHash());
      } finally {
        copy.dispose();
        fromText.dispose();
      }
    } finally {
      game.dispose();
    }
  });

  test('restore: a bad snapshot is a SnapshotError, a bad definition a DefinitionError', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 5 });
    try {
      assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, { not: 'a snapshot' }), SnapshotError);
      // one JSON cannot write (it holds itself, a bigint): a SnapshotError too, not a TypeError
      const held: Record<string, unknown> = { format: 'rulestack-snapshot-1' };
      held.self = held;
      assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, held as never), { name: 'SnapshotError', message: /^invalid snapshot: not JSON-serializable: / });
      assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, { rng: 5n } as never), { name: 'SnapshotError', message: /^invalid snapshot: not JSON-serializable: / });
      assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, '{'), SnapshotError);
      // no snapshot at all: the same (before: embind's BindingError, "Cannot pass non-string")
      assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, undefined as unknown as string), SnapshotError);
      // a format that is not one of the three is refused, not read as YAML
      assert.throws(() => rs.createGame(TIC_TAC_TOE_YAML, { format: 'xml' as 'yaml' }), { name: 'RangeError', message: `rulestack: format must be 'auto', 'json' or 'yaml', not "xml"` });
      assert.throws(() => rs.validate(TIC_TAC_TOE_YAML, { format: 'YAML' as 'yaml' }), RangeError);
      assert.throws(
        () => rs.restore(BAD_DEFINITION_YAML, game.snapshot()),
        (e: unknown) => e instanceof DefinitionError && e.errors.some((x) => x.path === '/flwo' && x.line === 7),
      );
    } finally {
      game.dispose();
    }
  });

  test('events: on("event") sees every event apply returns; unsubscribe works', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const seen: unknown[] = [];
      const moves: unknown[] = [];
      const off = game.on('event', (ev) => seen.push(ev));
      const offMove = game.on('move', (m) => moves.push(m));
      const events = game.apply('0', { action: 'Place', targets: ['c0'] });
      assert.deepEqual(seen, events);
      assert.equal(moves.length, 1);
      assert.deepEqual(moves[0], { player: '0', move: { action: 'Place', targets: ['c0'] }, events });
      off();
      offMove();
      game.apply('1', { action: 'Place', targets: ['c1'] });
      assert.equal(seen.length, events.length);
      assert.equal(moves.length, 1);
      // an illegal move emits nothing
      game.on('event', (ev) => seen.push(ev));
      assert.throws(() => game.apply('1', { action: 'Place', targets: ['c2'] }), IllegalMoveError);
      assert.equal(seen.length, events.length);
    } finally {
      game.dispose();
    }
  });

  test('a listener that throws: every other listener still hears of the move, then apply (or undo) throws its error, the move made', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      const before = game.stateHash();
      const boom = new Error('first listener');
      const seen: unknown[] = [];
      const moves: unknown[] = [];
      let firstCalls = 0;
      game.on('event', () => {
        firstCalls++;
        throw boom;
      });
      game.on('event', (ev) => seen.push(ev));
      game.on('move', (m) => {
        moves.push(m);
        throw new Error('move listener'); // a later error is dropped: the first is thrown
      });
      const logged = game.log('0').length;
      assert.throws(() => game.apply('0', { action: 'Place', targets: ['c0'] }), (e) => e === boom);
      const events = game.log('0').slice(logged); // (the move's events, as apply returns them to the mover)
      assert.ok(events.length > 0);
      assert.equal(firstCalls, events.length, 'the throwing listener is called for each event too');
      assert.deepEqual(seen, events, 'the second listener heard every event');
      assert.deepEqual(moves, [{ player: '0', move: { action: 'Place', targets: ['c0'] }, events }]);
      assert.notEqual(game.stateHash(), before, 'the move stays made');
      assert.equal(game.view().toAct[0], '1');
      // undo: every undo listener is called, then the first error is thrown, the undo made
      let undos = 0;
      game.on('undo', () => {
        undos++;
        throw new Error('undo listener');
      });
      game.on('undo', () => undos++);
      assert.throws(() => game.undo(), { message: 'undo listener' });
      assert.equal(undos, 2);
      assert.equal(game.stateHash(), before);
    } finally {
      game.dispose();
    }
  });

  test('bots choose legal moves', () => {
    for (const kind of ['random', 'mcts'] as const) {
      const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 2 });
      try {
        const bot = rs.bot(game, { kind, seed: 9, iterations: 50 });
        assert.equal(game.view().result, null);
        let guard = 0;
        while (game.view().result === null && guard++ < 20) {
          const player = game.view().toAct[0]!;
          const move = bot.choose(player);
          assert.ok(move, 'bot returned no move');
          const legal = game.legalMoves(player).map((m) => JSON.stringify(m));
          assert.ok(legal.includes(JSON.stringify(move)), `${JSON.stringify(move)} not in ${legal}`);
          game.apply(player, move);
        }
        assert.notEqual(game.view().result, null);
      } finally {
        game.dispose();
      }
    }
  });
});

describe('options objects', () => {
  test('a key a call does not take is a RangeError that names the call and its options, and nothing is done', async () => {
    const unknown = (call: string, key: string, options: string) =>
      (e: unknown) => e instanceof RangeError && e.message === `rulestack: ${call}: unknown option '${key}' (options: ${options})`;
    const before = rs.createGame(TIC_TAC_TOE_YAML, { seed: 9 });
    assert.throws(() => rs.createGame(TIC_TAC_TOE_YAML, { sed: 9 } as object), unknown('createGame', 'sed', 'seed, format, logLimit'));
    assert.throws(() => rs.validate(TIC_TAC_TOE_YAML, { fromat: 'yaml' } as object), unknown('validate', 'fromat', 'format'));
    assert.throws(() => rs.check(TIC_TAC_TOE_YAML, { fromat: 'yaml' } as object), unknown('check', 'fromat', 'format'));
    assert.throws(() => rs.restore(TIC_TAC_TOE_YAML, before.snapshot(), { seed: 1 } as object), unknown('restore', 'seed', 'format'));
    assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, { games: 2, iteration: 5 } as SimulateOptions), unknown('simulate', 'iteration', 'games, bot, seed, iterations, maxMoves, hashes'));
    assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, { games: 2, workers: 2 } as SimulateOptions), unknown('simulate', 'workers', 'games, bot, seed, iterations, maxMoves, hashes'));
    await assert.rejects(rs.simulateParallel(TIC_TAC_TOE_YAML, { games: 2, worker: 2 } as SimulateOptions),
      unknown('simulateParallel', 'worker', 'games, bot, seed, iterations, maxMoves, hashes, workers, batch, onProgress'));
    assert.throws(() => rs.bot(before, { kind: 'mcts', iteration: 5 } as object), unknown('bot', 'iteration', 'kind, level, seed, iterations, maxPlayoutMoves, omniscient'));
    await assert.rejects(loadEngine({ yml: false } as object), unknown('loadEngine', 'yml', 'wasmUrl, wasmBinary, yaml'));
    // not an object: a TypeError; undefined, or a known key left undefined: the defaults
    assert.throws(() => rs.createGame(TIC_TAC_TOE_YAML, 5 as unknown as object), { name: 'TypeError', message: 'rulestack: createGame options must be an object, not number' });
    assert.throws(() => rs.validate(TIC_TAC_TOE_YAML, [] as object), { name: 'TypeError', message: 'rulestack: validate options must be an object, not an array' });
    assert.deepEqual(rs.validate(TIC_TAC_TOE_YAML, undefined), []);
    assert.equal(rs.createGame(TIC_TAC_TOE_YAML, { seed: 9, format: undefined }).stateHash(), before.stateHash());
    before.dispose();
  });
});

describe('simulate and bot options', () => {
  test('games, bot and iterations as the types say, else a RangeError; options that are no object a TypeError', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ games: 0 }, /invalid games: 0 \(an integer from 1 to 1000000\)/],
      [{ games: 1.5 }, /invalid games: 1\.5/],
      [{ games: 2_000_000 }, /invalid games: 2000000/],
      [{ games: 2, bot: 'foo' }, /invalid bot: "foo" \(random, mcts, easy, normal, hard\)/],
      [{ games: 2, bot: 'mcts', iterations: -5 }, /invalid iterations: -5 \(an integer from 1 to 100000\)/],
      [{ games: 2, maxMoves: 0 }, /invalid maxMoves: 0 \(an integer from 1 to 100000\)/],
      [{ games: 2, maxMoves: 100_001 }, /invalid maxMoves: 100001/],
    ];
    for (const [opts, message] of cases) {
      assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, opts as SimulateOptions), (e: unknown) => e instanceof RangeError && message.test((e as Error).message));
    }
    assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, undefined as unknown as SimulateOptions), TypeError);
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    try {
      assert.throws(() => rs.bot(game, { kind: 'mcts', iterations: -5 }), /invalid iterations: -5 \(an integer from 1 to 100000\)/);
      assert.throws(() => rs.bot(game, { kind: 'mcts', maxPlayoutMoves: 'x' as unknown as number }), RangeError);
    } finally {
      game.dispose();
    }
  });
});

describe('simulate maxMoves', () => {
  test("simulate's seed is a whole number from 0 (game i plays seed + i), its hashes a boolean", () => {
    // simulate's seed: game i plays seed + i, a whole number from 0; hashes a boolean (before:
    // -5 played as 5, 1.5 as 1, a string as 1, and hashes: 1 crashed the engine)
    const seedError = (seed: unknown, type: typeof TypeError) =>
      assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, { games: 2, seed } as SimulateOptions), {
        name: type.name,
        message: /^rulestack: simulate: seed must be an integer from 0 to 9007199254740991 - games \+ 1 \(game i plays seed \+ i\), not /,
      });
    const restartsBefore = rs.restarts;
    seedError(-5, RangeError);
    seedError(1.5, RangeError);
    seedError(2 ** 53 - 1, RangeError); // (its second game would be past 2^53 - 1)
    seedError('x', TypeError);
    seedError(5n, TypeError);
    assert.deepEqual(rs.simulate(TIC_TAC_TOE_YAML, { games: 2, seed: 2 ** 53 - 2, hashes: true }).games, 2);
    for (const hashes of [1, 0, null, 'yes'])
      assert.throws(() => rs.simulate(TIC_TAC_TOE_YAML, { games: 2, hashes } as unknown as SimulateOptions), { name: 'TypeError', message: /^rulestack: simulate: hashes must be true or false, not / });
    assert.equal(rs.restarts, restartsBefore, 'no crash');
  });

  test('a game still on after maxMoves moves is unfinished; the default is the engine\'s 100,000', async () => {
    // (tic-tac-toe has no win before its fifth move, and always ends by its ninth)
    const short = rs.simulate(TIC_TAC_TOE_YAML, { games: 20, seed: 3, maxMoves: 4 });
    assert.deepEqual([short.games, short.moves, short.unfinished, short.draws, short.meanLength], [20, 80, 20, 0, 4]);
    assert.deepEqual(short.wins, { '0': 0, '1': 0 });
    assert.deepEqual(await rs.simulateParallel(TIC_TAC_TOE_YAML, { games: 20, seed: 3, maxMoves: 4, workers: 2 }), short);
    const full = rs.simulate(TIC_TAC_TOE_YAML, { games: 20, seed: 3 });
    assert.equal(full.unfinished, 0);
    assert.deepEqual(rs.simulate(TIC_TAC_TOE_YAML, { games: 20, seed: 3, maxMoves: 9 }), full);
    assert.deepEqual(rs.simulate(TIC_TAC_TOE_YAML, { games: 20, seed: 3, maxMoves: 100_000 }), full);
    const mcts = rs.simulate(TIC_TAC_TOE_YAML, { games: 2, seed: 3, bot: 'mcts', iterations: 5, maxMoves: 2 });
    assert.deepEqual([mcts.moves, mcts.unfinished], [4, 2]);
  });
});

describe('bot seeds', () => {
  // rng.h's splitmix64, seeded as simulate seeds game `seed`'s: its MCTS bots take one
  // next() a move as that move's bot seed (session.cpp, simulate)
  function engineRng(seed: number): () => bigint {
    const MASK = (1n << 64n) - 1n, GOLDEN = 0x9e3779b97f4a7c15n;
    let s = ((BigInt(seed) * GOLDEN + 0x632be59bd9b4e019n) & MASK) ^ GOLDEN;
    return () => {
      s = (s + GOLDEN) & MASK;
      let z = s;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
      return z ^ (z >> 31n);
    };
  }

  // simulate's games with a level (and an iterations that overrides its own), played again by bots
  function replays(seed: number, iterations?: number) {
    const budget = iterations === undefined ? {} : { iterations };
    const sim = rs.simulate(TIC_TAC_TOE_YAML, { games: 3, bot: 'easy', seed, hashes: true, ...budget });
    assert.equal(sim.errors, 0);
    for (let i = 0; i < 3; i++) {
      const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: seed + i });
      try {
        const next = engineRng(seed + i);
        for (let player = game.view().toAct[0]; game.view().result === null && player !== undefined; player = game.view().toAct[0])
          game.apply(player, rs.bot(game, { level: 'easy', seed: BigInt.asIntN(64, next()), ...budget }).choose(player)!);
        assert.equal(game.stateHash(), sim.hashes![i], `game ${i}`);
      } finally {
        game.dispose();
      }
    }
    return sim.hashes!;
  }

  test("simulate's iterations overrides a level's, as a bot's does", () => {
    const own = replays(7), three = replays(7, 3);
    assert.notDeepEqual(own, three, 'the budget changed the games');
  });

  test("simulate's MCTS games replay through bots given its 64-bit seeds as bigints", () => {
    const seed = 40;
    const sim = rs.simulate(TIC_TAC_TOE_YAML, { games: 3, bot: 'easy', seed, hashes: true });
    assert.equal(sim.errors, 0);
    for (let i = 0; i < 3; i++) {
      const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: seed + i });
      try {
        const next = engineRng(seed + i);
        let wide = 0;
        for (let player = game.view().toAct[0]; game.view().result === null && player !== undefined; player = game.view().toAct[0]) {
          const s = BigInt.asIntN(64, next());
          if (s > BigInt(Number.MAX_SAFE_INTEGER) || s < -BigInt(Number.MAX_SAFE_INTEGER)) wide++;
          game.apply(player, rs.bot(game, { level: 'easy', seed: s }).choose(player)!);
        }
        assert.ok(wide > 0, 'no seed beyond 2^53: the test shows nothing');
        assert.equal(game.stateHash(), sim.hashes![i], `game ${i}`);
      } finally {
        game.dispose();
      }
    }
  });

  test('seed + 1 past 2^63 - 1 is -2^63; a number and the same bigint are one seed', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 4 });
    try {
      const p = game.view().toAct[0]!;
      const opts = { kind: 'mcts', iterations: 30 } as const;
      const seeds = [-(2n ** 63n), -5n, 0n, 5n, 2n ** 62n, 2n ** 63n - 1n];
      const chosen = seeds.map((seed) => JSON.stringify(rs.bot(game, { ...opts, seed }).choose(p)));
      const last = rs.bot(game, { ...opts, seed: 2n ** 63n - 1n });
      last.choose(p);
      assert.equal(JSON.stringify(last.choose(p)), chosen[0]);
      assert.equal(JSON.stringify(rs.bot(game, { ...opts, seed: 5 }).choose(p)), chosen[3]);
      assert.equal(JSON.stringify(rs.bot(game, { ...opts, seed: -5 }).choose(p)), chosen[1]);
      // a seed the search depends on: not every one of these picks the same square
      assert.ok(new Set(chosen).size > 1, `every seed chose ${chosen[0]}`);
    } finally {
      game.dispose();
    }
  });

  test('a bot seed that is not an integer seed is a TypeError when the bot is made', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 4 });
    try {
      for (const seed of [1.5, 2 ** 53, Number.NaN, 2n ** 63n, -(2n ** 63n) - 1n, '7', null]) {
        assert.throws(() => rs.bot(game, { seed: seed as never }), TypeError, String(seed));
      }
      // its message says what a bot seed is (not a string, unlike a game's)
      assert.throws(() => rs.bot(game, { seed: 1.5 }), { message: 'rulestack: invalid bot seed: 1.5 (a bot seed is a safe integer or a bigint: not an integer)' });
    } finally {
      game.dispose();
    }
  });

  test('the raw engine refuses a bot seed that is not one, and takes a string', () => {
    const s = new rs.module.Session();
    try {
      assert.equal(s.load(TTT_JSON, '1'), '');
      assert.deepEqual(JSON.parse(s.botChoose('0', '{"kind":"mcts","seed":1.5}')), {
        error: 'invalid bot seed: a seed is an integer (from -2^63 to 2^63-1) or a string, not 1.5',
      });
      assert.deepEqual(JSON.parse(s.botChoose('0', '{"seed":18446744073709551615}')), {
        error: 'invalid bot seed: a seed is an integer from -2^63 to 2^63-1 or a string; 18446744073709551615 is too large',
      });
      assert.ok('action' in JSON.parse(s.botChoose('0', '{"seed":"any text"}')));
    } finally {
      s.delete();
    }
  });
});

describe('the view across the boundary', () => {
  // the module hands over a view as its UTF-8 bytes (Session.viewBytes); the package decodes them
  const UNICODE_YAML = MINIMAL_YAML.replace('name: Minimal', 'name: "Café ♠ 🂡"');
  const utf8 = new TextDecoder();

  test('text beyond ASCII comes through as the engine wrote it', () => {
    const game = rs.createGame(UNICODE_YAML, { seed: 3 });
    try {
      assert.equal(game.view().game, 'Café ♠ 🂡');
      assert.equal(game.view('1').game, 'Café ♠ 🂡');
    } finally {
      game.dispose();
    }
  });

  test('the raw Session: bytes of the view, an error object for an unknown player, null without a game', () => {
    const s = new rs.module.Session();
    try {
      assert.equal(utf8.decode(s.viewBytes('')), 'null');
      assert.equal(s.load(JSON.stringify(parseYaml(UNICODE_YAML)), '3'), '');
      const bytes = s.viewBytes('0');
      assert.ok(bytes instanceof Uint8Array);
      const view = JSON.parse(utf8.decode(bytes));
      assert.equal(view.game, 'Café ♠ 🂡');
      assert.deepEqual(view.toAct, ['0']);
      assert.deepEqual(JSON.parse(utf8.decode(s.viewBytes('nobody'))), { error: "unknown player 'nobody'" });
      // the kept view of player 0 is written again once the game changes
      assert.equal(JSON.parse(s.apply('0', JSON.stringify({ action: 'Noop' }))).ok, true);
      assert.deepEqual(JSON.parse(utf8.decode(s.viewBytes('0'))).toAct, ['1']);
    } finally {
      s.delete();
    }
  });
});

describe('memory', () => {
  test('dispose frees the session; using the game afterwards throws', () => {
    const game = rs.createGame(TIC_TAC_TOE_YAML, { seed: 1 });
    assert.equal(game.disposed, false);
    assert.deepEqual(game.players, ['0', '1']); // (read, and kept, before)
    game.dispose();
    assert.equal(game.disposed, true);
    game.dispose(); // twice is fine
    assert.throws(() => game.view(), /disposed/);
    assert.throws(() => game.legalMoves('0'), /disposed/);
    assert.throws(() => game.apply('0', { action: 'pass' }), /disposed/);
    assert.throws(() => game.stateHash(), /disposed/);
    assert.throws(() => rs.bot(game), /disposed/);
    // every call, those that need no engine too
    assert.throws(() => game.players, /disposed/);
    assert.throws(() => game.steps(), /disposed/);
    assert.throws(() => game.on('event', () => {}), /disposed/);
    assert.throws(() => game.log(), /disposed/);
    assert.throws(() => game.undo(), /disposed/);
  });

  test('a failed createGame leaks nothing and a game is a Game', () => {
    assert.throws(() => rs.createGame(BAD_DEFINITION_YAML), DefinitionError);
    const g = rs.createGame(TIC_TAC_TOE_YAML);
    assert.ok(g instanceof Game);
    g.dispose();
  });

  test('a game that is garbage-collected without dispose() frees its session', () => {
    const index = new URL('../index.js', import.meta.url).href;
    const script = `
      const { loadEngine } = await import(${JSON.stringify(index)});
      const rs = await loadEngine();
      const proto = rs.module.Session.prototype;
      const del = proto.delete;
      let deleted = 0;
      proto.delete = function () { deleted++; return del.call(this); };
      (() => { for (let i = 0; i < 50; i++) rs.createGame(${JSON.stringify(MINIMAL_YAML)}, { seed: i }); })();
      for (let i = 0; i < 20 && deleted < 50; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
      console.log(deleted);
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(Number(r.stdout.trim()) >= 40, `only ${r.stdout.trim()} of 50 sessions were freed`);
  });

  test('many games created and disposed', () => {
    for (let i = 0; i < 200; i++) rs.createGame(TTT_OBJECT, { seed: i }).dispose();
  });
});
