// Playing in the playground: the rules editor, the board, moves, undo, hot-seat views, the bot
// (and stopping it).
import { test, expect, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';
import { seriousViolations } from './axe.js';
import { editorContent, editorText, setEditorText } from './editor-helpers.js';
import { failOnPageErrors } from './page-errors.js';
import { open, loadGame, move } from './playground-page.js';

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

test('redo applies again what undo took back, the same state each time; another move forgets it', async ({ page }) => {
  await open(page);
  await expect(page.locator('#redo')).toBeDisabled();
  await move(page, 'Mark → C').click();
  const afterOne = await page.locator('#hash').textContent();
  await move(page, 'Mark → NW').click();
  const afterTwo = await page.locator('#hash').textContent();
  await page.locator('#undo').click();
  await page.locator('#undo').click();
  await expect(page.locator('#undo')).toBeDisabled();
  await page.locator('#redo').click();
  await expect(page.locator('#hash')).toHaveText(afterOne!);
  await expect(page.locator('#announce')).toHaveText('Redone: Player 0: Mark → C.');
  await page.locator('#redo').click();
  await expect(page.locator('#hash')).toHaveText(afterTwo!);
  await expect(page.locator('[data-entity="NW"] [data-prop="mark"] .v')).toHaveText('1');
  await expect(page.locator('#redo')).toBeDisabled();
  await expect(page.locator('#log .log-group')).toHaveCount(3); // setup and the two moves again
  // undo, then another move: nothing left to redo
  await page.locator('#undo').click();
  await expect(page.locator('#redo')).toBeEnabled();
  await move(page, 'Mark → N').click();
  await expect(page.locator('#redo')).toBeDisabled();
  await expect(page.locator('[data-entity="NW"] [data-prop="mark"] .v')).toHaveText('–');
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
  const beforeUndo = (await page.locator('#hash').textContent())!;
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(beforeLastPass);
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  expect(await page.locator('#log .log-group').count()).toBeLessThan(groups - 1);
  // redo plays the human's pass and the bot's replies again as they were (not a new search)
  await page.locator('#redo').click();
  await expect(page.locator('#hash')).toHaveText(beforeUndo);
  await expect(page.locator('#log .log-group')).toHaveCount(groups);
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

/** The bot workers running now (bot-worker.ts, as the build names it). */
const botWorkers = (page: Page) => page.workers().filter((w) => /\/bot-worker-[\w-]+\.js$/.test(w.url())).length;

/**
 * Counts the messages each bot worker posts (window.botAnswers, one entry a worker, in the
 * order they were made); with `runOn`, terminate() does nothing to them, so a stopped search
 * goes on and its answer comes after all.
 */
async function countBotAnswers(page: Page, runOn: boolean): Promise<() => Promise<number[]>> {
  await page.addInitScript((letRun: boolean) => {
    const counts: number[] = ((window as unknown as { botAnswers: number[] }).botAnswers = []);
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (!String(url).includes('bot-worker')) return;
        const i = counts.push(0) - 1;
        this.addEventListener('message', () => counts[i]!++);
        if (letRun) this.terminate = () => {};
      }
    };
  }, runOn);
  return () => page.evaluate(() => (window as unknown as { botAnswers: number[] }).botAnswers);
}

/** What a stopped bot must leave as it was: the state, the log, who is to act. */
const gameShown = async (page: Page) => ({
  hash: await page.locator('#hash').textContent(),
  log: await page.locator('#log .log-group summary').allTextContents(),
  toAct: await page.locator('#to-act').textContent(),
});

/** Against a Hard bot (Nexus, seed 3): the human passes, and the bot is to act and thinks for seconds. The state hash before the pass. */
async function hardBotThinking(page: Page): Promise<string> {
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('hard');
  await loadGame(page, 'nexus.yaml', '3');
  const start = (await page.locator('#hash').textContent())!;
  await move(page, 'Pass').click();
  await expect(page.locator('#to-act')).toHaveText('Player 1 (bot)');
  await expect(page.locator('#moves .thinking')).toHaveText('the bot (Hard) is thinking…');
  return start;
}

const STOPPED = (strength: string) => `Stopped: the bot (${strength}) did not move. “Bot, move” asks it again; Undo takes back your move.`;

test('vs a Hard bot in Nexus: Stop (its button, or Escape) ends the search and its worker; the bot does not move and waits for “Bot, move”', async ({ page }) => {
  test.setTimeout(90_000);
  await hardBotThinking(page);
  const asked = await gameShown(page);
  const stop = page.getByRole('button', { name: 'Stop the bot' });
  await expect(stop).toBeVisible();
  await expect(stop).toHaveAttribute('aria-keyshortcuts', 'Escape');
  await expect.poll(() => botWorkers(page)).toBe(1); // its search has begun, in a worker

  await stop.click();
  await expect(page.locator('#message')).toHaveText(STOPPED('Hard'));
  await expect(page.locator('#announce')).toHaveText('Stopped: Player 1 (bot) did not move.');
  await expect(page.locator('#moves .thinking')).toHaveCount(0);
  await expect(stop).toHaveCount(0);
  await expect(page.locator('#moves [data-player="1"]')).toContainText('stopped: the bot (Hard) waits until you ask it to move');
  const again = page.getByRole('button', { name: 'Bot, move' });
  await expect(again).toBeFocused(); // the keyboard is not left on <body>
  await expect.poll(() => botWorkers(page)).toBe(0); // the search ended with its worker
  // longer than a Hard search takes: still nothing played
  await page.waitForTimeout(5000);
  expect(await gameShown(page)).toEqual(asked);
  await expect(again).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // "Bot, move" by keyboard: a fresh worker searches again
  await page.keyboard.press('Enter');
  await expect(page.locator('#moves .thinking')).toHaveText('the bot (Hard) is thinking…');
  await expect(page.locator('#message')).toBeHidden();
  await expect.poll(() => botWorkers(page)).toBe(1);
  // Escape in the editor is the editor's (then Tab leaves it): the bot thinks on
  await editorContent(page).click();
  await page.keyboard.press('Escape');
  await expect(stop).toBeVisible();
  // Escape elsewhere stops it; the focus stays where it was
  await page.locator('#undo').focus();
  await page.keyboard.press('Escape');
  await expect(page.locator('#message')).toHaveText(STOPPED('Hard'));
  await expect(page.locator('#undo')).toBeFocused();
  await expect.poll(() => botWorkers(page)).toBe(0);
  expect(await gameShown(page)).toEqual(asked);

  // another strength, then "Bot, move": the bot plays its turn, then it is the human's
  await page.locator('#bot-strength').selectOption('random');
  await expect(page.locator('#moves [data-player="1"]')).toContainText('stopped: the bot (Random (weakest)) waits');
  await again.click();
  await expect(page.locator('#moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot):');
  await expect(page.locator('#message')).toBeHidden();
});

test('a reload keeps a stopped bot stopped: no search, its seat waits for “Bot, move”, which asks it again', async ({ page }) => {
  test.setTimeout(90_000);
  await hardBotThinking(page);
  const asked = await gameShown(page);
  await page.getByRole('button', { name: 'Stop the bot' }).click();
  const waits = page.locator('#moves [data-player="1"]');
  await expect(waits).toContainText('stopped: the bot (Hard) waits until you ask it to move');

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  await expect(page.locator('#mode')).toHaveValue('bot');
  await expect(waits).toContainText('stopped: the bot (Hard) waits until you ask it to move');
  await expect(page.locator('#moves .thinking')).toHaveCount(0);
  await page.waitForTimeout(3000); // past the bot's pause: still nothing asked, nothing played
  expect(botWorkers(page)).toBe(0);
  expect(await gameShown(page)).toEqual(asked);

  // "Bot, move" (a quicker strength): the bot plays its turn
  await page.locator('#bot-strength').selectOption('random');
  await page.getByRole('button', { name: 'Bot, move' }).click();
  await expect(page.locator('#moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot):');
  // and, asked again, it is no longer kept as stopped
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('rulestack-playground:/')))!).game.botStopped).toBe(false);
});

