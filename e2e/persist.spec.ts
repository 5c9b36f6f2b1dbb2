// Keep and share: a reload keeps the edited definition and the game in progress (exactly), a
// corrupt kept value is ignored with a notice; a share link opens the exact definition and a
// broken one says so; an exported game imported again replays, Step by Step or all at once,
// to the same state hash, and a malformed file or an illegal move in it gives its error.
import { test, expect, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { editorText, setEditorText } from './editor-helpers.js';
import { failOnPageErrors } from './page-errors.js';
import { failOnConsoleErrors, mark, marks, moveButton, openAt } from './shell-helpers.js';

failOnPageErrors();
failOnConsoleErrors();

const example = (file: string) => readFile(new URL(`../examples/${file}`, import.meta.url), 'utf8');
const KEY = 'rulestack-playground:/'; // persist.ts: one key per page path

const notice = (page: Page, topic: string) => page.locator(`#notices .notice[data-topic="${topic}"]`);

/** What the page shows of the game: enough to say it is the same one. */
async function shown(page: Page) {
  return {
    hash: await page.locator('#hash').textContent(),
    seed: await page.locator('#seed-used').textContent(),
    game: await page.locator('#sum-game').textContent(),
    log: await page.locator('#log .log-group summary').allTextContents(),
    moves: await page.locator('#moves button.move').allTextContents(),
  };
}

test('a reload keeps the edited definition, the game in progress (board, moves, log, hash) and the mode', async ({ page }) => {
  await openAt(page, '/?botDelay=0');
  const edited = (await example('tictactoe.yaml')).replace(/^name: .*$/m, 'name: Kept tic-tac-toe');
  await setEditorText(page, edited);
  await page.locator('#load').click();
  await expect(page.locator('#sum-game')).toHaveText('Kept tic-tac-toe');
  await mark(page, ['C', 'NW', 'N']);
  // an edit after the load, not loaded: kept as text, the game stays the loaded one
  const draft = `${edited}# an edit not loaded yet\n`;
  await setEditorText(page, draft);
  await page.locator('#bot-strength').selectOption('hard');
  const before = await shown(page);
  expect(before.log).toHaveLength(4); // 3 moves + setup
  const board = await marks(page);
  expect(board).toMatchObject({ C: '0', NW: '1', N: '0' });

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  await expect.poll(() => editorText(page)).toBe(draft);
  expect(await shown(page)).toEqual(before);
  expect(await marks(page)).toEqual(board);
  await expect(page.locator('#bot-strength')).toHaveValue('hard');
  await expect(page.locator('#notices .notice')).toHaveCount(0);
  // the kept game is a real one: it goes on, and undo takes back the kept moves
  await page.locator('#undo').click();
  await expect(page.locator('[data-entity="N"] [data-prop="mark"] .v')).toHaveText('–');
  await moveButton(page, 'Mark → S').click();
  await expect(page.locator('[data-entity="S"] [data-prop="mark"] .v')).toHaveText('0');

  // vs bot: the mode is kept, and the bot's moves with the human's (O, player 1, was to move: the bot does)
  await page.locator('#mode').selectOption('bot');
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot): Mark →', { timeout: 10_000 });
  await expect(page.locator('#log .log-group')).toHaveCount(5); // setup, C, NW, S, the bot's
  const vsBot = await shown(page);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  await expect(page.locator('#mode')).toHaveValue('bot');
  expect(await shown(page)).toEqual(vsBot);
});

/**
 * Opens the page with this value kept. (Set before the page's scripts run: a page that is
 * left keeps its own state, over anything written from a test while it is open.)
 */
async function openWithKept(page: Page, value: string): Promise<void> {
  await openAt(page, `/?kept=${encodeURIComponent(value)}`);
}

