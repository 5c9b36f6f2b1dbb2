// Hidden information in the playground (issue 12): the hot-seat hand-over screen, the View
// menu that shows another player's cards only under "debug", the bot strengths, the seeds.
import { test, expect, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';
import type { Move } from '../dist/index.js';
import { failOnPageErrors } from './page-errors.js';
import { open, loadGame, move } from './playground-page.js';

failOnPageErrors();

const example = (file: string) => readFile(new URL(`../examples/${file}`, import.meta.url), 'utf8');

/** The ids of the entities in a player's hand, as that player sees them (node, same seed). */
async function hands(file: string, seed: number): Promise<{ hand0: string[]; hand1: string[] }> {
  const rs = await loadEngine();
  const game = rs.createGame(await example(file), { seed });
  const ids = (p: string) => (game.view(p).zones[`Hand:${p}`]!.entities ?? []).map((e) => e.id);
  const r = { hand0: ids('0'), hand1: ids('1') };
  game.dispose();
  return r;
}

/** Whether a game panel (the local one, the online one: their whole DOM, shown or not) names any of these entity ids. */
async function namesAny(page: Page, ids: string[]): Promise<string[]> {
  const text = (await page.locator('section.game-panel').allTextContents()).join(' ');
  // textContent runs words together ("cardCard#12"), so only the end of an id is delimited
  return ids.filter((id) => new RegExp(`${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(text));
}

for (const file of ['crazy-eights.yaml', 'duel.yaml']) {
  test(`hot-seat ${file}: after player 0's turn a hand-over screen hides both hands until player 1 takes the device`, async ({ page }) => {
    await open(page);
    await loadGame(page, file, '7');
    const { hand0, hand1 } = await hands(file, 7);
    expect(hand0.length).toBeGreaterThan(0);
    expect(hand1.length).toBeGreaterThan(0);

    // player 0 loaded the game: their hand is shown, player 1's is face down
    await expect(page.locator('#handover')).toBeHidden();
    await expect(page.locator('#viewing')).toHaveText('Player 0');
    await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(hand0.length);
    await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
    expect(await namesAny(page, hand0)).toEqual(hand0); // (the check below does see names)
    expect(await namesAny(page, hand1)).toEqual([]);

    await move(page, 'Pass').click();

    // the hand-over: an accessible dialog with its button focused, and no board, hand or move in the DOM
    const dialog = page.getByRole('dialog', { name: 'Pass the device to Player 1' });
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'I am Player 1 — show my cards' });
    await expect(confirm).toBeFocused();
    await expect(page.locator('#handover-text')).toHaveAttribute('aria-live', 'polite');
    await expect(page.locator('#board [data-zone]')).toHaveCount(0);
    await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(0);
    await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
    await expect(page.locator('#board [data-entity], #moves button, #log .log-group')).toHaveCount(0);
    expect(await namesAny(page, [...hand0, ...hand1])).toEqual([]);
    await expect(page.locator('#viewing')).toHaveText('nobody (hand-over)');
    await expect(page.locator('#to-act')).toHaveText('Player 1'); // public: whose turn it is

    // undo stays possible (player 0 may take the move back), so it must not show player 1's view
    await expect(page.locator('#undo')).toBeEnabled();

    // player 1 takes the device (the focused button: Enter)
    await page.keyboard.press('Enter');
    await expect(page.locator('#handover')).toBeHidden();
    await expect(page.locator('#viewing')).toHaveText('Player 1');
    await expect(page.locator('[data-zone="Hand:1"] .card')).not.toHaveCount(0);
    await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(0);
    await expect(page.locator('[data-zone="Hand:0"] .facedown')).toBeVisible();
    for (const id of hand1) await expect(page.locator(`[data-zone="Hand:1"] [data-entity="${id}"]`)).toHaveCount(1);
    expect(await namesAny(page, hand1)).toEqual(hand1);
    expect(await namesAny(page, hand0)).toEqual([]); // nor in the log player 1 reads
    await expect(page.locator('#moves button.move[data-player="1"]').first()).toBeFocused();

    // and back: player 1 ends the turn, the screen asks for player 0
    await move(page, 'Pass').click();
    await expect(page.getByRole('dialog', { name: 'Pass the device to Player 0' })).toBeVisible();
    await expect(page.locator('#board [data-entity]')).toHaveCount(0);
    await page.getByRole('button', { name: 'I am Player 0 — show my cards' }).click();
    await expect(page.locator('#viewing')).toHaveText('Player 0');
    await expect(page.locator('[data-zone="Hand:0"] .card')).not.toHaveCount(0);
    await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
  });
}

