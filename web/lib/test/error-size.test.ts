// An error message never repeats a huge input in full: the echoed value is shortened to its
// first 100 characters, `…` and its length (a server that logs errors must not log megabytes
// for one bad request); messages of ordinary input are as they were.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { loadEngine, IllegalMoveError, DefinitionError, type Rulestack, type Game, type Move } from '../index.js';
import { boundedMessage, clipped } from '../errors.js';
import { TIC_TAC_TOE_YAML } from './fixtures.js';

const TTT = parseYaml(TIC_TAC_TOE_YAML) as Record<string, unknown>;
const HUGE = 1e7;

let rs: Rulestack;
let game: Game;
before(async () => {
  rs = await loadEngine();
  game = rs.createGame(TTT, { seed: 1 });
});

/** The value as the messages show it: its first 100 characters, `…` and its length. */
const short = (c: string) => `${c.repeat(100)}… (${HUGE} characters)`;

/** The error `f` throws, checked to be bounded. */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Error);
    assert.ok(e.message.length < 1100, `a message of ${e.message.length} characters: ${e.message.slice(0, 80)}`);
    return e;
  }
  assert.fail('no error');
}

describe('error messages are bounded', () => {
  test('apply: an unknown action, source, target or key echoes the first 100 characters and the length', () => {
    const cases: Array<[Move | Record<string, unknown>, string, string]> = [
      [{ action: 'x'.repeat(HUGE) }, 'unknown_action', `unknown action '${short('x')}'`],
      [{ action: 'Place', source: 's'.repeat(HUGE) }, 'bad_source', `unknown source '${short('s')}'`],
      [{ action: 'Place', targets: ['t'.repeat(HUGE)] }, 'bad_target', `unknown target '${short('t')}'`],
      [{ action: 'Place', ['k'.repeat(HUGE)]: 1 }, 'malformed_move', `unknown key '${short('k')}' in the move`],
    ];
    for (const [move, reason, message] of cases) {
      const e = thrown(() => game.apply(0, move as Move));
      assert.ok(e instanceof IllegalMoveError);
      assert.equal(e.reason, reason);
      assert.equal(e.message, message);
      assert.equal(e.move, move); // (the move itself is kept as given)
    }
    // ordinary input: the messages as before
    assert.throws(() => game.apply(0, { action: 'Nope' }), { message: "unknown action 'Nope'" });
    assert.throws(() => game.apply(0, { action: 'Place', targets: ['y'] }), { message: "unknown target 'y'" });
    assert.throws(() => game.apply(0, { action: 'a'.repeat(100) }), { message: `unknown action '${'a'.repeat(100)}'` });
  });

  test('an unknown player in apply, view, legalMoves, log and a bot', () => {
    const z = 'z'.repeat(HUGE);
    const e = thrown(() => game.apply(z, { action: 'pass' }));
    assert.ok(e instanceof IllegalMoveError);
    assert.equal(e.message, `unknown player '${short('z')}' (players: 0, 1)`);
    for (const f of [() => game.view(z), () => game.legalMoves(z), () => game.log(z), () => rs.bot(game).choose(z)])
      assert.equal(thrown(f).message, `rulestack: unknown player '${short('z')}' (players: 0, 1)`);
    assert.throws(() => game.view('9'), { message: "rulestack: unknown player '9' (players: 0, 1)" });
  });

  test('option errors: an unknown key, a value that is not one', () => {
    const k = 'k'.repeat(HUGE);
    assert.match(thrown(() => rs.createGame(TTT, { [k]: 1 } as object)).message, /^rulestack: createGame: unknown option 'k{100}… \(10000000 characters\)' \(options: seed, format, logLimit\)$/);
    assert.equal(thrown(() => rs.createGame(TTT, { format: k as 'yaml' })).message, `rulestack: format must be 'auto', 'json' or 'yaml', not "${short('k')}"`);
    assert.equal(thrown(() => rs.createGame(TTT, { logLimit: k as unknown as number })).message, `rulestack: invalid logLimit: ${short('k')} (an integer from 1 to 10000000)`);
    assert.equal(thrown(() => rs.bot(game, { level: k as 'easy' })).message, `rulestack: invalid level: "${short('k')}" (easy, normal, hard)`);
    assert.equal(thrown(() => rs.simulate(TTT, { games: k as unknown as number })).message, `rulestack: invalid games: ${short('k')} (an integer from 1 to 1000000)`);
    thrown(() => rs.createGame(TTT, { seed: 10n ** 100000n }));
    thrown(() => rs.bot(game, { seed: [k] as unknown as number }));
  });

  test('a definition with a huge key or value: DefinitionError', () => {
    // (under the 8 MB a definition may have)
    const e = thrown(() => rs.createGame({ ...TTT, ['q'.repeat(1e6)]: 1 }));
    assert.ok(e instanceof DefinitionError);
    assert.ok(e.message.includes(`${'q'.repeat(100)}… (1000000 characters)`), e.message.slice(0, 300));
    const v = thrown(() => rs.createGame({ ...TTT, name: 7, flow: 'f'.repeat(1e6) }));
    assert.ok(v instanceof DefinitionError);
  });

  test('clipped and boundedMessage', () => {
    assert.equal(clipped('a'.repeat(100)), 'a'.repeat(100));
    assert.equal(clipped('a'.repeat(101)), `${'a'.repeat(100)}… (101 characters)`);
    // (a surrogate pair is not cut in half)
    assert.equal(clipped('a'.repeat(99) + '😀'.repeat(5)), `${'a'.repeat(99)}… (109 characters)`);
    const ordinary = `unknown thing '${'b'.repeat(150)}' here`;
    assert.equal(boundedMessage(ordinary), ordinary);
    assert.equal(boundedMessage(ordinary, ['b'.repeat(150)]), `unknown thing '${'b'.repeat(100)}… (150 characters)' here`);
    assert.equal(boundedMessage(`x '${'c'.repeat(5000)}' y`), `x '${'c'.repeat(100)}… (5000 characters)' y`);
    // unquoted: cut at 1000 characters
    assert.equal(boundedMessage('d'.repeat(5000)), `${'d'.repeat(1000)}… (5000 characters)`);
  });
});