test('a corrupt kept value is ignored with a notice: the page starts as new', async ({ page }) => {
  await page.addInitScript((key) => {
    const kept = new URLSearchParams(location.search).get('kept');
    if (kept !== null) localStorage.setItem(key, kept);
  }, KEY);
  for (const [value, why] of [
    ['{"v":1,"file":"tictactoe.yaml","text":', 'not JSON'],
    ['{"v":1,"file":"tictactoe.yaml","text":"x","mode":"hotseat","botStrength":"normal","game":{"definition":"x","seed":5,"moves":[{"player":0}]}}', 'game.moves[0].player: must be a player id'],
    ['[1,2]', 'not an object'],
  ]) {
    await openWithKept(page, value!);
    await expect(notice(page, 'kept')).toContainText(`The page's kept state could not be read and was ignored (${why}`);
    await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
    await expect.poll(() => editorText(page)).toBe(await example('tictactoe.yaml'));
  }
  // a kept game whose moves no longer apply: shown up to the refused move, which is named
  const text = await example('tictactoe.yaml');
  const kept = { v: 1, file: 'tictactoe.yaml', text, mode: 'hotseat', botStrength: 'normal', game: { definition: text, seed: 3, moves: [{ player: '0', move: { action: 'Mark', targets: ['C'] } }, { player: '1', move: { action: 'Mark', targets: ['C'] } }] } };
  await openWithKept(page, JSON.stringify(kept));
  await expect(notice(page, 'kept')).toContainText('The kept game could not be replayed past move 2 of 2 (player 1: {"action":"Mark","targets":["C"]})');
  await expect(page.locator('[data-entity="C"] [data-prop="mark"] .v')).toHaveText('0');
  await expect(page.locator('#seed-used')).toHaveText('seed 3');
});

test('a share link opens the exact definition in a new page; a broken link says why', async ({ page, context }) => {
  await openAt(page, '/');
  const text = `${(await example('tictactoe.yaml')).replace(/^name: .*$/m, 'name: "Shared — ünïcödé ✓"')}\n# a comment and trailing spaces   \n`;
  await setEditorText(page, text);
  await page.locator('#share').click();
  const link = await page.locator('#share-url').inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#def=[A-Za-z0-9_-]+$/);
  await expect(notice(page, 'share')).toContainText('Share link');

  const other = await context.newPage();
  await openAt(other, link);
  await expect.poll(() => editorText(other)).toBe(text);
  await expect(other.locator('#sum-game')).toHaveText('Shared — ünïcödé ✓');
  await expect(notice(other, 'share')).toContainText('Loaded the definition of the share link');
  expect(new URL(other.url()).hash).toBe(''); // a reload restores the page's own state
  await other.close();

  // pasted into the address of the open page (a hash change, no new page): loaded too
  await setEditorText(page, 'name: something else\n');
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
  await page.goto(link);
  await expect.poll(() => editorText(page)).toBe(text);
  await expect(page.locator('#sum-game')).toHaveText('Shared — ünïcödé ✓');
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);

  for (const [hash, why] of [
    ['#def=not*base64', 'characters that base64url does not use'],
    ['#def=AAAAAAAA', 'does not unpack'],
    ['#def=', 'holds no definition'],
  ]) {
    await openAt(page, `/?broken=${encodeURIComponent(hash)}${hash}`); // a new query: a new page, not a hash change
    await expect(notice(page, 'share')).toContainText(`This share link cannot be read: the link`);
    await expect(notice(page, 'share')).toContainText(why);
    await expect(page.locator('#status')).toHaveText('ready');
  }
});

