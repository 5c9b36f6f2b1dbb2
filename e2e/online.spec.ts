// "Play online" (issue 17): the spec starts a rulestack server (web/server/main.mjs, in
// memory) on a free port of 25700-25749 (RULESTACK_E2E_SERVER_PORTS="from-to" to move it),
// then two Chromium pages play a Duel through it by clicks to the end, while a third
// watches from the spectator link; and the errors a player can meet are shown.
import { test, expect, type Browser, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { open, loadGame } from './playground-page.js';
import { seriousViolations } from './axe.js';

const [FROM, TO] = (process.env.RULESTACK_E2E_SERVER_PORTS ?? '25700-25749').split('-').map(Number) as [number, number];

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
async function freePort(): Promise<number> {
  for (let p = FROM; p <= TO; p++) if (await portFree(p)) return p;
  throw new Error(`no free port in ${FROM}-${TO} for the rulestack server`);
}

interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** `npm run server`'s script on a free port, in memory; resolves once it listens. */
async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('../web/server/main.mjs', import.meta.url))], {
    env: { ...process.env, PORT: String(port), REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the rulestack server did not start in 20 s:\n${log}`)), 20_000);
    const take = (b: Buffer) => {
      log += b.toString();
      if (log.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => reject(new Error(`the rulestack server exited (${code}) before it listened:\n${log}`)));
  });
  return {
    url: `ws://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // main.mjs shuts down: its rooms close their clients' connections
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

let server: RunningServer | undefined;
let serverUrl = '';

test.beforeAll(async () => {
  server = await startServer();
  serverUrl = server.url;
});
test.afterAll(async () => {
  await server?.stop();
});

/** A page in a context of its own (its own storage, as another person's browser), its errors collected. */
async function person(browser: Browser, errors: string[], who: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => errors.push(`${who}: ${String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${who}: console.error: ${m.text()}`);
  });
  return page;
}

/** Two players and a spectator, each in a browser of their own; the errors their pages meet. */
async function threePeople(browser: Browser): Promise<{ errors: string[]; alice: Page; bob: Page; carol: Page }> {
  const errors: string[] = [];
  return { errors, alice: await person(browser, errors, 'player 0'), bob: await person(browser, errors, 'player 1'), carol: await person(browser, errors, 'spectator') };
}

const panel = (page: Page) => page.locator('#online');
const enabledMoves = (page: Page) => page.locator('#online-moves button.move:enabled');
const life = (page: Page, player: string) => page.locator(`#online .player[data-player="${player}"] [data-prop="life"] .v`);

/** The ids of the cards in a player's hand, as that player's page shows them. */
const handIds = (page: Page, player: string) => page.locator(`#online [data-zone="Hand:${player}"] [data-entity]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-entity')!));

/** Which of these ids the page's online panel names anywhere in its text or its attributes. */
async function named(page: Page, ids: string[]): Promise<string[]> {
  const html = await panel(page).evaluate((el) => el.outerHTML);
  return ids.filter((id) => new RegExp(`${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(html));
}

