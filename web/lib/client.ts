// rulestack/client — a game played on a rulestack server (web/server/) through Colyseus,
// with the shape of a local Game: view, legalMoves, apply, log, on. The server holds the
// game; this object holds only what the server sent this seat (its view, its legal moves,
// its events), so apply is asynchronous and the rest reads the last update.
import { Client, type Room } from '@colyseus/sdk';
import { IllegalMoveError, boundedMessage } from './errors.js';
import { checkOptions, shown, shownText } from './options.js';
import type { GameEvent, GameView, Move, PlayerId } from './types.js';
import type { GameLog } from './game.js';

/** What a client sends to create a room (see docs/api.md, Multiplayer). */
export interface RoomOptions {
  game?: string;
  definition?: object | string;
  seed?: number | string;
  bots?: Record<string, BotLevel>;
  botsForEmptySeats?: BotLevel;
  decisionSeconds?: number;
  graceSeconds?: number;
  botDelayMs?: number;
  /** whether the room is in the lobby (listRooms); default false: found by its id alone */
  listed?: boolean;
  resume?: string;
}
export type BotLevel = 'random' | 'easy' | 'normal' | 'hard';

export interface JoinOptions {
  /** A player id, 'spectator', or left out: the first free seat, else a spectator. */
  seat?: PlayerId | 'spectator';
  /** The key of a seat this client held (its OnlineGame's resumeKey): takes that seat, which in a resumed room only its key takes. */
  resumeKey?: string;
}

/** What the room sends a client after each change (docs/api.md, Multiplayer: protocol). */
export interface RoomUpdate {
  seat: PlayerId | null;
  view: GameView;
  legalMoves: Move[];
  /** the log index of events[0] */
  from: number;
  /** how many earlier events the room's log no longer keeps (its logLimit) */
  dropped: number;
  events: GameEvent[];
  /** the id of this client's move that this update follows */
  ack?: number;
  /** the room's first update after this client came back from a drop */
  reconnected?: boolean;
}
export interface TimeoutNotice {
  player: PlayerId;
  passed: boolean;
  /** the move made for the player: only in the notice sent to that player */
  move?: Move;
}

export interface OnlineGameEventMap {
  /** each new event of this seat's log, in order (as a local Game's 'event') */
  event: GameEvent;
  /** after each update from the room (a move by anyone, a reconnection) */
  update: RoomUpdate;
  /** the decision timer ran out and the room moved for a player */
  timeout: TimeoutNotice;
  /** the connection came back after a drop: the new reconnectionToken (the one before no longer works) */
  reconnect: string;
  /** the connection was lost for good (or leave() was called): the close code */
  leave: number;
}
export type OnlineGameEventName = keyof OnlineGameEventMap;

interface Pending {
  move: Move;
  resolve: (events: GameEvent[]) => void;
  reject: (e: Error) => void;
  /** sent before the connection dropped: its answer may have been lost with it */
  beforeDrop?: boolean;
}