test('hot-seat undo during the hand-over gives the device back to the player who moved, with no screen', async ({ page }) => {
  await open(page);
  await loadGame(page, 'crazy-eights.yaml', '11');
  const hash = await page.locator('#hash').textContent();
  await move(page, 'Pass').click();
  await expect(page.locator('#handover')).toBeVisible();
  await page.locator('#undo').click();
  await expect(page.locator('#handover')).toBeHidden();
  await expect(page.locator('#hash')).toHaveText(hash!);
  await expect(page.locator('#viewing')).toHaveText('Player 0');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(7);
});

test('hot-seat: a reload brings a game with hidden cards back behind the hand-over screen for the player to act, no hand on the page before the confirm', async ({ page }) => {
  await open(page);
  await loadGame(page, 'duel.yaml', '42');
  await page.locator('#moves button.move[data-player="0"]').first().click();
  await page.getByRole('button', { name: 'I am Player 1 — show my cards' }).click();
  await page.locator('#moves button.move[data-player="1"]').first().click();
  // player 1 still has the device, the screen asks for player 0: a reload here must not show player 0's hand to player 1
  await expect(page.getByRole('dialog', { name: 'Pass the device to Player 0' })).toBeVisible();
  const hash = await page.locator('#hash').textContent();
  // the hands as they are now: the kept moves replayed in node
  const kept = JSON.parse((await page.evaluate(() => localStorage.getItem('rulestack-playground:/')))!) as { game: { moves: Array<{ player: string; move: Move }> } };
  expect(kept.game.moves).toHaveLength(2);
  const rs = await loadEngine();
  const game = rs.createGame(await example('duel.yaml'), { seed: 42 });
  for (const { player, move: m } of kept.game.moves) game.apply(player, m);
  const ids = (p: string) => (game.view(p).zones[`Hand:${p}`]!.entities ?? []).map((e) => e.id);
  const [hand0, hand1] = [ids('0'), ids('1')];
  game.dispose();
  expect(hand0.length).toBeGreaterThan(0);

  const backBehindTheScreen = async () => {
    await page.reload();
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
    await expect(page.locator('#hash')).toHaveText(hash!);
    await expect(page.getByRole('dialog', { name: 'Pass the device to Player 0' })).toBeVisible();
    await expect(page.locator('#viewing')).toHaveText('nobody (hand-over)');
    await expect(page.locator('#board [data-entity], #moves button, #log .log-group')).toHaveCount(0);
    expect(await namesAny(page, [...hand0, ...hand1])).toEqual([]);
  };
  await backBehindTheScreen();
  await page.getByRole('button', { name: 'I am Player 0 — show my cards' }).click();
  await expect(page.locator('#viewing')).toHaveText('Player 0');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(hand0.length);
  expect(await namesAny(page, hand1)).toEqual([]);
  // player 0 has the device: who reloads may still be anyone, so the screen again
  await backBehindTheScreen();
});

test('tic-tac-toe (nothing hidden) never shows the hand-over: the view follows the player to act', async ({ page }) => {
  await open(page);
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  const cells = ['NW', 'W', 'N', 'C', 'NE'];
  for (const [i, cell] of cells.entries()) {
    await expect(page.locator('#viewing')).toHaveText(`Player ${i % 2}`);
    await move(page, `Mark → ${cell}`).click();
    await expect(page.locator('#handover')).toBeHidden();
    await expect(page.locator('#board [data-entity="C"]')).toHaveCount(1);
  }
  await expect(page.locator('#result')).toHaveText('Player 0 wins');
  await expect(page.locator('#handover')).toBeHidden();
});