test('two pages play a Duel through the server to the end; a third watches as a spectator', async ({ browser }) => {
  test.setTimeout(180_000);
  const { errors, alice, bob, carol } = await threePeople(browser);

  // the ?server= parameter fills the Server field; the room is for the loaded definition
  await open(alice, `?server=${encodeURIComponent(serverUrl)}`);
  await loadGame(alice, 'duel.yaml', '');
  await expect(alice.locator('#online > *')).toHaveCount(0); // not in the page until opened (its board has the local one's ids)
  await alice.locator('#play-online').click();
  await expect(alice.locator('section.game-panel:not(#online)')).toBeHidden();
  await expect(alice.locator('#online-server')).toHaveValue(serverUrl);
  await alice.locator('#online-seed').fill('3');
  await alice.locator('#online-create').click();
  await expect(alice.locator('#online-status')).toContainText('you are Player 0');
  const playerLink = await alice.locator('#online-player-link').inputValue();
  const spectatorLink = await alice.locator('#online-spectator-link').inputValue();
  expect(playerLink).toMatch(/\?server=ws%3A%2F%2F127\.0\.0\.1%3A\d+&room=[\w-]+$/);
  expect(spectatorLink).toBe(`${playerLink}&seat=spectator`);

  // the second player opens the link; the spectator link shows the spectator view
  await bob.goto(playerLink);
  await expect(bob.locator('#online-status')).toContainText('you are Player 1. Its creator chose the seed, so they can work out the hidden cards.');
  // a joiner's editor holds the page's own example, not the room's definition: it is put away
  await expect(bob.locator('#editor-box')).toBeHidden();
  await expect(alice.locator('#editor-box')).toBeVisible();
  // in a room there is no room to create
  await expect(alice.locator('#online-create')).toBeHidden();
  await expect(alice.locator('#online-seed')).toBeHidden();
  await carol.goto(spectatorLink);
  await expect(carol.locator('#online-status')).toContainText('you are a spectator');
  await expect(carol.locator('#online #viewing')).toHaveText('spectator');
  await expect(alice.locator('#online #viewing')).toHaveText('Player 0 (you)');
  await expect(bob.locator('#online #viewing')).toHaveText('Player 1 (you)');
  await expect(carol.locator('#online #sum-game')).toHaveText('Duel');

  // each player sees their own hand and a face-down count of the other's; the spectator no hand
  const hand0 = await handIds(alice, '0');
  const hand1 = await handIds(bob, '1');
  expect(hand0.length).toBeGreaterThan(0);
  expect(hand1.length).toBeGreaterThan(0);
  await expect(alice.locator('#online [data-zone="Hand:1"] .card')).toHaveCount(0);
  await expect(alice.locator('#online [data-zone="Hand:1"] .facedown')).toBeVisible();
  await expect(bob.locator('#online [data-zone="Hand:0"] .card')).toHaveCount(0);
  await expect(carol.locator('#online [data-zone="Hand:0"] .facedown')).toBeVisible();
  await expect(carol.locator('#online [data-zone="Hand:1"] .facedown')).toBeVisible();
  expect(await named(carol, [...hand0, ...hand1])).toEqual([]);
  expect(await named(bob, hand0)).toEqual([]);
  expect(await named(alice, hand1)).toEqual([]);
  await expect(life(carol, '0')).toHaveText('20');
  await expect(life(carol, '1')).toHaveText('20');
  // the spectator has nothing to click
  await expect(carol.locator('#online-moves button')).toHaveCount(0);

  // the online panel as a player and as the spectator: no serious or critical axe violation
  expect(await seriousViolations(alice, '#online')).toEqual([]);
  expect(await seriousViolations(carol, '#online')).toEqual([]);

  // a move the room refuses: a button of a move that was legal before the last one (a page
  // drawn late), clicked after it; the refusal is said and the game is unchanged
  const stale = await alice.locator('#online-moves button.move.action').first().elementHandle();
  await alice.locator('#online-moves button.move.pass').click();
  await expect(bob.locator('#online-moves button.move:enabled').first()).toBeVisible();
  const turn = await alice.locator('#online #turn').textContent();
  await stale!.dispatchEvent('click');
  await expect(alice.locator('#online-message')).toContainText('The room refused the move: Illegal move (');
  await expect(alice.locator('#online-message')).toHaveClass(/error/);
  await expect(alice.locator('#online #turn')).toHaveText(turn!);
  await expect(bob.locator('#online-message')).toBeHidden();

  // play by clicks: whoever has moves plays the first that is not a pass, else passes
  const lifeSeen = new Set<string>();
  let clicks = 0;
  for (let round = 0; round < 600; round++) {
    if ((await alice.locator('#online-moves .over').count()) && (await bob.locator('#online-moves .over').count())) break;
    let clicked = false;
    for (const [page, seat] of [[alice, '0'], [bob, '1']] as const) {
      const moves = enabledMoves(page);
      if ((await moves.count()) === 0) continue;
      const action = page.locator('#online-moves button.move.action:enabled');
      const target = (await action.count()) ? action.first() : moves.first();
      // a hand the spectator and the opponent never see, however the game goes
      const hand = await handIds(page, seat);
      expect(await named(carol, hand)).toEqual([]);
      expect(await named(seat === '0' ? bob : alice, hand)).toEqual([]);
      await target.click({ timeout: 5000 }).catch(() => undefined); // re-drawn under the click: the next round sees the new moves
      clicked = true;
      clicks++;
      if (clicks === 8) {
        // a reload takes the seat back (its reconnection token, kept in the tab's sessionStorage)
        await bob.reload();
        await expect(bob.locator('#online-status')).toContainText('you are Player 1. Its creator chose the seed, so they can work out the hidden cards.');
        await expect(bob.locator('#online [data-zone="Hand:1"] .card')).not.toHaveCount(0);
      }
      break;
    }
    lifeSeen.add(`${await life(carol, '0').textContent()}/${await life(carol, '1').textContent()}`);
    if (!clicked) await alice.waitForTimeout(100);
  }
  await expect(alice.locator('#online-moves .over')).toBeVisible();
  await expect(bob.locator('#online-moves .over')).toBeVisible();
  await expect(carol.locator('#online-moves .over')).toBeVisible();
  const result = await alice.locator('#online #result').textContent();
  expect(result).toMatch(/^(Player [01]( \(you\))? wins|Draw)$/);
  // the same result on every page, each in its own words ("(you)" for the reader's seat)
  const plain = result!.replace(' (you)', '');
  for (const page of [bob, carol]) expect((await page.locator('#online #result').textContent())!.replace(' (you)', '')).toBe(plain);
  await expect(alice.locator('#online #result')).toHaveClass(/over/);
  expect(clicks).toBeGreaterThan(10);
  // the spectator saw the life totals move (the board follows the game)
  expect(lifeSeen.size).toBeGreaterThan(1);
  const finalLife = `${await life(carol, '0').textContent()}/${await life(carol, '1').textContent()}`;
  expect(finalLife).not.toBe('20/20');
  expect(`${await life(alice, '0').textContent()}/${await life(alice, '1').textContent()}`).toBe(finalLife);
  expect(`${await life(bob, '0').textContent()}/${await life(bob, '1').textContent()}`).toBe(finalLife);
  // the spectator's log is the spectator's: a draw names no card
  await expect(carol.locator('#online-log-reader')).toHaveText('as the spectator sees it, newest first');
  expect(await carol.locator('#online-log .log-group').count()).toBeGreaterThan(5);
  expect(errors).toEqual([]);

  // back to the local game: the online panel goes, the local game is there again
  await alice.locator('#online-leave').click();
  await expect(alice.locator('#online')).toBeHidden();
  await expect(alice.locator('#online > *')).toHaveCount(0);
  await expect(alice.locator('#sum-game')).toHaveText('Duel');
  expect(new URL(alice.url()).search).toBe('');
});

