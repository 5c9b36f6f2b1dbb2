// Playing in the playground: the rules editor, the board, moves, undo, hot-seat views, the bot.
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';
import { editorText, setEditorText } from './editor-helpers.js';
import { failOnPageErrors } from './page-errors.js';
import { open, move } from './playground-page.js';

failOnPageErrors();

test('tic-tac-toe: a full game by clicking moves ends with a winner', async ({ page }) => {
  await open(page);
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await expect(page.locator('#result')).toHaveText('in progress');
  // X: NW, N, NE (the top row); O: W, C
  for (const cell of ['NW', 'W', 'N', 'C', 'NE']) {
    await move(page, `Mark → ${cell}`).click();
  }
  await expect(page.locator('#result')).toHaveText('Player 0 wins');
  await expect(page.locator('[data-player="0"] .badge.b-winner')).toBeVisible();
  await expect(page.locator('[data-entity="NW"] [data-prop="mark"] .v')).toHaveText('0');
  await expect(page.locator('[data-entity="W"] [data-prop="mark"] .v')).toHaveText('1');
  await expect(page.locator('#moves button.move')).toHaveCount(0);
  await expect(page.locator('#moves')).toContainText('Game over');
  // the event log has one group per move, newest first
  await expect(page.locator('#log .log-group')).toHaveCount(6); // 5 moves + setup
  await expect(page.locator('#log .log-group summary').first()).toContainText('Mark → NE');
});

test('undo restores the previous state hash', async ({ page }) => {
  await open(page);
  const start = await page.locator('#hash').textContent();
  await expect(page.locator('#undo')).toBeDisabled();
  await move(page, 'Mark → C').click();
  const afterOne = await page.locator('#hash').textContent();
  expect(afterOne).not.toBe(start);
  await move(page, 'Mark → NW').click();
  await expect(page.locator('#hash')).not.toHaveText(afterOne!);
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(afterOne!);
  await expect(page.locator('[data-entity="NW"] [data-prop="mark"] .v')).toHaveText('–');
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(start!);
  await expect(page.locator('#undo')).toBeDisabled();
  await expect(page.locator('#log .log-group')).toHaveCount(1); // setup only
});