/** One seat (or a spectator) of a game on a rulestack server. */
export class OnlineGame {
  readonly room: Room;
  #update!: RoomUpdate;
  #events: GameEvent[] = [];
  #dropped = 0;
  // (from a random start: a page that rejoins a seat must not reuse the ids of the page before)
  #nextId = 1 + Math.floor(Math.random() * 2 ** 48);
  #pending = new Map<number, Pending>();
  #listeners: { [K in OnlineGameEventName]: Set<(arg: OnlineGameEventMap[K]) => void> } = {
    event: new Set(),
    update: new Set(),
    timeout: new Set(),
    reconnect: new Set(),
    leave: new Set(),
  };
  #left = false;
  /** between a drop and the reconnection: moves are refused (the SDK would drop all but 10) */
  #down = false;
  /** what an update that could not be taken in (events missing) answered: settled with the next */
  #unsettled: { ack?: { id: number; from: number }; reconnected?: boolean } = {};
  #definitionJson: string | null = null;
  #seedChosen = false;
  #resumeKey: string | null = null;
  /** this client's 'sync' not yet answered (wanted); one the room refused for coming too fast
   * ('rate_limited') is sent again after a wait */
  #syncRetry: { wanted: boolean; handle?: ReturnType<typeof setTimeout>; waitMs: number } = { wanted: false, waitMs: 0 };
  /** resolves on the first update (join waits for it) */
  readonly ready: Promise<void>;

  constructor(room: Room) {
    this.room = room;
    let first: () => void;
    this.ready = new Promise((r) => (first = r));
    room.onMessage('update', (u: RoomUpdate) => {
      if (this.#onUpdate(u)) first();
    });
    room.onMessage('rejected', (r: { id: number | null; reason: string; message: string }) => {
      // (a move carries its id: without one, the room refused a 'sync', which this client
      // needs to take in the updates that come after a gap)
      if (r.id === null && r.reason === 'rate_limited') return this.#retrySync();
      const p = r.id === null ? undefined : this.#pending.get(r.id);
      if (!p) return;
      this.#pending.delete(r.id!);
      p.reject(new IllegalMoveError(r.reason, r.message, p.move, this.#update?.seat ?? ''));
    });
    // sent before the first update of every connection (join and rejoin)
    room.onMessage('definition', (d: { definition: string; seedChosen?: boolean; resumeKey?: string }) => {
      this.#definitionJson = d.definition;
      this.#seedChosen = d.seedChosen === true;
      this.#resumeKey = typeof d.resumeKey === 'string' ? d.resumeKey : null;
    });
    room.onMessage('timeout', (t: TimeoutNotice) => this.#emit('timeout', t));
    room.onDrop(() => {
      this.#down = true;
      for (const p of this.#pending.values()) p.beforeDrop = true;
    });
    // after an automatic reconnection, ask for every event from the last one we hold
    room.onReconnect(() => {
      this.#down = false;
      this.#sync();
      // (the SDK sets the new token just after this call)
      queueMicrotask(() => this.#emit('reconnect', room.reconnectionToken));
    });
    room.onLeave((code: number) => {
      this.#left = true;
      clearTimeout(this.#syncRetry.handle);
      this.#rejectPending(() => true, `rulestack client: the connection to the room was closed (code ${code}) before the move was answered`);
      this.#emit('leave', code);
    });
  }

  /** The room's definition as the engine's JSON (a local Game's definitionJson): for names and rules text. */
  get definitionJson(): string {
    if (this.#definitionJson === null) throw new Error('rulestack client: the room has not sent its definition (the server is older than this client)');
    return this.#definitionJson;
  }

  /**
   * Whether the room's creator chose its seed (the `seed` room option): then they can work out
   * the deal and every hidden card, which the other players may want to know.
   */
  get seedChosen(): boolean {
    return this.#seedChosen;
  }

  /** The room's id: what another player or a spectator joins with. */
  get roomId(): string {
    return this.room.roomId;
  }
  /** This client's player id, or null for a spectator. */
  get seat(): PlayerId | null {
    return this.#update.seat;
  }
  get players(): readonly PlayerId[] {
    return this.#update.view.players.map((p) => p.id);
  }
  /** To resume this seat after a page reload: rejoin(url, token). */
  get reconnectionToken(): string {
    return this.room.reconnectionToken;
  }
  /**
   * This seat's key (null for a spectator, or from a server older than this client): after the
   * room closed (its players gone, or its process lost), join(url, { resume: roomId }, { resumeKey })
   * takes the seat back; in a resumed room nobody else can take it.
   */
  get resumeKey(): string | null {
    return this.#resumeKey;
  }

  /** `player` is this client's seat, or left out (null: the spectator, as a local game's). */
  #own(player: unknown, what: string): void {
    if (player === undefined || (player === null && this.seat === null)) return;
    if (player === null || String(player) !== this.seat) {
      const asked = player === null ? 'the spectator view' : `player '${shownText(player)}'`;
      throw new RangeError(`rulestack client: ${what}: this client holds only the ${this.seat === null ? 'spectator' : `player ${this.seat}`} view, not ${asked}`);
    }
  }

  /** The last view the room sent (this seat's; a spectator's for a spectator). */
  view(player?: PlayerId | number | null): GameView {
    this.#own(player, 'view');
    return this.#update.view;
  }
  /** This seat's legal moves as of the last update ([] for a spectator). */
  legalMoves(player?: PlayerId | number): Move[] {
    this.#own(player, 'legalMoves');
    return this.#update.legalMoves;
  }
  /** This seat's events so far (the room's log(seat)), with `dropped` as a local log's. */
  log(player?: PlayerId | number | null): GameLog {
    this.#own(player, 'log');
    return Object.assign([...this.#events], { dropped: this.#dropped });
  }

  /**
   * Sends a move for this seat. Resolves with its events as this seat sees them, once the
   * room has applied and recorded it; rejects with the room's IllegalMoveError (the state
   * is then unchanged), or an Error if the connection closes first.
   */
  apply(player: PlayerId | number, move: Move): Promise<GameEvent[]> {
    if (this.#left) return Promise.reject(new Error('rulestack client: this client has left the room'));
    if (this.#down) return Promise.reject(new Error('rulestack client: the connection to the room is down (the SDK is reconnecting): move again once it is back (the next update)'));
    if (this.seat === null) return Promise.reject(new IllegalMoveError('unknown_player', 'rulestack client: a spectator cannot move', move, String(player)));
    if (String(player) !== this.seat) {
      return Promise.reject(new IllegalMoveError('unknown_player', `rulestack client: this client plays '${this.seat}', not '${shownText(player)}'`, move, String(player)));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { move, resolve, reject });
      this.room.send('move', { id, move });
    });
  }

  on<K extends OnlineGameEventName>(name: K, callback: (arg: OnlineGameEventMap[K]) => void): () => void {
    if (!Object.hasOwn(this.#listeners, name)) throw new TypeError(`rulestack client: unknown event '${shownText(name)}' (events: ${Object.keys(this.#listeners).join(', ')})`);
    if (typeof callback !== 'function') throw new TypeError(`rulestack client: callback must be a function, not ${shown(callback)}`);
    const set = this.#listeners[name];
    set.add(callback);
    return () => void set.delete(callback);
  }

  /** Leaves the room for good (the seat is freed at once). */
  async leave(): Promise<void> {
    if (this.#left) return;
    await this.room.leave(true);
  }

  /** Asks the room for every event from the first one this client lacks. */
  #sync(): void {
    clearTimeout(this.#syncRetry.handle);
    this.#syncRetry.handle = undefined;
    this.#syncRetry.wanted = true;
    this.room.send('sync', { since: this.#dropped + this.#events.length });
  }

  /**
   * A refused 'sync' again, after a wait that doubles while they are refused (at most 4 s),
   * each drawn from half to one and a half of it: clients that fell behind together (the
   * spectators share one budget) do not all ask again at the same moment.
   */
  #retrySync(): void {
    if (this.#left || !this.#syncRetry.wanted || this.#syncRetry.handle !== undefined) return;
    const wait = (this.#syncRetry.waitMs = Math.min(4000, Math.max(250, this.#syncRetry.waitMs * 2)));
    this.#syncRetry.handle = setTimeout(() => {
      this.#syncRetry.handle = undefined;
      if (!this.#left && !this.#down) this.#sync();
    }, wait * (0.5 + Math.random()));
  }

  #resolvePending(id: number, events: GameEvent[]): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    p.resolve(events);
  }

  #rejectPending(which: (p: Pending) => boolean, message: string): void {
    for (const [id, p] of this.#pending) {
      if (!which(p)) continue;
      this.#pending.delete(id);
      p.reject(new Error(boundedMessage(message)));
    }
  }

  #emit<K extends OnlineGameEventName>(name: K, arg: OnlineGameEventMap[K]): void {
    for (const cb of [...this.#listeners[name]]) cb(arg);
  }

  /** Takes in an update; false when it had to ask for missing events first. */
  #onUpdate(u: RoomUpdate): boolean {
    if (this.#dropped + this.#events.length < u.dropped) {
      // the room no longer keeps what we would need: start from what it keeps
      this.#events = [];
      this.#dropped = u.dropped;
    }
    const have = this.#dropped + this.#events.length;
    if (u.from > have) {
      // events were lost in between (sent just before a drop, or to an earlier page): ask
      // again, and settle what this update answers once they are in
      if (u.ack !== undefined) this.#unsettled.ack = { id: u.ack, from: u.from };
      if (u.reconnected) this.#unsettled.reconnected = true;
      this.#sync();
      return false;
    }
    clearTimeout(this.#syncRetry.handle); // (what it asked for is in)
    this.#syncRetry = { wanted: false, waitMs: 0 };
    const fresh = u.events.slice(have - u.from);
    this.#events.push(...fresh);
    this.#update = u;
    for (const e of fresh) this.#emit('event', e);
    const { ack, reconnected } = this.#unsettled;
    this.#unsettled = {};
    if (ack) this.#resolvePending(ack.id, this.#events.slice(ack.from - this.#dropped));
    if (u.ack !== undefined) this.#resolvePending(u.ack, u.events);
    if (u.reconnected || reconnected) {
      // The room answers again the last move it received from this seat as it comes back (just
      // above, or in a 'rejected' before this update). A move sent before the drop and still
      // unanswered never reached it, or was answered before that last one: no answer will come.
      this.#rejectPending((p) => p.beforeDrop === true, 'rulestack client: the connection dropped before the room answered this move, and its answer was lost: ' +
        'the room may or may not have applied it (the view says)');
    }
    this.#emit('update', u);
    return true;
  }
}

/** The SDK's answer, or its error with what was asked and where ('fetch failed' says neither). */
async function connecting(what: string, url: string | URL, p: Promise<Room>): Promise<Room> {
  try {
    return await p;
  } catch (e) {
    const err = e as { message?: string; code?: unknown };
    const code = err.code === undefined ? '' : ` (${String(err.code)})`;
    throw Object.assign(new Error(`rulestack client: cannot ${what} at ${shownText(url)}: ${boundedMessage(err.message ?? String(e))}${code}`, { cause: e }), { code: err.code });
  }
}

function sdk(url: string | URL): Client {
  return new Client(String(url));
}

/**
 * Nothing when `url` is a server's address as the SDK takes it (a ws://, wss://, http:// or
 * https:// URL naming a host, as a string or a URL; or a path from '/', on the SDK's default
 * endpoint: the page's host in a browser), else a TypeError naming the call: before anything
 * is sent (the SDK's own is a bare 'Invalid URL', or a request to nowhere).
 */
function checkUrl(what: string, url: unknown): void {
  const text = url instanceof URL ? url.href : typeof url === 'string' ? url : undefined;
  if (text === undefined)
    throw new TypeError(`rulestack: ${what}: url must be the server's address, a string such as 'ws://localhost:2567' or a URL, not ${shown(url)}`);
  if (text.startsWith('/')) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol) || !parsed.host)
    throw new TypeError(`rulestack: ${what}: url must be a ws://, wss://, http:// or https:// address naming a host (such as 'ws://localhost:2567'), not ${shown(text)}`);
}

/**
 * Joins a room of a rulestack server: `room` is a room id, or the options of a new room
 * ({ game: 'duel', … }). Resolves once the room has sent this seat its first view. Its
 * arguments are checked before anything is sent: a TypeError (a RangeError for an empty room
 * id, a seat that is a number but not a player's, or an unknown option) naming join and the argument.
 */
export async function join(url: string | URL, room: string | RoomOptions, options: JoinOptions = {}): Promise<OnlineGame> {
  checkUrl('join', url);
  if (typeof room === 'string') {
    if (room === '') throw new RangeError("rulestack: join: room must be a room id or a new room's options, not an empty string");
  } else if (typeof room !== 'object' || room === null || Array.isArray(room)) {
    throw new TypeError(`rulestack: join: room must be a room id (a string) or a new room's options (an object such as { game: 'duel' }), not ${Array.isArray(room) ? 'an array' : shown(room)}`);
  }
  checkOptions<JoinOptions>('join', options, ['seat', 'resumeKey'], typeof room === 'string' ? `: joining room '${room}' takes a seat and a resumeKey only (a new room's options are join's second argument)` : '');
  // (the room reads null as 'spectator', and a number as that player's id)
  const seat: unknown = options?.seat;
  if (seat !== undefined && seat !== null && typeof seat !== 'string') {
    if (typeof seat !== 'number') throw new TypeError(`rulestack: join: seat must be a player id or 'spectator', not ${shown(seat)}`);
    if (!Number.isSafeInteger(seat) || seat < 0) throw new RangeError(`rulestack: join: seat must be a player id or 'spectator', not ${shown(seat)}`);
  }
  const resumeKey: unknown = options?.resumeKey;
  if (resumeKey !== undefined && (typeof resumeKey !== 'string' || resumeKey === ''))
    throw new TypeError(`rulestack: join: resumeKey must be a seat's key (an OnlineGame's resumeKey), not ${shown(resumeKey)}`);
  const client = sdk(url);
  const what = typeof room === 'string' ? `join room '${room}'` : 'create a room';
  const r = await connecting(what, url, typeof room === 'string' ? client.joinById(room, options) : client.create('rulestack', { ...room, ...options }));
  const game = new OnlineGame(r);
  await game.ready;
  return game;
}

/** A room in the server's lobby (listRooms). */
export interface ListedRoom {
  roomId: string;
  /** the example's name (the room's `game` option), null for a room made from a definition */
  game: string | null;
  /** the definition's `name` */
  name: string | null;
  players: PlayerId[];
  /** the seats nobody holds that no bot plays from the start: `join(url, roomId, { seat })` takes one */
  openSeats: PlayerId[];
  bots: Record<string, BotLevel>;
  seedChosen: boolean;
  /** the clients in it, players and spectators */
  clients: number;
}

/**
 * The rooms created with `listed: true` whose game has not ended, oldest first, as the
 * server's lobby lists them now.
 */
export async function listRooms(url: string | URL, options: { timeoutMs?: number } = {}): Promise<ListedRoom[]> {
  checkUrl('listRooms', url);
  checkOptions<{ timeoutMs?: number }>('listRooms', options, ['timeoutMs']);
  const watch = await watchLobby('listRooms', url, () => {}, options.timeoutMs);
  await watch.close();
  return watch.rooms;
}

/** Options of watchRooms. */
export interface WatchRoomsOptions {
  /** how long to wait for the lobby's first list (default 10,000 ms) */
  timeoutMs?: number;
  /** called once if the lobby's connection closes other than by close() (the server went away), with why */
  onClose?: (error: Error) => void;
}

/** A watch of the lobby (watchRooms): the rooms listed now, and close() to stop watching. */
export interface RoomWatch {
  /** the rooms as the last list or change left them, oldest first */
  readonly rooms: ListedRoom[];
  /** leaves the lobby: onChange is called no more */
  close(): Promise<void>;
}

/**
 * Watches the server's lobby: `onChange` is called with the rooms listRooms would give, first
 * when the lobby sends its list (before the promise resolves), then each time a room is listed,
 * changes (a seat taken or left) or leaves the list (its game ended, the room closed).
 */
export async function watchRooms(url: string | URL, onChange: (rooms: ListedRoom[]) => void, options: WatchRoomsOptions = {}): Promise<RoomWatch> {
  checkUrl('watchRooms', url);
  checkOptions<WatchRoomsOptions>('watchRooms', options, ['timeoutMs', 'onClose']);
  if (typeof onChange !== 'function') throw new TypeError(`rulestack: watchRooms: onChange must be a function, not ${shown(onChange)}`);
  const { onClose } = options;
  if (onClose !== undefined && typeof onClose !== 'function') throw new TypeError(`rulestack: watchRooms: onClose must be a function, not ${shown(onClose)}`);
  return watchLobby('watchRooms', url, onChange, options.timeoutMs, onClose);
}

/** A listing as Colyseus's lobby sends it. */
type Listing = { roomId: string; name: string; clients: number; createdAt?: string; metadata?: Record<string, unknown> };

/** The rulestack rooms of the lobby's listings, oldest first, as ListedRooms. */
function listedRooms(listings: Iterable<Listing>): ListedRoom[] {
  return [...listings]
    .filter((r) => r.name === 'rulestack' && r.metadata)
    .sort((a, b) => String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? '')))
    .map((r) => {
      const m = r.metadata as { game: string | null; name: string | null; players: PlayerId[]; open: PlayerId[]; bots: Record<string, BotLevel>; seedChosen: boolean };
      return { roomId: r.roomId, game: m.game, name: m.name, players: m.players, openSeats: m.open, bots: m.bots, seedChosen: m.seedChosen, clients: r.clients };
    });
}

/**
 * Joins the lobby and keeps its listings: the whole list ('rooms'), then each one listed or
 * changed ('+') and unlisted ('-'); resolves once the list has come.
 */
async function watchLobby(what: string, url: string | URL, onChange: (rooms: ListedRoom[]) => void, timeoutMs = 10_000, onClose?: (error: Error) => void): Promise<RoomWatch> {
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new RangeError(`rulestack: ${what}: timeoutMs must be a number of milliseconds above 0, not ${shownText(timeoutMs)}`);
  const lobby = await connecting('list the rooms', url, sdk(url).joinOrCreate('lobby'));
  // a dropped lobby is said at once (the SDK would try for about a minute to rejoin a room that takes nobody back)
  lobby.reconnection.enabled = false;
  const listings = new Map<string, Listing>();
  let rooms: ListedRoom[] = [];
  let lastText = ''; // (rooms as JSON: what onChange was last given)
  let closing = false;
  let left = false; // (the connection closed: leave() would wait for ever)
  const changed = () => {
    if (closing) return;
    const now = listedRooms(listings.values());
    const text = JSON.stringify(now);
    if (text === lastText) return; // (another server's room, or nothing the list shows)
    rooms = now;
    lastText = text;
    onChange(rooms);
  };
  // (a server that stopped answering never confirms a leave: not waited for longer than this)
  const leave = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([lobby.leave().catch(() => {}), new Promise((r) => (timer = setTimeout(r, 2000)))]);
    clearTimeout(timer);
  };
  const cannot = (why: string) => new Error(`rulestack client: cannot list the rooms at ${shownText(url)}: ${boundedMessage(why)}`);
  try {
    await new Promise<void>((resolve, reject) => {
      let listed = false;
      const timer = setTimeout(() => reject(cannot(`the lobby sent no list within ${timeoutMs} ms`)), timeoutMs);
      lobby.onMessage('rooms', (list: Listing[]) => {
        clearTimeout(timer);
        listings.clear();
        for (const r of list) listings.set(r.roomId, r);
        listed = true;
        changed();
        resolve();
      });
      lobby.onMessage('+', ([roomId, listing]: [string, Listing]) => {
        if (!listed) return;
        listings.set(roomId, listing);
        changed();
      });
      lobby.onMessage('-', (roomId: string) => {
        if (listed && listings.delete(roomId)) changed();
      });
      lobby.onLeave((code) => {
        left = true;
        clearTimeout(timer);
        const error = cannot(`the lobby closed (${code})`);
        if (!listed) reject(error);
        else if (!closing) onClose?.(error);
      });
    });
  } catch (e) {
    closing = true;
    if (!left) await leave();
    throw e;
  }
  return {
    get rooms() {
      return rooms;
    },
    async close() {
      if (closing || left) return;
      closing = true;
      await leave();
    },
  };
}

/**
 * Takes a seat back with its reconnection token (after a page reload, within the grace
 * period). A url or token that is not one is a TypeError (a token that is a string but not
 * 'roomId:token' a RangeError) naming rejoin and the argument, before anything is sent.
 */
export async function rejoin(url: string | URL, reconnectionToken: string): Promise<OnlineGame> {
  checkUrl('rejoin', url);
  if (typeof reconnectionToken !== 'string')
    throw new TypeError(`rulestack: rejoin: reconnectionToken must be a string (an OnlineGame's reconnectionToken), not ${shown(reconnectionToken)}`);
  // (the SDK's form: the room's id, a colon, the token)
  if (!/^[^:]+:[^:]+/.test(reconnectionToken))
    throw new RangeError(`rulestack: rejoin: reconnectionToken must be 'roomId:token', as an OnlineGame's reconnectionToken is, not ${shown(reconnectionToken)}`);
  const r = await connecting('rejoin', url, sdk(url).reconnect(reconnectionToken));
  const game = new OnlineGame(r);
  await game.ready;
  return game;
}