test('a stopped bot’s answer that comes after all is never played; Undo takes your move back and the bot is asked anew', async ({ page }) => {
  test.setTimeout(90_000);
  const answers = await countBotAnswers(page, true);
  const start = await hardBotThinking(page);
  const asked = await gameShown(page);
  await expect.poll(answers).toEqual([0]); // asked, not answered
  await page.getByRole('button', { name: 'Stop the bot' }).click();
  await expect(page.locator('#message')).toHaveText(STOPPED('Hard'));
  // the search ran on (terminate did nothing here) and answered, late: its move is not played
  await expect.poll(answers, { timeout: 30_000 }).toEqual([1]);
  await page.waitForTimeout(500);
  expect(await gameShown(page)).toEqual(asked);
  await expect(page.getByRole('button', { name: 'Bot, move' })).toBeVisible();
  await expect(page.locator('#message')).toHaveText(STOPPED('Hard'));

  // Undo takes back the pass; passing again asks the bot (now Random) anew, by itself
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(start);
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  await expect(page.locator('#message')).toBeHidden();
  await page.locator('#bot-strength').selectOption('random');
  await move(page, 'Pass').click();
  await expect(page.locator('#moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot):');
  // the new questions went to a fresh worker: the stopped one answered only its own
  const [late, fresh] = await answers();
  expect(late).toBe(1);
  expect(fresh).toBeGreaterThanOrEqual(1);
});

test('a bot error leaves the bot stopped, with “Bot, move” (no Stop for a search that ended); asked again, it plays', async ({ page }) => {
  test.setTimeout(60_000);
  // the bot worker's first request carries a snapshot it cannot restore: its answer is an error
  await page.addInitScript(() => {
    const Native = window.Worker;
    let spoiled = false;
    window.Worker = class extends Native {
      postMessage(message: unknown, ...rest: unknown[]) {
        const m = message as { snapshot?: unknown };
        if (!spoiled && m && typeof m === 'object' && 'snapshot' in m) {
          spoiled = true;
          message = { ...m, snapshot: { version: -1 } };
        }
        return (super.postMessage as (...a: unknown[]) => void)(message, ...rest);
      }
    };
  });
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await loadGame(page, 'nexus.yaml', '3');
  const before = await gameShown(page);
  await move(page, 'Pass').click();
  await expect(page.locator('#message')).toContainText('Bot error: ');
  await expect(page.locator('#message')).toContainText('“Bot, move” asks it again; Undo takes back your move.');
  await expect(page.locator('#announce')).toHaveText('Bot error: Player 1 (bot) did not move.');
  await expect(page.locator('#moves .thinking')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stop the bot' })).toHaveCount(0);
  await expect(page.locator('#moves [data-player="1"]')).toContainText('stopped: the bot (Random (weakest)) waits until you ask it to move');
  const again = page.getByRole('button', { name: 'Bot, move' });
  await expect(again).toBeFocused();
  const asked = await gameShown(page);
  expect(asked.hash).not.toEqual(before.hash); // the pass was made; the bot did not move
  await page.waitForTimeout(1000);
  expect(await gameShown(page)).toEqual(asked);
  // asked again (the request whole this time): the bot plays, then it is the human's turn
  await again.click();
  await expect(page.locator('#moves button.move[data-player="0"]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot):');
  await expect(page.locator('#message')).toBeHidden();
});

test('vs bot: Stop while the bot’s answer waits out its pause (it has come) plays nothing; its worker, idle, is kept', async ({ page }) => {
  const answers = await countBotAnswers(page, false);
  await open(page, '?botDelay=5000');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await move(page, 'Mark → C').click();
  await expect(page.locator('#moves')).toBeFocused();
  await expect.poll(answers).toEqual([1]); // the bot has chosen; the page waits before it plays
  const asked = await gameShown(page);
  expect(await seriousViolations(page, '.moves-panel')).toEqual([]); // Stop among the moves
  // by keyboard: Tab from the moves panel reaches Stop
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Stop the bot' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#message')).toHaveText(STOPPED('Random (weakest)'));
  await page.waitForTimeout(6000);
  expect(await gameShown(page)).toEqual(asked);
  await expect(page.locator('[data-zone="Board"] [data-prop="mark"] .v').filter({ hasText: /^1$/ })).toHaveCount(0);
  expect(botWorkers(page)).toBe(1); // nothing was searching: the worker stays, its engine loaded
  // "Bot, move": the bot plays (after its pause)
  await expect(page.getByRole('button', { name: 'Bot, move' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-zone="Board"] [data-prop="mark"] .v').filter({ hasText: /^1$/ })).toHaveCount(1, { timeout: 10_000 });
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  expect(await answers()).toEqual([2]);
});
