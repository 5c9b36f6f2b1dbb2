// Hidden information in the event log and the views: a card dealt into a hidden hand is named
// only to its owner (others see a handle that tells nothing); the full record (log()) names
// everything, for replays. Seeds, and bots that use only their player's information.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine, type GameEvent, type OnZoneEnterEvent, type Snapshot } from '../index.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

test('the log names a card drawn into a hand only to its owner', async () => {
  const rs = await loadEngine();
  const game = rs.createGame(readFileSync(repo('examples/duel.yaml'), 'utf8'), { seed: 3 });
  try {
    const intoHand = (events: ReturnType<typeof game.log>, owner: string) =>
      events.filter((e): e is OnZoneEnterEvent => e.type === 'OnZoneEnter' && e.zone === `Hand:${owner}` && !('when' in e));
    const full = game.log();
    const mine = game.log('0');
    const spectator = game.log(null);
    assert.equal(full.length, mine.length);
    assert.equal(full.length, spectator.length);
    // player 0: 5 dealt + 1 drawn on turn 1; player 1: 5 dealt
    assert.equal(intoHand(full, '0').length, 6);
    assert.equal(intoHand(full, '1').length, 5);
    assert.ok(intoHand(full, '1').every((e) => typeof e.entity === 'string' && /#\d+$/.test(e.entity as string)));
    const isHandle = (id: unknown) => typeof id === 'string' && /^\?[0-9a-f]{8}$/.test(id);
    assert.deepEqual(intoHand(mine, '0').map((e) => e.entity), intoHand(full, '0').map((e) => e.entity), 'my own cards are named');
    assert.ok(intoHand(mine, '1').every((e) => isHandle(e.entity)), "the opponent's are handles");
    assert.ok([...intoHand(spectator, '0'), ...intoHand(spectator, '1')].every((e) => isHandle(e.entity)));
    // a handle is drawn anew at every move: no two of the dealt cards share one
    assert.equal(new Set(intoHand(mine, '1').map((e) => e.entity)).size, 5);
    // the ids of player 1's hand appear nowhere in player 0's log or view
    const hidden = new Set(intoHand(full, '1').map((e) => e.entity as string));
    const text = JSON.stringify(mine) + JSON.stringify(game.view('0'));
    for (const id of hidden) assert.ok(!text.includes(`"${id}"`), `${id} leaks to player 0`);
  } finally {
    game.dispose();
  }
});

test('apply returns the events as the mover may see them', async () => {
  const rs = await loadEngine();
  const game = rs.createGame(readFileSync(repo('examples/duel.yaml'), 'utf8'), { seed: 3 });
  try {
    // player 0 ends the turn: player 1's start-of-turn draw is not named to player 0
    let events = game.apply('0', { action: 'pass' });
    while (!events.some((e) => e.type === 'TurnStart')) events = game.apply(game.view().toAct[0]!, { action: 'pass' });
    const draw = events.find((e: GameEvent): e is OnZoneEnterEvent => e.type === 'OnZoneEnter' && e.zone === 'Hand:1' && !('when' in e));
    assert.ok(draw, 'player 1 drew a card');
    assert.match(draw!.entity, /^\?[0-9a-f]{8}$/);
    const hand = game.view('1').zones['Hand:1']!.entities!.map((e) => e.id);
    assert.ok(!hand.includes(draw!.entity), 'the handle is not the id player 1 sees');
  } finally {
    game.dispose();
  }
});

test('a game without a seed is dealt from a fresh random seed, reported to replay it', async () => {
  const rs = await loadEngine();
  const duel = readFileSync(repo('examples/duel.yaml'), 'utf8');
  const a = rs.createGame(duel);
  const b = rs.createGame(duel);
  try {
    assert.ok(Number.isSafeInteger(a.seed) && Number.isSafeInteger(b.seed));
    assert.notEqual(a.seed, b.seed);
    assert.notEqual(a.stateHash(), b.stateHash(), 'two games without a seed are dealt differently');
    const again = rs.createGame(duel, { seed: a.seed! });
    assert.equal(again.stateHash(), a.stateHash(), 'the reported seed replays the game');
    again.dispose();
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('seeds: every integer and every string its own game, anything else refused', async () => {
  const rs = await loadEngine();
  const duel = readFileSync(repo('examples/duel.yaml'), 'utf8');
  const hash = (seed: number | bigint | string) => {
    const g = rs.createGame(duel, { seed });
    try {
      return g.stateHash();
    } finally {
      g.dispose();
    }
  };
  const hashes = [5, -5, '5', 'five', 0, 2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 63n - 1n, -(2n ** 63n)].map(hash);
  assert.equal(new Set(hashes).size, hashes.length, 'no two of these seeds play the same game');
  assert.equal(hash(5n), hash(5), 'the bigint 5 is the integer 5');
  for (const bad of [1.9, 2 ** 53, -Infinity, NaN, 2n ** 63n, true, {}] as unknown[]) {
    assert.throws(() => rs.createGame(duel, { seed: bad as number }), TypeError, `seed ${String(bad)}`);
  }
});

test('bot levels: easy, normal and hard are MCTS with budgets; an unknown level is refused', async () => {
  const rs = await loadEngine();
  const game = rs.createGame(readFileSync(repo('examples/duel.yaml'), 'utf8'), { seed: 2 });
  try {
    const legal = JSON.stringify(game.legalMoves('0'));
    for (const level of ['easy', 'normal', 'hard'] as const) {
      const bot = rs.bot(game, { level, seed: 4 });
      assert.equal(bot.options.kind, 'mcts');
      const move = bot.choose('0');
      assert.ok(move && legal.includes(JSON.stringify(move)), `${level}: a legal move`);
      assert.deepEqual(rs.bot(game, { level, seed: 4 }).choose('0'), move, `${level}: the same seed, the same move`);
    }
    assert.throws(() => rs.bot(game, { level: 'expert' as 'hard' }), { name: 'RangeError', message: 'rulestack: invalid level: "expert" (easy, normal, hard)' });
  } finally {
    game.dispose();
  }
});

// The snapshot with the identities (id and properties) of two entities swapped: the cards
// change places, their handles and owners stay.
function swapIdentities(snapshot: Snapshot, a: number, b: number): Snapshot {
  const s = structuredClone(snapshot) as { entities: unknown[][]; props: unknown[] };
  const np = s.props.length / s.entities.length;
  for (const k of [1, 2]) [s.entities[a]![k], s.entities[b]![k]] = [s.entities[b]![k], s.entities[a]![k]];
  for (let p = 0; p < np; p++) [s.props[a * np + p], s.props[b * np + p]] = [s.props[b * np + p], s.props[a * np + p]];
  return s as unknown as Snapshot;
}

test("fair bots: swapping a card of the opponent's hand with a stock card changes nothing player 0 sees or gets", async () => {
  const rs = await loadEngine();
  const text = readFileSync(repo('examples/crazy-eights.yaml'), 'utf8');
  let pairs = 0;
  let omniscientDiffers = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const game = rs.createGame(text, { seed });
    const snap = game.snapshot() as { entities: unknown[][]; zones: number[][] };
    const full = game.view();
    game.dispose();
    // zone instance indexes: the snapshot lists zones in definition order (Stock, Pile, Hand:0, Hand:1, ...)
    const stock = snap.zones[0]!, hand1 = snap.zones[3]!;
    assert.equal(stock.length, full.zones['Stock']!.count);
    assert.equal(hand1.length, full.zones['Hand:1']!.count);
    const a = rs.restore(text, snap as unknown as Snapshot);
    const b = rs.restore(text, swapIdentities(snap as unknown as Snapshot, hand1[seed % hand1.length]!, stock[seed % stock.length]!));
    try {
      assert.notEqual(a.stateHash(), b.stateHash(), 'the states differ');
      assert.deepEqual(a.view().toAct, ['0']);
      assert.deepEqual(b.view('0'), a.view('0'));
      assert.deepEqual(b.legalMoves('0'), a.legalMoves('0'));
      pairs++;
      for (const opts of [{ kind: 'random' as const, seed }, { level: 'easy' as const, seed }]) {
        assert.deepEqual(rs.bot(b, opts).choose('0'), rs.bot(a, opts).choose('0'), JSON.stringify(opts));
      }
      // the test can tell: a bot that may look (omniscient, for tests only) is seeded by the whole state
      const peek = { kind: 'random' as const, seed, omniscient: true };
      if (JSON.stringify(rs.bot(a, peek).choose('0')) !== JSON.stringify(rs.bot(b, peek).choose('0'))) omniscientDiffers++;
    } finally {
      a.dispose();
      b.dispose();
    }
  }
  assert.equal(pairs, 6);
  assert.ok(omniscientDiffers > 0, 'an omniscient bot chooses differently in some pair');
});

test('fair bots: a hidden deck in another order (each deck read in reverse) gives every bot the same moves', async () => {
  const rs = await loadEngine();
  const text = readFileSync(repo('examples/duel.yaml'), 'utf8');
  const game = rs.createGame(text, { seed: 5 });
  for (let i = 0; i < 3; i++) {
    const p = game.view().toAct[0]!;
    game.apply(p, rs.bot(game, { seed: i }).choose(p)!);
  }
  const p = game.view().toAct[0]!;
  const snap = game.snapshot() as unknown as { zones: number[][] };
  const full = game.view();
  game.dispose();
  // the decks are the first zones of the Duel (Deck:0, Deck:1), hidden from everyone
  assert.equal(snap.zones[0]!.length, full.zones['Deck:0']!.count);
  assert.equal(snap.zones[1]!.length, full.zones['Deck:1']!.count);
  for (const reversed of [[0], [1], [0, 1]]) {
    const other = structuredClone(snap);
    for (const z of reversed) other.zones[z]!.reverse();
    const a = rs.restore(text, snap as unknown as Snapshot);
    const b = rs.restore(text, other as unknown as Snapshot);
    try {
      assert.notEqual(a.stateHash(), b.stateHash(), 'the states differ');
      assert.deepEqual(b.view(p), a.view(p));
      for (let seed = 0; seed < 4; seed++)
        for (const opts of [{ kind: 'mcts' as const, iterations: 100, seed }, { level: 'easy' as const, seed }, { kind: 'random' as const, seed }])
          assert.deepEqual(rs.bot(b, opts).choose(p), rs.bot(a, opts).choose(p), `decks ${reversed} reversed: ${JSON.stringify(opts)}`);
    } finally {
      a.dispose();
      b.dispose();
    }
  }
});