test('a room listed in the lobby is joined, then watched, from Open rooms; an unlisted one is not there', async ({ browser }) => {
  test.setTimeout(90_000);
  const { errors, alice, bob, carol } = await threePeople(browser);
  await open(alice, `?server=${encodeURIComponent(serverUrl)}`);
  await loadGame(alice, 'duel.yaml', '');
  await alice.locator('#play-online').click();
  await expect(alice.locator('#online-lobby')).toBeVisible();
  await alice.locator('#online-listed').check();
  await alice.locator('#online-create').click();
  await expect(alice.locator('#online-status')).toContainText('you are Player 0');
  await expect(alice.locator('#online-lobby')).toBeHidden(); // in a room: nothing to join
  const roomId = new URL(await alice.locator('#online-player-link').inputValue()).searchParams.get('room')!;

  // bob and carol open Play online: the room is listed with its open seat; bob's Join takes it
  await open(bob, `?server=${encodeURIComponent(serverUrl)}`);
  await bob.locator('#play-online').click();
  const row = bob.locator(`#online-rooms li[data-room="${roomId}"]`);
  await expect(row).toContainText('Duel — open: Player 1 — 1 connected');
  expect(await seriousViolations(bob, '#online')).toEqual([]);
  await open(carol, `?server=${encodeURIComponent(serverUrl)}`);
  await carol.locator('#play-online').click();
  const full = carol.locator(`#online-rooms li[data-room="${roomId}"]`);
  await expect(full).toContainText('Duel — open: Player 1 — 1 connected');
  await row.getByRole('button', { name: 'Join' }).click();
  await expect(bob.locator('#online-status')).toContainText(`Room ${roomId} on ${serverUrl} — you are Player 1.`);
  await expect(bob.locator('#online #viewing')).toHaveText('Player 1 (you)');
  await expect(bob.locator('#editor-box')).toBeHidden(); // (the room's definition, not its editor's)

  // carol's list follows the lobby (no Refresh): the room is full, no seat to take, only to watch
  await expect(full).toContainText('Duel — no open seat — 2 connected');
  await expect(full.getByRole('button', { name: 'Join' })).toBeDisabled();
  await full.getByRole('button', { name: 'Watch' }).click();
  await expect(carol.locator('#online-status')).toContainText('you are a spectator');
  await expect(carol.locator('#online #viewing')).toHaveText('spectator');

  // a room created without the box is not listed
  const dave = await person(browser, errors, 'other');
  await open(dave, `?server=${encodeURIComponent(serverUrl)}`);
  await dave.locator('#play-online').click();
  await dave.locator('#online-create').click();
  await expect(dave.locator('#online-status')).toContainText('you are Player 0');
  const unlisted = new URL(await dave.locator('#online-player-link').inputValue()).searchParams.get('room')!;
  await alice.locator('#online-leave').click(); // back to the local game, then to the lobby again
  await alice.locator('#play-online').click();
  await alice.locator('#online-refresh').click();
  await expect(alice.locator(`#online-rooms li[data-room="${roomId}"]`)).toContainText('Duel — open: Player 0 — 2 connected');
  await expect(alice.locator(`#online-rooms li[data-room="${unlisted}"]`)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a joiner reads the cards' rules text from the room's definition", async ({ browser }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  const alice = await person(browser, errors, 'player 0');
  const bob = await person(browser, errors, 'player 1');
  await open(alice, `?server=${encodeURIComponent(serverUrl)}`);
  await loadGame(alice, 'nexus.yaml', '');
  await alice.locator('#play-online').click();
  await alice.locator('#online-seed').fill('1');
  await alice.locator('#online-create').click();
  await expect(alice.locator('#online-status')).toContainText('you are Player 0');
  // bob's page loads its own default example: the room's definition comes from the room
  await bob.goto(await alice.locator('#online-player-link').inputValue());
  await expect(bob.locator('#online-status')).toContainText('you are Player 1. Its creator chose the seed, so they can work out the hidden cards.');
  const texts = new Map<string, string>();
  for (const e of (parseYaml(fs.readFileSync(new URL('../examples/nexus.yaml', import.meta.url), 'utf8')) as { entities: { id: string; text?: string }[] }).entities) {
    if (e.text) texts.set(e.id, e.text);
  }
  const cards = await bob.locator('#online [data-zone="Hand:1"] .card[data-entity]').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-entity')!, el.querySelector('.card-text')?.textContent ?? null] as const),
  );
  expect(cards.length).toBeGreaterThan(0);
  for (const [id, text] of cards) expect(text, id).toBe(texts.get(id.split('#')[0]!) ?? null);
  expect(cards.some(([, text]) => text !== null)).toBe(true);
  expect(errors).toEqual([]);
});