test('definition errors show path and line:column; clicking one moves the cursor', async ({ page }) => {
  await open(page);
  const hashBefore = await page.locator('#hash').textContent();
  await setEditorText(page,
    ['name: Broken', 'players: { count: 2 }', 'flwo:', '  phases: []', 'zones:', '  - { name: Board, visibility: sometimes }', ''].join('\n'),
  );
  await page.locator('#load').click();
  const errors = page.locator('#errors li');
  await expect(errors.first()).toBeVisible();
  const flwo = errors.filter({ hasText: '/flwo' });
  await expect(flwo).toHaveCount(1);
  await expect(flwo.locator('.pos')).toHaveText('3:1');
  await expect(flwo).toContainText("did you mean 'flow'");
  const vis = errors.filter({ hasText: '/zones/0/visibility' });
  await expect(vis.locator('.pos')).toHaveText(/^6:\d+$/);

  await vis.click();
  await expect(page.locator('#editor-box .cm-content')).toBeFocused();
  const pos = await vis.locator('.pos').textContent();
  await expect(page.locator('#cursor-pos')).toHaveText(pos!);
  await expect(page.locator('#editor-box .cm-activeLine')).toHaveText('  - { name: Board, visibility: sometimes }'); // line 6
  await flwo.click();
  await expect(page.locator('#cursor-pos')).toHaveText('3:1');
  // the gutter marks the lines with errors (1: a required key is missing); the last good game is still there
  await expect(page.locator('#editor-box .cm-gutter-lint .cm-lint-marker-error')).toHaveCount(3);
  await expect(page.locator('#hash')).toHaveText(hashBefore!);

  // a YAML syntax error has a position too
  await setEditorText(page, 'name: X\nplayers: [1, 2\nflow: {}\n');
  await page.locator('#load').click();
  await expect(page.locator('#errors li').first()).toContainText('YAML syntax error');
  await expect(page.locator('#errors li .pos').first()).toHaveText(/^\d+:\d+$/);

  // reverting to the shipped example loads it and clears the list
  await page.locator('#revert').click();
  await expect(page.locator('#errors-box')).toBeHidden();
  await expect(page.locator('#editor-box .cm-lint-marker-error')).toHaveCount(0);
  expect(await editorText(page)).toMatch(/^# Tic-tac-toe/);
});

test('a game that loads with warnings starts, and the warnings are listed with their place', async ({ page }) => {
  await open(page);
  // spec 002's IronArmor reads an is_equipped that nothing gives a default
  await page.locator('#game-picker').selectOption('seed-ironarmor.yaml');
  await expect(page.locator('#errors-box')).toBeVisible();
  await expect(page.locator('#errors-box')).toHaveClass(/warn/);
  await expect(page.locator('#errors-title')).toHaveText('Warnings (1)');
  const w = page.locator('#errors li');
  await expect(w).toHaveCount(1);
  await expect(w).toContainText("property 'is_equipped' has no declared default");
  await expect(w.locator('.pos')).toHaveText(/^\d+:\d+$/);
  await expect(page.locator('#editor-box .cm-lint-marker-error')).toHaveCount(0); // warnings mark no line as an error
  await expect(page.locator('#editor-box .cm-lint-marker-warning')).toHaveCount(1);
  await expect(page.locator('#hash')).toHaveText(/^[0-9a-f]{16}$/); // the game started
  // a game without warnings clears the list
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#errors-box')).toBeHidden();
});

test('hot-seat shows the view of the player to act: the opponent hand is a face-down count', async ({ page }) => {
  await open(page);
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  // the seed box is empty: the game was dealt from a fresh random seed, shown beside it
  const seed = Number(await page.locator('#seed-used').getAttribute('data-seed'));

  const rs = await loadEngine();
  const game = rs.createGame(await readFile(new URL('../examples/duel.yaml', import.meta.url), 'utf8'), { seed });
  const hand0 = game.view('0').zones['Hand:0']!.count;
  const hand1 = game.view('1').zones['Hand:1']!.count;
  game.dispose();

  await expect(page.locator('#viewing')).toHaveText('Player 0');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(hand0);
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
  await expect(page.locator('[data-zone="Hand:1"] .facedown')).toHaveText(`${hand1} face-down`);
  await expect(page.locator('[data-zone="Hand:1"] .count')).toHaveText(String(hand1));
  await expect(page.locator('[data-zone="Deck:0"] .card')).toHaveCount(0); // nobody sees a deck

  // player 0 ends the turn: the device goes to player 1 (e2e/hidden.spec.ts), then the view is theirs
  await move(page, 'Pass').click();
  await page.locator('#handover-confirm').click();
  await expect(page.locator('#viewing')).toHaveText('Player 1');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(0);
  await expect(page.locator('[data-zone="Hand:0"] .facedown')).toBeVisible();
  await expect(page.locator('[data-zone="Hand:1"] .card')).not.toHaveCount(0);

  // the spectator sees no hand
  await page.locator('#viewer').selectOption('spectator');
  await expect(page.locator('#viewing')).toHaveText('spectator');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(0);
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
});

test('vs bot: the bot plays duel by itself; undo goes back to the human', async ({ page }) => {
  await open(page, '?botDelay=60');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');

  const botMoves = page.locator('#log .log-group summary').filter({ hasText: 'Player 1 (bot):' });
  // The human passes whenever asked, until the bot has made a few moves.
  let beforeLastPass = '';
  for (let i = 0; i < 30 && (await botMoves.count()) < 3; i++) {
    await expect(page.locator('#result.over, #moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 10_000 });
    if (await page.locator('#result.over').count()) break;
    beforeLastPass = (await page.locator('#hash').textContent())!;
    await move(page, 'Pass').click();
    // the bot replies on its own, then it is the human's turn (or the game is over)
    await expect(page.locator('#result.over, #moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 10_000 });
  }
  expect(await botMoves.count()).toBeGreaterThanOrEqual(3);
  expect(Number(await page.locator('#turn').textContent())).toBeGreaterThanOrEqual(3);
  // the human is never shown the bot's hand
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);

  // undo goes back past the bot's replies to the human's last choice
  const groups = await page.locator('#log .log-group').count();
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(beforeLastPass);
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  expect(await page.locator('#log .log-group').count()).toBeLessThan(groups - 1);
});

test('vs an Easy (MCTS) bot: the bot thinks in a worker and answers in tic-tac-toe', async ({ page }) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
  });
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('easy');
  await move(page, 'Mark → C').click();
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot): Mark →', { timeout: 10_000 });
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  await expect(page.locator('[data-zone="Board"] [data-prop="mark"] .v').filter({ hasText: /^1$/ })).toHaveCount(1);
  expect(workers.some((u) => u.includes('bot-worker'))).toBe(true);
  expect(warnings).toEqual([]); // the worker did not fail over to the page
});

test('the line of what was played (the live region) is cleared for each new game; Undo says what it took back', async ({ page }) => {
  await open(page);
  const said = page.locator('#announce');
  for (const cell of ['NW', 'W', 'N', 'C', 'NE']) await move(page, `Mark → ${cell}`).click();
  await expect(said).toHaveText('Player 0: Mark → NE. Game over: Player 0 wins.');
  // Load: a new game, nothing played in it yet
  await page.locator('#load').click();
  await expect(page.locator('#log .log-group')).toHaveCount(1);
  await expect(said).toHaveText('');
  // another game from the picker
  await move(page, 'Mark → C').click();
  await expect(said).toHaveText('Player 0: Mark → C.');
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await expect(said).toHaveText('');
  // Undo: the move announced is no longer on the board
  await page.locator('#game-picker').selectOption('tictactoe.yaml');
  await move(page, 'Mark → NW').click();
  await expect(said).toHaveText('Player 0: Mark → NW.');
  await page.locator('#undo').click();
  await expect(page.locator('[data-entity="NW"] [data-prop="mark"] .v')).toHaveText('–');
  await expect(said).toHaveText('Undone: Player 0: Mark → NW.');
});