test('vs bot: the View menu offers no other player’s view until "debug: show every view" is ticked', async ({ page }) => {
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await loadGame(page, 'crazy-eights.yaml', '7');
  const { hand1 } = await hands('crazy-eights.yaml', 7);

  const values = () => page.locator('#viewer option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  await expect(page.locator('#debug-views')).not.toBeChecked();
  expect(await values()).toEqual(['auto', 'spectator']);
  await expect(page.locator('#viewer option')).toHaveText(['you (Player 0)', 'spectator (public cards only)']);
  await expect(page.locator('#viewing')).toHaveText('Player 0 (you)');
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
  expect(await namesAny(page, hand1)).toEqual([]);

  // the spectator sees neither hand
  await page.locator('#viewer').selectOption('spectator');
  await expect(page.locator('#viewing')).toHaveText('spectator');
  await expect(page.locator('[data-zone="Hand:0"] .card')).toHaveCount(0);

  // the explicit debug choice: now every player's view is offered, labelled as debug
  await page.locator('#debug-views').check();
  expect(await values()).toEqual(['auto', 'spectator', 'p:0', 'p:1']);
  await expect(page.locator('#viewer optgroup')).toHaveAttribute('label', /debug/);
  await page.locator('#viewer').selectOption('p:1');
  await expect(page.locator('#viewing')).toHaveText('Player 1 (bot) (debug)');
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(hand1.length);

  // unticked: the other views go, and the page is back to the human's own
  await page.locator('#debug-views').uncheck();
  expect(await values()).toEqual(['auto', 'spectator']);
  await expect(page.locator('#viewer')).toHaveValue('auto');
  await expect(page.locator('#viewing')).toHaveText('Player 0 (you)');
  await expect(page.locator('[data-zone="Hand:1"] .card')).toHaveCount(0);
});

test('hot-seat: another player’s view is only a debug choice too', async ({ page }) => {
  await open(page);
  await loadGame(page, 'duel.yaml', '7');
  const values = () => page.locator('#viewer option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(await values()).toEqual(['auto', 'spectator']);
  await expect(page.locator('#viewer option').first()).toHaveText('the player to act (after the hand-over)');
  await page.locator('#debug-views').check();
  expect(await values()).toEqual(['auto', 'spectator', 'p:0', 'p:1']);
  await page.locator('#viewer').selectOption('p:1');
  await expect(page.locator('#viewing')).toHaveText('Player 1 (debug)');
  await expect(page.locator('[data-zone="Hand:1"] .card')).not.toHaveCount(0);
});

/** Records what the page asks the bot worker (its requests carry the bot options). */
async function recordBotRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { botRequests: unknown[] };
    w.botRequests = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      // the bot worker's requests (the editor's lint worker is sent { id, text })
      if (message && typeof message === 'object' && 'snapshot' in message) w.botRequests.push(message);
      return (post as (...a: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
}

const botOptionsSent = (page: Page) =>
  page.evaluate(() => (window as unknown as { botRequests: Array<{ options: Record<string, unknown> }> }).botRequests.map((r) => r.options));

test('vs a Normal bot (the default strength): the worker gets { level: "normal" } and the bot plays Crazy Eights', async ({ page }) => {
  test.setTimeout(60_000); // MCTS moves on a loaded 2-core machine
  await recordBotRequests(page);
  await open(page, '?botDelay=0');
  await expect(page.locator('#bot-strength')).toHaveValue('normal');
  await expect(page.locator('#bot-strength option')).toHaveText(['Random (weakest)', 'Easy', 'Normal', 'Hard']);
  await page.locator('#mode').selectOption('bot');
  await loadGame(page, 'crazy-eights.yaml', '3');

  const botMoves = page.locator('#log .log-group summary').filter({ hasText: 'Player 1 (bot):' });
  const ready = page.locator('#result.over, #moves button.move[data-player="0"]').first();
  for (let i = 0; i < 20 && (await botMoves.count()) < 3; i++) {
    await expect(ready).toBeVisible({ timeout: 15_000 });
    if (await page.locator('#result.over').count()) break;
    // the human plays the first move offered (a card, a draw or a pass)
    await page.locator('#moves button.move[data-player="0"]').first().click();
    await expect(ready).toBeVisible({ timeout: 15_000 });
  }
  expect(await botMoves.count()).toBeGreaterThanOrEqual(3);
  await expect(page.locator('#message')).toBeHidden(); // no bot error
  const sent = await botOptionsSent(page);
  expect(sent.length).toBeGreaterThanOrEqual(3);
  for (const o of sent) {
    expect(o.level).toBe('normal');
    expect(o.kind).toBeUndefined();
    expect(typeof o.seed).toBe('number');
  }

  // the human's log never names a card the bot drew: the bot's cards are handles ("?…")
  const intoBotHand = page.locator('#log .ev').filter({ hasText: /^OnZoneEnter\b/ }).filter({ hasText: /zone=Hand:1(\s|$)/ });
  expect(await intoBotHand.count()).toBeGreaterThan(0); // the deal at least
  for (const text of await intoBotHand.allTextContents()) expect(text).toMatch(/entity=\?/);
});

test('the strength select: Random passes { kind: "random" }, Hard passes { level: "hard" }', async ({ page }) => {
  await recordBotRequests(page);
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await move(page, 'Mark → C').click();
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot): Mark →', { timeout: 10_000 });
  await page.locator('#bot-strength').selectOption('hard');
  await page.locator('#moves button.move[data-player="0"]').first().click(); // a cell the random bot left free
  await expect(page.locator('#log .log-group')).toHaveCount(5, { timeout: 15_000 }); // 4 moves + setup
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');
  const sent = await botOptionsSent(page);
  expect(sent.map((o) => o.kind ?? o.level)).toEqual(['random', 'hard']);
});

test('seeds: empty is random and shown; an integer is a number, anything else a string; the same seed, the same game', async ({ page }) => {
  await open(page);
  const rs = await loadEngine();
  const text = await example('crazy-eights.yaml');
  const hashOf = (seed: number | string) => {
    const g = rs.createGame(text, { seed });
    const h = g.stateHash();
    g.dispose();
    return h;
  };

  // empty: a fresh seed each load, shown, and replayable
  await expect(page.locator('#seed')).toHaveAttribute('placeholder', 'random');
  await loadGame(page, 'crazy-eights.yaml', '');
  await expect(page.locator('#seed-used')).toHaveText(/^seed \d+$/);
  const first = Number(await page.locator('#seed-used').getAttribute('data-seed'));
  await expect(page.locator('#hash')).toHaveText(hashOf(first));
  await page.locator('#load').click();
  await expect(page.locator('#seed-used')).not.toHaveText(`seed ${first}`);
  const second = Number(await page.locator('#seed-used').getAttribute('data-seed'));
  await expect(page.locator('#hash')).toHaveText(hashOf(second));

  // typing the shown seed replays that game
  await page.locator('#seed').fill(String(first));
  await page.locator('#seed').press('Enter');
  await expect(page.locator('#seed-used')).toHaveText(`seed ${first}`);
  await expect(page.locator('#hash')).toHaveText(hashOf(first));

  // an integer string is a number (-5 is its own game), anything else is passed as a string
  for (const [typed, seed] of [
    ['-5', -5],
    ['007', 7],
    ['hello', 'hello'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['12', 12],
  ] as Array<[string, number | string]>) {
    await page.locator('#seed').fill(typed);
    await page.locator('#load').click();
    await expect(page.locator('#seed-used')).toHaveText(`seed ${seed}`);
    await expect(page.locator('#hash')).toHaveText(hashOf(seed));
  }
  expect(hashOf('12')).not.toBe(hashOf(12)); // which is why "12" must become the number 12
});
