// Hidden information in the event log: a card dealt into a hidden hand is named only to its
// owner; the full record (log()) names everything, for replays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine, type GameEvent, type OnZoneEnterEvent } from '../index.js';

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
    assert.ok(intoHand(mine, '0').every((e) => typeof e.entity === 'string'), 'my own cards are named');
    assert.ok(intoHand(mine, '1').every((e) => e.entity === null), "the opponent's are not");
    assert.ok([...intoHand(spectator, '0'), ...intoHand(spectator, '1')].every((e) => e.entity === null));
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
    assert.equal(draw!.entity, null);
  } finally {
    game.dispose();
  }
});