test('errors are shown: no server there, an address that is not one, a room that does not exist, a room gone with its server', async ({ browser }) => {
  const errors: string[] = [];
  const page = await person(browser, errors, 'player');
  // without ?server= the field is this page's host on the server's default port
  await open(page);
  await page.locator('#play-online').click();
  await expect(page.locator('#online-server')).toHaveValue('ws://127.0.0.1:2567');
  // nothing listens on this port (the browser logs the refused connection: not a page error)
  let dead = FROM;
  while (!(await portFree(dead)) && dead < TO) dead++;
  await open(page, `?server=${encodeURIComponent(`ws://127.0.0.1:${dead}`)}`);
  await page.locator('#play-online').click();
  await page.locator('#online-create').press('Enter');
  await expect(page.locator('#online-message')).toContainText(`Cannot create the room: cannot reach the server at ws://127.0.0.1:${dead} (is \`npm run server\` running there?) — Failed to fetch`);
  await expect(page.locator('#online-message')).toHaveClass(/error/);
  await expect(page.locator('#online-create')).toBeEnabled(); // try again
  await expect(page.locator('#online-create')).toBeFocused(); // (not <body>, as it was while the button was disabled)

  await page.locator('#online-server').fill('localhost:2567');
  await page.locator('#online-create').click();
  await expect(page.locator('#online-message')).toHaveText("Cannot create the room: the server address 'localhost:2567' must start with ws://, wss://, http:// or https:// and name a host");

  // a link to a room that does not exist (any more)
  await page.goto(`/?server=${encodeURIComponent(serverUrl)}&room=noSuchRoom`);
  await expect(page.locator('#online')).toBeVisible();
  await expect(page.locator('#online-message')).toHaveText('Cannot join room noSuchRoom: room "noSuchRoom" not found');
  await expect(page.locator('#online-status')).toHaveText('Not connected.');

  // the room goes with its server in the middle of a game
  const doomed = await startServer();
  try {
    await page.goto(`/?server=${encodeURIComponent(doomed.url)}`);
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
    await page.locator('#play-online').click();
    await page.locator('#online-create').click();
    await expect(page.locator('#online-status')).toContainText('you are Player 0');
  } finally {
    await doomed.stop();
  }
  await expect(page.locator('#online-message')).toContainText('The connection to the room was closed (code ');
  await expect(page.locator('#online-message')).toHaveClass(/error/);
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
});
