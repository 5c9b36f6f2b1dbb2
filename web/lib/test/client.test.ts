// rulestack/client as a consumer meets it: the export resolves, its types compile under
// `tsc --strict` in a consumer that uses it as a local Game (view, legalMoves, apply, on),
// and a server that is not there is a clear error. Playing through a server:
// web/server/test/ (the server suite).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { join, rejoin, listRooms, watchRooms, OnlineGame } from 'rulestack/client';
import { consumerApp, ROOT, TSC } from './consumer-app.js';

let app: string;
let removeApp = () => {};
before(() => {
  ({ dir: app, remove: removeApp } = consumerApp('rulestack-client-'));
});
after(() => removeApp());

/** A port nothing listens on now. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

test('no server there: join and rejoin reject with what was asked, where, and why', async () => {
  const port = await closedPort();
  assert.equal(typeof OnlineGame, 'function');
  await assert.rejects(join(`ws://127.0.0.1:${port}`, { game: 'duel' }), {
    message: `rulestack client: cannot create a room at ws://127.0.0.1:${port}: fetch failed (ECONNREFUSED)`,
    code: 'ECONNREFUSED',
  });
  await assert.rejects(join(`ws://127.0.0.1:${port}`, 'r1', { seat: '1' }), {
    message: `rulestack client: cannot join room 'r1' at ws://127.0.0.1:${port}: fetch failed (ECONNREFUSED)`,
  });
  await assert.rejects(rejoin(`ws://127.0.0.1:${port}`, 'r1:token'), { message: /^rulestack client: cannot rejoin at ws:\/\/127\.0\.0\.1:\d+: / });
  await assert.rejects(listRooms(`ws://127.0.0.1:${port}`), {
    message: `rulestack client: cannot list the rooms at ws://127.0.0.1:${port}: fetch failed (ECONNREFUSED)`,
  });
});

test('bad arguments: a TypeError or RangeError naming the call and the argument, before anything is sent', async () => {
  // a listener that counts the connections made to it: none may be
  let connections = 0;
  const srv = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(srv.address() as net.AddressInfo).port}`;
  try {
    const anyJoin = join as (...args: unknown[]) => Promise<unknown>;
    const anyRejoin = rejoin as (...args: unknown[]) => Promise<unknown>;
    const refused: Array<[() => Promise<unknown>, string, RegExp | string]> = [
      [() => anyJoin(url, 5), 'TypeError', "rulestack: join: room must be a room id (a string) or a new room's options (an object such as { game: 'duel' }), not 5"],
      [() => anyJoin(url, null), 'TypeError', /^rulestack: join: room must be a room id .*, not null$/],
      [() => anyJoin(url), 'TypeError', /^rulestack: join: room must be a room id .*, not undefined$/],
      [() => anyJoin(url, ['r1']), 'TypeError', /^rulestack: join: room must be a room id .*, not an array$/],
      [() => anyJoin(url, ''), 'RangeError', "rulestack: join: room must be a room id or a new room's options, not an empty string"],
      [() => anyJoin('not a url', 'r1'), 'TypeError', `rulestack: join: url must be a ws://, wss://, http:// or https:// address naming a host (such as 'ws://localhost:2567'), not "not a url"`],
      [() => anyJoin('localhost:2567', 'r1'), 'TypeError', /^rulestack: join: url must be a ws:\/\/, .* not "localhost:2567"$/],
      [() => anyJoin(5, 'r1'), 'TypeError', "rulestack: join: url must be the server's address, a string such as 'ws://localhost:2567' or a URL, not 5"],
      [() => anyJoin(undefined, { game: 'duel' }), 'TypeError', /^rulestack: join: url must be the server's address, .* not undefined$/],
      [() => anyJoin(url, 'r1', { seat: {} }), 'TypeError', `rulestack: join: seat must be a player id or 'spectator', not {}`],
      [() => anyJoin(url, { game: 'duel' }, { seat: true }), 'TypeError', `rulestack: join: seat must be a player id or 'spectator', not true`],
      [() => anyJoin(url, 'r1', { seat: 1.5 }), 'RangeError', `rulestack: join: seat must be a player id or 'spectator', not 1.5`],
      [() => anyJoin(url, 'r1', 'spectator'), 'TypeError', 'rulestack: join options must be an object, not string'],
      [() => anyJoin(url, 'r1', { resumeKey: 5 }), 'TypeError', "rulestack: join: resumeKey must be a seat's key (an OnlineGame's resumeKey), not 5"],
      [() => anyJoin(url, { resume: 'r1' }, { resumeKey: '' }), 'TypeError', `rulestack: join: resumeKey must be a seat's key (an OnlineGame's resumeKey), not ""`],
      [() => anyRejoin(url, 5), 'TypeError', "rulestack: rejoin: reconnectionToken must be a string (an OnlineGame's reconnectionToken), not 5"],
      [() => anyRejoin(url), 'TypeError', /^rulestack: rejoin: reconnectionToken must be a string .*, not undefined$/],
      [() => anyRejoin(url, 'no-colon'), 'RangeError', `rulestack: rejoin: reconnectionToken must be 'roomId:token', as an OnlineGame's reconnectionToken is, not "no-colon"`],
      [() => anyRejoin('nope', 'r1:token'), 'TypeError', /^rulestack: rejoin: url must be a ws:\/\/, .* not "nope"$/],
      [() => (listRooms as (...args: unknown[]) => Promise<unknown>)(null), 'TypeError', /^rulestack: listRooms: url must be the server's address, .* not null$/],
      [() => (watchRooms as (...args: unknown[]) => Promise<unknown>)('ftp://x', () => {}), 'TypeError', /^rulestack: watchRooms: url must be a ws:\/\/, .* not "ftp:\/\/x"$/],
    ];
    for (const [call, name, message] of refused) await assert.rejects(call(), { name, message });
    assert.equal(connections, 0, 'nothing was sent for a refused call');
    // a URL object, http://, a seat that is a number pass the checks: then the network's error
    for (const [good, seat] of [[new URL(url), undefined], [url.replace('ws:', 'http:'), undefined], [url, 1]] as const) {
      await assert.rejects(join(good, 'r1', { seat: seat as unknown as string }), { message: /^rulestack client: cannot join room 'r1' at / });
    }
    assert.ok(connections >= 3, `those went to the network (${connections} connections)`);
  } finally {
    await new Promise((r) => srv.close(r));
  }
});

const CONSUMER = `import { join, listRooms, type ListedRoom, type OnlineGame, type RoomUpdate, type TimeoutNotice } from 'rulestack/client';
import { IllegalMoveError, type GameEvent, type GameView, type Move } from 'rulestack';

export async function play(url: string): Promise<number> {
  const open: ListedRoom[] = (await listRooms(url, { timeoutMs: 5000 })).filter((r) => r.game === 'duel' && r.openSeats.length > 0);
  const game: OnlineGame = open.length > 0 ? await join(url, open[0]!.roomId, { seat: open[0]!.openSeats[0]! }) : await join(url, { game: 'duel', seed: 1, bots: { 1: 'easy' }, decisionSeconds: 30, listed: true });
  const seat: string | null = game.seat;
  const resumeKey: string | null = game.resumeKey; // (kept to take the seat back once the room has closed)
  void resumeKey;
  const view: GameView = game.view();
  const moves: Move[] = game.legalMoves();
  const off = game.on('update', (u: RoomUpdate) => void u.view.toAct);
  game.on('event', (e: GameEvent) => void e.type);
  game.on('timeout', (t: TimeoutNotice) => void t.passed);
  game.on('leave', (code: number) => void code);
  off();
  try {
    const events: GameEvent[] = await game.apply(seat!, moves[0]!);
    return events.length + view.turn;
  } catch (e) {
    if (e instanceof IllegalMoveError) return e.reason.length;
    throw e;
  } finally {
    await game.leave();
  }
}
// @ts-expect-error a room option that does not exist
join('ws://x', { game: 'duel', colour: 'red' });
// @ts-expect-error apply is asynchronous: its result is a Promise
const sync: GameEvent[] = (null as unknown as OnlineGame).apply('0', { action: 'pass' });
void sync;
`;

test('tsc --strict: a consumer of rulestack/client compiles, and what breaks its types does not', (t) => {
  if (!existsSync(TSC)) {
    t.skip('typescript is not installed');
    return;
  }
  const tsc = (file: string) =>
    spawnSync(
      TSC,
      ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node',
        '--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--skipLibCheck', 'true', file],
      { cwd: app, encoding: 'utf8', timeout: 120_000 },
    );
  writeFileSync(path.join(app, 'consumer.ts'), CONSUMER);
  const ok = tsc('consumer.ts');
  assert.equal(ok.status, 0, `tsc: ${ok.stdout}${ok.stderr}`);
  writeFileSync(path.join(app, 'broken.ts'), CONSUMER.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
  const broken = tsc('broken.ts');
  assert.notEqual(broken.status, 0);
  assert.match(broken.stdout, /broken\.ts\(\d+,\d+\): error TS2353: Object literal may only specify known properties, and 'colour' does not exist/);
  assert.match(broken.stdout, /broken\.ts\(\d+,\d+\): error TS2740: Type 'Promise<GameEvent\[\]>' is missing/);
});
