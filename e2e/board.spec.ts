// A board people can read (issue 14): cards with their name, type, tags, rules text and
// properties (the last move's changes marked), face-down cards as backs, mode names, the
// queue once with its items' controllers and targets by name, the pending decision as a
// prompt, the automatic passes and resolved items in the log, run-time errors as game errors.
import { test, expect, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors.js';
import { open, loadGame, move } from './playground-page.js';
import { setEditorText } from './editor-helpers.js';

failOnPageErrors();

/** Types a definition in the editor and loads it. */
async function loadText(page: Page, text: string): Promise<void> {
  await setEditorText(page, text);
  await page.locator('#load').click();
  await expect(page.locator('#errors-box')).toBeHidden();
}

test('nexus: a card shows its rules text and properties; a converted card is face down; a mode has its name; the queue is shown once', async ({ page }) => {
  await open(page);
  await loadGame(page, 'nexus.yaml', '3'); // player 0's opening hand holds Flame Archer #2 and Tactical Retreat #3
  const retreat = page.locator('[data-zone="Hand:0"] [data-entity="TacticalRetreat#3"]');
  await expect(retreat.locator('.card-name')).toHaveText('Tactical Retreat');
  await expect(retreat.locator('.type')).toHaveText('event');
  await expect(retreat.locator('.card-text')).toHaveText('Event, speed 2. Cost 1. Pick one: Stasis - lock target agent on the planet; or Scan - draw 2 cards.');
  await expect(retreat.locator('[data-prop="cost"] .v')).toHaveText('1');
  await expect(retreat.locator('[data-prop="speed"] .v')).toHaveText('2');

  // Convert: off the queue, the card becomes a face-down energy source; energy 0 → 1 is marked
  await move(page, 'Convert · Flame Archer #2').click();
  const converted = page.locator('[data-zone="Staging:0"] [data-entity="FlameArcher#2"]');
  await expect(converted).toHaveClass(/face-down/);
  await expect(converted.locator('.card-name')).toHaveText('Converted');
  await expect(converted.locator('.face-note')).toHaveText('face down (you know it)');
  await expect(converted.locator('.card-text')).toHaveText('A converted card: a face-down energy source.');
  const energy = page.locator('.player[data-player="0"] > .props [data-prop="energy"]');
  await expect(energy.locator('.v')).toHaveText('1');
  await expect(energy).toHaveClass(/changed/);
  await expect(energy).toHaveAttribute('title', 'was 0');
  await expect(page.locator('.player[data-player="0"] > .props [data-prop="anomalies"]')).not.toHaveClass(/changed/);
  // the spectator sees only its back: a handle, no name of the card under it
  await page.locator('#viewer').selectOption('spectator');
  const back = page.locator('[data-zone="Staging:0"] .card.face-down');
  await expect(back).toHaveCount(1);
  await expect(back).toHaveClass(/unknown/);
  await expect(back.locator('.face-note')).toHaveText('face down');
  await expect(back.locator('.card-id')).toHaveText(/^\?[0-9a-f]{8}$/);
  await page.locator('#viewer').selectOption('auto');

  // the mode is named as the definition names it (mode 1 = Scan), in the move and on the queue
  await expect(move(page, 'Cast · Tactical Retreat #3 · Scan')).toHaveCount(1);
  await move(page, 'Cast · Tactical Retreat #3 · Scan').click();
  const item = page.locator('#queue .q-item[data-item="q2"]');
  await expect(item.locator('.q-action')).toHaveText('Cast');
  await expect(item.locator('.q-mode')).toHaveText('mode: Scan');
  await expect(item.locator('.q-player')).toHaveText('controller: Player 0');
  await expect(item.locator('.badge.b-next')).toHaveText('resolves next');
  await expect(item.locator('.card[data-entity="TacticalRetreat#3"] .card-text')).toHaveText(/^Event, speed 2\. Cost 1\. Pick one/);
  // the queue once: the engine's Queue zone is not a zone box of its own
  await expect(page.locator('[data-zone="Queue"]')).toHaveCount(0);
  await expect(page.locator('#board .card[data-entity="TacticalRetreat#3"]')).toHaveCount(1);
  // player 1 could only pass: that pass was automatic, and the log says so
  const last = page.locator('#log .log-group').first();
  await expect(last.locator('summary')).toContainText('#2 Player 0: Cast · Tactical Retreat #3 · Scan — 1 automatic pass');
  await expect(last.locator('.ev.auto-pass')).toHaveCount(1);
  await expect(last.locator('.ev.auto-pass .badge')).toHaveText('automatic pass of Player 1');
  await expect(page.locator('#announce')).toHaveText('Player 0: Cast · Tactical Retreat #3 · Scan (1 automatic pass).');
  // after the move the focus is on the first legal move, not on <body>
  await expect(page.locator('#moves button.move').first()).toBeFocused();
});

test('ambush: an automatic pass, a queue item target, a decision prompt, the resolved item and the damage marked', async ({ page }) => {
  await open(page);
  await loadGame(page, 'ambush.yaml', '1');
  await move(page, 'Smash · B0 → B1').click();
  const item = page.locator('#queue .q-item[data-item="q1"]');
  await expect(item.locator('.q-action')).toHaveText('Smash');
  await expect(item.locator('.q-source')).toHaveText('of B0');
  await expect(item.locator('.q-targets')).toHaveText('→ B1');
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 0: Smash · B0 → B1 — 1 automatic pass');

  // player 0 passes: Smash executes and stops for player 1's optional Brace (Shield); their hand is hidden, so the device goes to them
  await move(page, 'Pass').click();
  await page.locator('#handover-confirm').click();
  await expect(page.locator('#prompt')).toHaveText('Player 1 decides: reaction: Brace — accept or decline; the rest of the move waits for it');
  await expect(page.locator('#decisions li[data-decision="d1"]')).toContainText('reaction: Brace for Player 1 (optional)');
  await expect(move(page, 'Accept Brace')).toBeFocused();
  await move(page, 'Accept Brace').click();

  // the Smash resolved: 4 damage less 2 (Brace); the log's group says so
  await page.locator('#handover-confirm').click(); // back to player 0
  const health = page.locator('[data-zone="Board:1"] [data-entity="B1"] [data-prop="health"]');
  await expect(health.locator('.v')).toHaveText('4');
  await expect(health).toHaveClass(/changed/);
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1: Accept Brace — resolved: Smash of B0');
  await expect(page.locator('#log .log-group').first().locator('.ev.resolved .badge')).toHaveText('resolved: Smash of B0');
  await expect(page.locator('#prompt')).toHaveCount(0);
});

const COUNTERS = `name: Counters
players: { count: 2, properties: { life: 10 } }
zones:
  - { name: Hand, per_player: true }
  - { name: Grave, per_player: true }
settings: { cancel_zone: Grave, discard_zone: Grave }
entities:
  - id: Bolt
    type: spell
    text: "Deal 3 to the opponent."
    actions:
      - name: Cast
        condition: $entity.self.zone == $zone.@Hand
        play: true
        mutations:
          - { target: $player.opponent, property: life, operation: '-', value: 3 }
  - id: Negate
    type: counter
    tags: [instant]
    text: "Cancel target item on the queue."
    actions:
      - name: Counter
        condition: $entity.self.zone == $zone.@Hand and $queue.size > 0
        requires_target: { from: $queue.items }
        play: true
        mutations:
          - { operation: Cancel, target: $target }
setup:
  - { operation: Create, template: Bolt, count: 2, destination: "$players[0].zone.@Hand" }
  - { operation: Create, template: Negate, destination: "$players[1].zone.@Hand" }
flow:
  phases:
    - name: Main
      valid_actions: [Cast, Counter]
`;

test('a queue item that targets another is named by that item’s action and card; one pass resolves it and cancels the other', async ({ page }) => {
  await open(page);
  await loadText(page, COUNTERS);
  await expect(page.locator('[data-entity="Negate#1"] .tags .tag')).toHaveText(['instant']);
  await move(page, 'Cast · Bolt #1').click();
  await move(page, 'Counter · Negate #1 → Cast of Bolt #1 (on the queue)').click();
  const items = page.locator('#queue .q-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).locator('.q-action')).toHaveText('Counter');
  await expect(items.nth(0).locator('.q-targets')).toHaveText('→ Cast of Bolt #1 (on the queue)');
  await expect(items.nth(0).locator('.q-player')).toHaveText('controller: Player 1');
  await expect(items.nth(0).locator('.card .card-text')).toHaveText('Cancel target item on the queue.');
  await expect(items.nth(1).locator('.q-player')).toHaveText('controller: Player 0');
  await expect(items.nth(1).locator('.card .card-text')).toHaveText('Deal 3 to the opponent.');

  // one pass of player 0: player 1 passes automatically, Counter resolves, Cast is cancelled
  await move(page, 'Pass').click();
  await expect(page.locator('#log .log-group summary').first()).toContainText(
    'Player 0: Pass — 1 automatic pass · resolved: Counter of Negate #1 · cancelled: Cast of Bolt #1',
  );
  await expect(page.locator('#queue .q-item')).toHaveCount(0);
  await expect(page.locator('[data-zone="Grave:0"] [data-entity="Bolt#1"]')).toHaveCount(1);
  await expect(page.locator('.player[data-player="1"] > .props [data-prop="life"] .v')).toHaveText('10');
});

/** A game whose one action, Break, fails when it runs (a MoveZone to a player, not a zone); `line` makes it resolve at once or go on the queue. */
const breakGame = (line: string) =>
  [
    'name: Broken at run time',
    'players: { count: 2 }',
    'zones:',
    '  - { name: Board }',
    '  - { name: Grave, per_player: true }',
    'settings: { cancel_zone: Grave }',
    'entities:',
    '  - { id: Token, type: token }',
    'setup:',
    '  - { operation: Create, template: Token, destination: $zone.@Board, id: T }',
    'actions:',
    '  - name: Break',
    `    ${line}`,
    '    mutations:',
    '      - { operation: MoveZone, target: $entity.all, destination: $player.current }',
    'flow:',
    '  phases:',
    '    - name: Main',
    '      valid_actions: [Break]',
    '',
  ].join('\n');

test('a run-time error of the rules is shown as a game error with the engine’s message, and the game goes on', async ({ page }) => {
  await open(page);
  await loadText(page, breakGame('queue: false'));
  const hash = await page.locator('#hash').textContent();
  await move(page, 'Break').click();
  await expect(page.locator('#message')).toHaveClass(/game-error/);
  await expect(page.locator('#message')).toHaveText(
    'Game error: the rules failed while this move ran, so it was not made. /actions/0/mutations/0: destination is not a zone',
  );
  await expect(page.locator('#hash')).toHaveText(hash!);
  await expect(page.locator('#moves button.move').first()).toBeFocused();
  // an ordinary refusal is still an illegal move (not a game error): none is offered here, so the next move clears the message
  await move(page, 'Pass').click();
  await expect(page.locator('#message')).toBeHidden();
});

test('a queue item that fails as it resolves is cancelled: the move stands, the page says it as a game error', async ({ page }) => {
  await open(page);
  await loadText(page, breakGame('condition: $player.current == $player.active'));
  await move(page, 'Break').click();
  await expect(page.locator('#queue .q-item .q-action')).toHaveText(['Break']);
  await expect(page.locator('#message')).toBeHidden();
  const hash = await page.locator('#hash').textContent();
  await move(page, 'Pass').click(); // player 1 passed automatically: Break executes, and fails
  await expect(page.locator('#hash')).not.toHaveText(hash!); // the move was made
  await expect(page.locator('#message')).toHaveClass(/game-error/);
  await expect(page.locator('#message')).toHaveText('Game error: Break failed as it resolved and was cancelled: /actions/0/mutations/0: destination is not a zone');
  await expect(page.locator('#queue .q-item')).toHaveCount(0);
  const group = page.locator('#log .log-group').first();
  await expect(group.locator('summary')).toContainText('Player 0: Pass — cancelled: Break');
  await expect(group.locator('.ev.game-error .badge')).toHaveText('game error');
  await expect(group.locator('.ev.cancelled .badge')).toHaveText('cancelled: Break');
  await expect(page.locator('[data-zone="Board"] [data-entity="T"]')).toHaveCount(1); // nothing moved
  // undone, then redone: the same failure, said again
  const failedHash = await page.locator('#hash').textContent();
  await page.locator('#undo').click();
  await expect(page.locator('#message')).toBeHidden();
  await page.locator('#redo').click();
  await expect(page.locator('#hash')).toHaveText(failedHash!);
  await expect(page.locator('#message')).toHaveText('Game error: Break failed as it resolved and was cancelled: /actions/0/mutations/0: destination is not a zone');
});