/** Plays Crazy Eights (seed 42) against the random bot, the human's first listed move each time, until the bot has moved `botTurns` times. */
async function playCrazyEights(page: Page, botTurns: number): Promise<void> {
  await page.locator('#seed').fill('42');
  await page.locator('#game-picker').selectOption('crazy-eights.yaml');
  await page.locator('#bot-strength').selectOption('random');
  await page.locator('#mode').selectOption('bot');
  const botMoves = page.locator('#log .log-group summary').filter({ hasText: 'Player 1 (bot):' });
  const human = page.locator('#moves [data-player="0"] button.move').first();
  for (let i = 0; i < 40 && (await botMoves.count()) < botTurns; i++) {
    await human.click();
    await expect(human).toBeVisible(); // the human's turn again: the bot has answered (a Draw keeps the turn)
  }
  expect(await botMoves.count()).toBeGreaterThanOrEqual(botTurns);
}

test('export, then import: Step, Play all and Back to start replay to the same state hash', async ({ page }) => {
  await openAt(page, '/?botDelay=0');
  await playCrazyEights(page, 3);
  const final = await page.locator('#hash').textContent();
  const moveCount = (await page.locator('#log .log-group').count()) - 1;

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export').click()]);
  expect(download.suggestedFilename()).toBe('crazy-eights-game.json');
  const file = await readFile((await download.path())!, 'utf8');
  const record = JSON.parse(file);
  expect(record).toMatchObject({ format: 'rulestack-game', version: 1, definition: await example('crazy-eights.yaml'), seed: 42, stateHash: final });
  expect(record.moves).toHaveLength(moveCount);
  expect(record.moves[0]).toEqual({ player: '0', move: expect.any(Object) });

  // another game on the page, then the import
  await page.locator('#game-picker').selectOption('tictactoe.yaml');
  await page.locator('#import-file').setInputFiles({ name: 'saved.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await expect(page.locator('#replay-bar')).toBeVisible();
  await expect(page.locator('#replay-title')).toHaveText('Replay of saved.json');
  await expect(page.locator('#replay-pos')).toHaveText(`move 0 of ${moveCount}`);
  await expect(page.locator('#mode')).toHaveValue('hotseat'); // no bot plays into a replay
  await expect(page.locator('#sum-game')).toHaveText('Crazy Eights');
  await expect(page.locator('#seed-used')).toHaveText('seed 42');
  const start = await page.locator('#hash').textContent();

  await page.locator('#replay-step').click();
  await expect(page.locator('#replay-pos')).toHaveText(`move 1 of ${moveCount}`);
  await expect(page.locator('#hash')).not.toHaveText(start!);
  await page.locator('#replay-all').click();
  await expect(page.locator('#replay-pos')).toHaveText(`move ${moveCount} of ${moveCount}`);
  await expect(page.locator('#hash')).toHaveText(final!);
  await expect(notice(page, 'replay')).toContainText(`all ${moveCount} moves replayed, state ${final} as recorded`);
  await expect(page.locator('#replay-step')).toBeDisabled();

  await page.locator('#replay-start').click();
  await expect(page.locator('#replay-pos')).toHaveText(`move 0 of ${moveCount}`);
  await expect(page.locator('#hash')).toHaveText(start!);
  // undo by hand leaves the recorded line: the bar says so and stops stepping
  await page.locator('#replay-step').click();
  await expect(page.locator('#replay-pos')).toHaveText(`move 1 of ${moveCount}`);
  await page.locator('#undo').click();
  await expect(page.locator('#replay-pos')).toContainText('the game has left the recorded moves');
  await expect(page.locator('#replay-step')).toBeDisabled();
});

test('import errors: a malformed file and an illegal move say what and where', async ({ page }) => {
  await openAt(page, '/');
  const hash = await page.locator('#hash').textContent();
  const text = await example('tictactoe.yaml');
  const load = (name: string, content: string) => page.locator('#import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
  const record = (moves: unknown, extra = {}) => JSON.stringify({ format: 'rulestack-game', version: 1, definition: text, seed: 1, moves, ...extra });

  for (const [content, why] of [
    ['{ not json', 'Import bad.json: not JSON ('],
    ['{"format":"something-else"}', 'Import bad.json: format: must be "rulestack-game"'],
    [record([{ player: 0, move: {} }]), 'Import bad.json: moves[0].player: must be a player id'],
    [record([{ player: '0', move: 'Mark C' }]), 'Import bad.json: moves[0].move: must be a move object'],
    [record([], { seed: 1.5 }), 'Import bad.json: seed: a seed is a safe integer, a string or { "bigint": "<digits>" }'],
  ]) {
    await load('bad.json', content);
    await expect(notice(page, 'import')).toContainText(why);
    await expect(notice(page, 'import')).toContainText('Nothing was loaded.');
    await expect(page.locator('#replay-bar')).toBeHidden();
    await expect(page.locator('#hash')).toHaveText(hash!); // the game on the page is untouched
  }

  // the same cell twice: the second move is refused, named, and the game stays before it
  const mv = (player: string, cell: string) => ({ player, move: { action: 'Mark', targets: [cell] } });
  await load('illegal.json', record([mv('0', 'C'), mv('1', 'N'), mv('0', 'N')]));
  await expect(page.locator('#replay-pos')).toHaveText('move 0 of 3');
  await page.locator('#replay-all').click();
  await expect(notice(page, 'replay')).toContainText('Import illegal.json: move 3 of 3 (player 0: {"action":"Mark","targets":["N"]}) is illegal here: Illegal move (');
  await expect(page.locator('#replay-pos')).toHaveText('move 2 of 3');
  await expect(page.locator('#replay-step')).toBeDisabled();
  expect(await marks(page)).toMatchObject({ C: '0', N: '1' });
});

test('from the keyboard: Enter, Enter steps through an imported game (the focus stays on Step, then on Back to start); closing the bar or a notice gives the focus back', async ({ page }) => {
  await openAt(page, '/');
  const text = await example('tictactoe.yaml');
  const mv = (player: string, cell: string) => ({ player, move: { action: 'Mark', targets: [cell] } });
  const record = JSON.stringify({ format: 'rulestack-game', version: 1, definition: text, seed: 1, moves: [mv('0', 'C'), mv('1', 'N'), mv('0', 'NW')] });
  await page.locator('#import-file').setInputFiles({ name: 'ttt.json', mimeType: 'application/json', buffer: Buffer.from(record) });
  await expect(page.locator('#replay-pos')).toHaveText('move 0 of 3');

  // Step keeps the focus while it can step: a second Enter is the record's next move, not a move of the page's
  await page.locator('#replay-step').focus();
  for (const at of [1, 2]) {
    await page.keyboard.press('Enter');
    await expect(page.locator('#replay-pos')).toHaveText(`move ${at} of 3`);
    await expect(page.locator('#replay-step')).toBeFocused();
  }
  await page.keyboard.press('Enter');
  await expect(page.locator('#replay-pos')).toHaveText('move 3 of 3');
  await expect(page.locator('#replay-start')).toBeFocused(); // the end of the record: Step is disabled
  expect(await marks(page)).toMatchObject({ C: '0', N: '1', NW: '0' });
  await page.keyboard.press('Enter');
  await expect(page.locator('#replay-pos')).toHaveText('move 0 of 3');
  await expect(page.locator('#replay-start')).toBeFocused();
  // Play all: to the end, then Back to start too
  await page.locator('#replay-all').press('Enter');
  await expect(page.locator('#replay-pos')).toHaveText('move 3 of 3');
  await expect(page.locator('#replay-start')).toBeFocused();

  // Close: the bar's buttons go, the focus goes back to Import game
  await page.locator('#replay-close').press('Enter');
  await expect(page.locator('#replay-bar')).toBeHidden();
  await expect(page.locator('#import')).toBeFocused();
  // a notice that came with no control focused: closed, the focus goes to the moves
  await notice(page, 'import').locator('.notice-close').press('Enter');
  await expect(notice(page, 'import')).toHaveCount(0);
  await expect(page.locator('#moves button.move').first()).toBeFocused();
  // Share link's notice: closed, back on Share link
  await page.locator('#share').press('Enter');
  await expect(page.locator('#share-url')).toBeFocused();
  await notice(page, 'share').locator('.notice-close').press('Enter');
  await expect(notice(page, 'share')).toHaveCount(0);
  await expect(page.locator('#share')).toBeFocused();
});

test('a share link of an edited example opens as a custom definition; Revert goes back to the shared text, after a reload too', async ({ page, browser }) => {
  await openAt(page, '/');
  await page.locator('#game-picker').selectOption('duel.yaml');
  const text = `# my variant\n${await example('duel.yaml')}`;
  await setEditorText(page, text);
  await page.locator('#share').click();
  const link = await page.locator('#share-url').inputValue();

  // another browser: nothing kept there
  const context = await browser.newContext();
  const other = await context.newPage();
  try {
    await openAt(other, link);
    await expect.poll(() => editorText(other)).toBe(text);
    const picked = other.locator('#game-picker option:checked');
    await expect(picked).toHaveText('Duel — custom definition (shared or imported)');
    // Revert takes back the edits made since, not the shared text
    await setEditorText(other, 'name: Oops\n');
    await other.locator('#revert').click();
    await expect.poll(() => editorText(other)).toBe(text);
    await expect(other.locator('#sum-game')).toHaveText('Duel');
    // another example and back: the custom definition is still there, and kept across a reload
    await other.locator('#game-picker').selectOption('tictactoe.yaml');
    await other.locator('#game-picker').selectOption({ label: 'Duel — custom definition (shared or imported)' });
    await expect.poll(() => editorText(other)).toBe(text);
    await setEditorText(other, 'name: Oops again\n');
    await other.reload();
    await expect(other.locator('#status')).toHaveText('ready', { timeout: 15_000 });
    await expect(picked).toHaveText('Duel — custom definition (shared or imported)');
    await expect.poll(() => editorText(other)).toBe('name: Oops again\n');
    await other.locator('#revert').click();
    await expect.poll(() => editorText(other)).toBe(text);
  } finally {
    await context.close();
  }
});

test('import: the picker names the example of an unmodified game file (custom otherwise); an Undo after Play all shows the move the game is at', async ({ page }) => {
  await openAt(page, '/');
  await page.locator('#game-picker').selectOption('duel.yaml');
  const text = await example('tictactoe.yaml');
  const mv = (player: string, cell: string) => ({ player, move: { action: 'Mark', targets: [cell] } });
  const record = (definition: string) => JSON.stringify({ format: 'rulestack-game', version: 1, definition, seed: 1, moves: [mv('0', 'C'), mv('1', 'N'), mv('0', 'NW')] });
  const load = (content: string) => page.locator('#import-file').setInputFiles({ name: 'ttt.json', mimeType: 'application/json', buffer: Buffer.from(content) });

  await load(record(text));
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await expect(page.locator('#game-picker')).toHaveValue('tictactoe.yaml');
  await page.locator('#replay-step').click();
  await page.locator('#replay-step').click();
  const atTwo = await page.locator('#hash').textContent();
  await page.locator('#replay-all').click();
  await expect(page.locator('#replay-pos')).toHaveText('move 3 of 3');
  // undo by hand leaves the recorded line, and the bar gives the move the game is at
  await page.locator('#undo').click();
  await expect(page.locator('#hash')).toHaveText(atTwo!);
  await expect(page.locator('#replay-pos')).toHaveText('move 2 of 3 — the game has left the recorded moves (Back to start replays them again)');
  await expect(page.locator('#replay-step')).toBeDisabled();

  // an edited definition is no example
  await load(record(text.replace(/^name: .*$/m, 'name: Imported')));
  await expect(page.locator('#sum-game')).toHaveText('Imported');
  await expect(page.locator('#game-picker option:checked')).toHaveText('Imported — custom definition (shared or imported)');
});
