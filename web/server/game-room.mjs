// The authoritative rulestack room: the game lives here only. Each client gets, as
// messages addressed to it alone, what its seat may know — view(p), the new events of
// log(p) and legalMoves(p) (a spectator: view(null), log(null)) — and nothing else: there
// is no Colyseus schema state, so nothing is broadcast to everyone.
//
// client → room   'move' { id, move }     a move for the client's seat
//                 'sync' { since }        resend the events from log index `since`
// room → client   'update' { seat, view, legalMoves, from, dropped, events, ack?, reconnected? }
//                 'rejected' { id, reason, message }   (the state is unchanged; reason
//                                                       'rate_limited': sent too fast)
//                 'timeout' { player, passed, move? }  (move: only to that player)
import { randomBytes } from 'node:crypto';
import { Room, matchMaker } from '@colyseus/core';
import { WebSocket } from 'ws';
import { loadEngine, IllegalMoveError } from 'rulestack';
import { checkOptionKeys, checkSeats, definitionErrorMessage, exampleDefinition, joinSeat, parseRoomOptions, rememberExample, requestError } from './options.mjs';
import { recordHeader, replayRecord } from './game-record.mjs';
import { LogHistory } from './log-history.mjs';
import { keyHashes, newSeatKeys, seatOfKey } from './seat-keys.mjs';
import { FLOOD_CLOSE_CODE, FLOOD_CLOSE_REASON, FLOOD_WINDOW_MS, MessageBudget, addressKey, hardCap, messageTokens, rateLimit } from './rate-limit.mjs';
import { frameFault, quote, withSafeIntegers } from './wire.mjs';
import { MAX_REPLAYED_MOVES, botPool } from './bot-pool.mjs';
import { definitionReader, isJsonText } from './definition-reader.mjs';

// The live game keeps only its last events (log(p) costs time in proportion to what it
// returns, and is called for each seat after every move); older ones are kept by #history.
const LIVE_LOG_LIMIT = 128;
// A bot's or the timer's move that could not be made (the store refused it) is tried again after this.
const RETRY_MS = 1000;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const botOptions = (level, seed) => (level === 'random' ? { kind: 'random', seed } : { level, seed });
const stillRunning = (id) => requestError(`room '${id}' is still running: join it instead of resuming it`);
/** How a connection is closed when its client sends a frame that is not msgpack (4002: Colyseus's close with an error). */
export const MALFORMED_CLOSE_CODE = 4002;
export const MALFORMED_CLOSE_REASON = 'rulestack room: a malformed message (not msgpack)';
/** How a connection is closed when its reconnection token is used by another connection. */
export const REPLACED_CLOSE_REASON = 'rulestack room: this seat was taken up by another connection with its token';
/**
 * The most spectators one remote address (addressKey: an IPv6 one by its /64) may have in a
 * room, connected or within their grace period: more are refused. (They share one message
 * budget as well, so more connections never send more; this keeps one address from taking
 * the room's places, and from making each move cost the room that many more updates.)
 */
export const MAX_SPECTATORS_PER_ADDRESS = 8;
/** The bot pool's group of the rooms nobody has joined yet (a room of bots alone runs at once): one share for all, not one each. */
const NOBODY = 'nobody';
const tooManySpectators = (max) => requestError(`too many spectators from one address (at most ${max} in a room)`);

/** The remote address of each WebSocket (its TCP peer's, never a header the client writes), noted when it connects. */
const peerAddresses = new WeakMap();
/** Notes a WebSocket's remote address: the server calls it for each connection, before the client joins a room. */
export function notePeerAddress(ws, address) {
  peerAddresses.set(ws, address);
}

/**
 * The room class bound to a record store (MemoryStore or RedisStore) and the clients' message
 * rate limit ({ burst, perSecond, floodRefusals }, rate-limit.mjs; the defaults where left out).
 */
export function roomWithStore(store, limits = rateLimit()) {
  return class extends RulestackRoom {
    store = store;
    rateLimit = limits;
  };
}

export class RulestackRoom extends Room {
  maxClients = 1000;
  /** The most spectators one address may have here (MAX_SPECTATORS_PER_ADDRESS). */
  maxSpectatorsPerAddress = MAX_SPECTATORS_PER_ADDRESS;
  /** Work on the game runs one piece at a time, in order (moves, bots, timers). */
  #chain = Promise.resolve();
  /** The bot's or the decision timer counting now: { handle, key, kind, player } (key: the moves recorded when it was set). */
  #timer = null;
  #seatClient = new Map(); // player → client (connected or within its grace period)
  #started = false;
  #bots = new Map();
  /** Each viewer's log from its first event, for the clients behind the live game's (log-history.mjs). */
  #history = null;
  /** This room made its record or took it up (resumed): it retires it when it ends (holding its claim). */
  #recorded = false;
  /**
   * This room's claim on its record's id in the store, { id, owner, renewal } while held:
   * one room at a time, on any process, runs a record and appends to it.
   */
  #claim = null;
  /** The connections being closed for flooding (a client object is one connection). */
  #flooding = new WeakSet();
  /**
   * The seats' message tokens: a client that leaves and joins again (or takes the seat up with
   * its token from another connection) finds the tokens it left, so the limit bounds what one
   * seat makes the room compute.
   */
  #seatTokens = new Map();
  /**
   * The spectators of each remote address (addressKey), { members, tokens }: their userData
   * (connected or within their grace period: at most maxSpectatorsPerAddress), and the message
   * tokens they all spend, so that opening more connections gives an address no more budget.
   * Kept after the last one leaves until the tokens have refilled (a spectator that leaves and
   * joins again finds them as it left them).
   */
  #spectators = new Map();
  /** Each connection's budget: the tokens of its seat or of its address's spectators, and its own count of refusals. */
  #budgets = new WeakMap();
  /** A client has held a seat (else a room that made no move has nothing to resume: its record is dropped). */
  #seated = false;
  /** This room took up a record (its first room had players, a seed, bots: kept whatever happens here). */
  #resumed = false;
  /** onDispose has begun: no bot is asked to choose again. */
  #ending = false;
  /** The state this room's last choice in the bot pool was asked in: { moves (how many), stateHash }. */
  #lastChoice = null;
  /** The seats' keys this room knows (seat-keys.mjs), sent to each seat's client: all of a new room's; a resumed room's as their players bring them back. */
  #seatKeys = new Map();
  /**
   * Whose share of the bot pool this room's bots take (fair-queue.mjs): the address of the
   * first client that joined (one address's rooms share one), or NOBODY's before any did.
   */
  #botGroup = NOBODY;

  async onCreate(options) {
    try {
      await this.#create(options);
    } catch (e) {
      await this.#release();
      throw e;
    }
  }

  async #create(options) {
    const parsed = parseRoomOptions(options);
    this.rs = await loadEngine();
    this.#history = new LogHistory(this.rs, () => ({ header: this.header, moves: this.moves }));
    if (parsed.resume) {
      const record = await this.store.load(parsed.resume);
      if (!record) throw requestError(`no game record '${parsed.resume}' to resume`);
      // the claim is atomic across processes: of two resumes at once, one gets it (a room
      // listed only once its onCreate is done, the listing cannot tell them apart)
      if (!(await this.#claimId(parsed.resume))) throw stillRunning(parsed.resume);
      // a room still listed alive under that id (one whose claim lapsed, or a server from
      // before claims) is joined, not resumed (a listing left by a process that died is swept
      // once that process fails a health check)
      const [running] = await matchMaker.query({ roomId: parsed.resume });
      const alive = running && (running.processId === matchMaker.processId || (await matchMaker.healthCheckProcessId(running.processId)));
      if (alive) throw stillRunning(parsed.resume);
      this.game = replayRecord(this.rs, record, LIVE_LOG_LIMIT);
      // its room runs again: no longer dropped later (unless it was dropped meanwhile)
      if (!(await this.store.keep(parsed.resume))) throw requestError(`no game record '${parsed.resume}' to resume`);
      this.header = record.header;
      this.roomId = parsed.resume;
      this.#resumed = true;
      this.moves = record.moves;
    } else {
      let text = parsed.source.game ? exampleDefinition(parsed.source.game) : parsed.source.definition;
      try {
        // YAML is read by a worker, within its time limit (definition-reader.mjs): the JSON it gives loads here
        if (typeof text === 'string' && !isJsonText(text)) text = await definitionReader().read(text, { example: Boolean(parsed.source.game) });
        this.game = this.rs.createGame(text, parsed.seed === undefined ? { logLimit: LIVE_LOG_LIMIT } : { seed: parsed.seed, logLimit: LIVE_LOG_LIMIT });
      } catch (e) {
        throw requestError(e.errors ? definitionErrorMessage(e) : e.message);
      }
      if (parsed.source.game) rememberExample(parsed.source.game, this.game.definitionJson);
      checkSeats(this.game.players, parsed.bots);
      this.#seatKeys = newSeatKeys(this.game.players.filter((p) => !parsed.bots[p]));
      this.header = recordHeader(this.game, parsed, [...this.game.players], keyHashes(this.#seatKeys));
      this.moves = [];
      // its own id too: a resume of it on another process is refused before this room is listed
      if (!(await this.#claimId(this.roomId))) throw new Error(`rulestack room: the id '${this.roomId}' is claimed by another room`);
      await this.store.create(this.roomId, this.header);
    }
    this.#recorded = true;
    // a resumed room's own options (timers, bots for empty seats) win over the record's
    if (parsed.resume) {
      for (const k of ['botsForEmptySeats', 'decisionSeconds', 'graceSeconds', 'botDelayMs', 'listed']) if (options[k] !== undefined) this.header[k] = parsed[k];
    }
    this.players = [...this.game.players];
    this.humanSeats = this.players.filter((p) => !this.header.bots[p]);
    // in the lobby only when its creator asked (else found by its id alone: a link to a friend)
    await this.setPrivate(!(this.header.listed && this.game.view().result === null)); // (a resumed game may have ended)
    const name = JSON.parse(this.game.definitionJson).name ?? null;
    await this.setMetadata({ game: this.header.game, name, players: this.players, bots: this.header.bots, seedChosen: this.#seedChosen, seats: {}, open: this.humanSeats });
    if (this.#claim === null) throw new Error(`rulestack room: its claim on '${this.roomId}' was lost while it was created`);

    // (a client in another language may send any integer as msgpack's 64-bit one)
    const read = (type, handle) => (client, raw) => {
      const msg = withSafeIntegers(raw);
      if (this.#admit(client, type, msg)) this.#run(() => handle(client, msg));
    };
    this.onMessage('move', read('move', (client, msg) => this.#onMove(client, msg)));
    this.onMessage('sync', read('sync', (client, msg) => this.#onSync(client, msg)));
    this.onMessage('*', (client, type) => {
      if (!this.#admit(client, type)) return;
      // a known type reaches '*' only as raw bytes (the SDK's sendBytes)
      const message = ['move', 'sync'].includes(type)
        ? `rulestack room: a '${type}' message is msgpack data (the SDK's send), not raw bytes`
        : `rulestack room: unknown message '${type}' (messages: move, sync)`;
      client.send('rejected', { id: null, reason: 'bad_move', message });
    });
    if (this.humanSeats.length === 0) this.#start();
  }

  onJoin(client, options = {}) {
    checkOptionKeys(options);
    const seat = joinSeat(options, { players: this.players, bots: this.header.bots, taken: new Set(this.#seatClient.keys()), locked: this.#locked, seatOf: (key) => seatOfKey(this.header.seatKeys, key) });
    if (options.resumeKey !== undefined && seat !== null) this.#seatKeys.set(seat, options.resumeKey);
    client.userData = seat === null ? this.#spectatorJoins(client) : { seat, sent: 0, tokens: this.#seatTokensOf(seat) };
    if (this.#botGroup === NOBODY) this.#botGroup = addressKey(peerAddresses.get(client.ref));
    if (seat !== null) {
      this.#seatClient.set(seat, client);
      this.#seated = true;
    }
    this.#publishSeats();
    this.#sendDefinition(client);
    // in turn with the moves: never a state whose move is not yet recorded
    this.#run(() => this.#sendUpdates([client]));
    // the game runs once every seat without a bot is taken (with bots for empty seats: once
    // one player is in, so that no bot moves for the creator before it has joined)
    const full = this.humanSeats.every((p) => this.#seatClient.has(p));
    if (!this.#started && (full || (this.header.botsForEmptySeats && seat !== null))) this.#start();
    else this.#run(() => this.#schedule());
  }

  // A spectator is kept as well: back within the grace period, it is sent what it missed as a
  // player is (it holds no seat, so nothing else waits for it)
  onDrop(client) {
    if (client.userData === undefined) return;
    this.allowReconnection(client, this.header.graceSeconds).catch(() => {});
  }

  onReconnect(client) {
    const seat = client.userData.seat;
    if (seat !== null) this.#seatClient.set(seat, client);
    this.#sendDefinition(client); // a client that rejoins after a reload has lost it
    // the current view and every event since the last one it was sent, marked as the
    // reconnection's, with the answer to its last move again (sent while it was away, it was
    // lost with the connection)
    this.#run(() => {
      const last = client.userData.answer;
      if (last?.reason !== undefined) this.#reject(client, last.id, last.reason, last.message);
      // a move applied: its update again, from its first event
      const applied = last !== undefined && last.reason === undefined;
      if (applied) client.userData.sent = Math.min(client.userData.sent, last.from);
      this.#sendUpdates([client], client, applied ? { ack: last.id, reconnected: true } : { reconnected: true });
    });
  }

  onLeave(client) {
    const seat = client.userData?.seat;
    if (seat === null) return this.#spectatorLeaves(client.userData);
    if (seat === undefined || this.#seatClient.get(seat) !== client) return;
    this.#seatClient.delete(seat);
    this.#publishSeats();
    this.#run(() => this.#schedule()); // a bot for empty seats may take over now
  }

  /**
   * A frame that is not msgpack (truncated, or nested deeper than the decoder's stack) closes
   * its connection with a reason, said in one line; Colyseus would print the decoder's stack
   * and close it without one.
   */
  _onMessage(client, buffer) {
    const fault = frameFault(buffer);
    if (fault === null) return super._onMessage(client, buffer);
    if (client.readyState !== WebSocket.OPEN) return;
    console.error(`rulestack room: ${this.roomId}: client ${client.sessionId} disconnected (${MALFORMED_CLOSE_CODE}): a malformed message (${fault})`);
    client.leave(MALFORMED_CLOSE_CODE, MALFORMED_CLOSE_REASON);
  }

  /**
   * A reconnection token used while its connection is still open (the page open in a second
   * tab): Colyseus moves the seat to the new connection and closes the old one (4002), which
   * is told why.
   */
  checkReconnectionToken(token) {
    const old = this.clients.find((c) => c.reconnectionToken === token);
    if (old) {
      const leave = old.leave.bind(old);
      old.leave = (code, reason) => leave(code, reason || REPLACED_CLOSE_REASON);
    }
    return super.checkReconnectionToken(token);
  }

  onDispose() {
    this.#ending = true;
    clearTimeout(this.#timer?.handle);
    botPool().cancel(this); // (its bot's search, waiting or running, would hold up other rooms' bots)
    return this.#chain.finally(async () => {
      this.game?.dispose();
      this.#history?.dispose();
      // the record is kept a while for a resume, then dropped: not one this room did not take
      // up (a resume refused), nor when the server shuts down (its games wait for a resume, as
      // those of a process that died), nor one whose claim this room lost (another room may run it)
      if (this.#recorded && this.#claim !== null && matchMaker.state !== matchMaker.MatchMakerState.SHUTTING_DOWN) await this.#retire(this.#claim.owner, this.#nothingToResume);
      // (after the retire: a room that resumes the record next keeps it, not the other way round)
      await this.#release();
    });
  }

  /** Claims the id for this room and keeps the claim renewed; false when another room holds it. */
  async #claimId(id) {
    // (the process id says whose it is to someone reading Redis; the token, which room)
    const owner = `${matchMaker.processId}:${randomBytes(8).toString('hex')}`;
    if (!(await this.store.claim(id, owner))) return false;
    const claim = { id, owner };
    claim.renewal = setInterval(() => this.#renew(claim), (this.store.leaseSeconds * 1000) / 3);
    claim.renewal.unref();
    this.#claim = claim;
    return true;
  }

  /**
   * Extends the claim's lease. One that lapsed (Redis out of reach, or this process stalled,
   * longer than the lease) may be another room's now: this room closes, and does not retire
   * the record. A renewal that fails is tried at the next one.
   */
  async #renew(claim) {
    let held;
    try {
      held = await this.store.renew(claim.id, claim.owner);
    } catch (e) {
      return console.error('rulestack room: its claim could not be renewed:', e);
    }
    if (held || this.#claim !== claim) return;
    console.error(`rulestack room: '${claim.id}' lost its claim on its record (its lease ran out): the room closes`);
    clearInterval(claim.renewal);
    this.#claim = null;
    try {
      await this.disconnect();
    } catch {
      // (a room still being created cannot disconnect: #create finds its claim gone and fails)
    }
  }

  /** Frees the id (when this room holds it). A release that fails leaves the lease to run out. */
  async #release() {
    const claim = this.#claim;
    if (!claim) return;
    this.#claim = null;
    clearInterval(claim.renewal);
    try {
      await this.store.release(claim.id, claim.owner);
    } catch (e) {
      console.error('rulestack room: its claim could not be released:', e);
    }
  }

  /**
   * A room nobody took a seat in and whose game has no move (created, then left or never
   * joined): a resume would give what a new room gives, so its record is not kept.
   */
  get #nothingToResume() {
    return !this.#resumed && !this.#seated && this.moves.length === 0;
  }

  /**
   * owner: this room's claim (a lease that ran out since, unnoticed: nothing is retired if
   * another room took the id up). drop: the record is deleted now, not kept ttlSeconds.
   */
  async #retire(owner, drop = false) {
    try {
      const running = await matchMaker.query({ roomId: this.roomId });
      const another = (r) => r.processId !== matchMaker.processId || ![undefined, this].includes(matchMaker.getLocalRoomById(r.roomId));
      if (running.some(another)) return;
      await (drop ? this.store.drop(this.roomId, owner) : this.store.retire(this.roomId, owner));
    } catch (e) {
      console.error('rulestack room:', e);
    }
  }

  /** The room's game (for tests and tools on the server: never sent to a client). */
  get stateHash() {
    return this.game.stateHash();
  }

  #run(work) {
    this.#chain = this.#chain.then(work).catch((e) => console.error('rulestack room:', e));
    return this.#chain;
  }

  #start() {
    this.#started = true;
    this.#run(() => this.#schedule());
  }

  /** Whether the room's creator gave its seed (a record from before this was kept: unknown, said as chosen). */
  get #seedChosen() {
    return this.header.seedChosen !== false;
  }

  /**
   * The definition is public (views hold only ids and properties; its rules text is in it).
   * A seat's client is sent the seat's key with it (to take the seat back in a resumed room).
   */
  #sendDefinition(client) {
    const key = this.#seatKeys.get(client.userData.seat);
    client.send('definition', { definition: this.game.definitionJson, seedChosen: this.#seedChosen, ...(key === undefined ? {} : { resumeKey: key }) });
  }

  /**
   * The seats only their key opens: a resumed room's (their hidden cards and logs are their
   * players'). A record from before seat keys has none: its seats are open, as they were.
   */
  get #locked() {
    return new Set(this.#resumed ? Object.keys(this.header.seatKeys ?? {}) : []);
  }

  #publishSeats() {
    const seats = Object.fromEntries([...this.#seatClient.keys()].map((p) => [p, true]));
    const locked = this.#locked;
    const open = this.humanSeats.filter((p) => !this.#seatClient.has(p) && !locked.has(p));
    this.setMetadata({ ...this.metadata, seats, open }).catch(() => {});
  }

  /**
   * Sends each client (all, or those given) its update, with `extra` (ack, reconnected) for
   * the client `to`. What a seat is sent is computed once per seat (view, legal moves, the
   * live log: `logs`, those of this move) and each client gets the events from its own cursor:
   * those the live game no longer keeps come from #history.
   */
  #sendUpdates(clients = this.clients, to = null, extra = {}, logs = this.#liveLogs()) {
    const perSeat = new Map();
    for (const client of clients) {
      const { seat } = client.userData;
      if (!perSeat.has(seat)) {
        perSeat.set(seat, { view: this.game.view(seat), legalMoves: seat === null ? [] : this.game.legalMoves(seat), log: logs(seat) });
      }
      const { view, legalMoves, log } = perSeat.get(seat);
      const total = log.dropped + log.length;
      const from = Math.min(client.userData.sent, total);
      const part = from >= log.dropped ? { from, dropped: 0, events: log.slice(from - log.dropped) } : this.#history.since(seat, from, this.#viewers());
      const msg = { seat, view, legalMoves, ...part };
      if (client === to) Object.assign(msg, extra);
      client.userData.sent = total;
      client.send('update', msg);
    }
  }

  /** The seats of the clients now (null: a spectator). */
  #viewers() {
    return this.clients.map((c) => c.userData?.seat).filter((seat) => seat !== undefined);
  }

  /** The live game's log of each viewer, read once (each read costs a JSON of its last events). */
  #liveLogs() {
    const logs = new Map();
    return (viewer) => {
      if (!logs.has(viewer)) logs.set(viewer, this.game.log(viewer));
      return logs.get(viewer);
    };
  }

  /**
   * The connection a client's seat or spectator has now: after a drop Colyseus gives a new
   * client object (with the same userData) to a session that comes back.
   */
  #current(client) {
    return this.clients.find((c) => c.userData === client.userData) ?? client;
  }

  #reject(client, id, reason, message) {
    if (id !== null) client.userData.answer = { id, reason, message };
    client.send('rejected', { id, reason, message });
  }

  /**
   * Whether a client's message is within its rate limit. One that is not does not run: it is
   * refused in turn with the answers to the client's earlier messages (so the refusal of a
   * move is its last answer, sent again on a reconnection). A client refused too often is
   * disconnected, also in turn: after those answers.
   */
  #admit(client, type, msg) {
    if (this.#flooding.has(client)) return false;  // (being closed: nothing more of it runs)
    const verdict = this.#budgetOf(client).take();
    if (verdict === 'ok') return true;
    if (verdict === 'flood') {
      // (its messages still arrive until the connection is closed: one close, one log line)
      if (!this.#flooding.has(client)) {
        this.#flooding.add(client);
        this.#run(() => this.#closeFlooding(client));
      }
      return false;
    }
    const id = type === 'move' && isObject(msg) && Number.isSafeInteger(msg.id) ? msg.id : null;
    const { burst, perSecond } = this.rateLimit;
    const message = `rulestack room: sending too fast (at most ${burst} messages at once, then ${perSecond} a second): this '${type}' was not processed; send it again later`;
    this.#run(() => this.#reject(this.#current(client), id, 'rate_limited', message));
    return false;
  }

  /** The tokens a client joining a seat spends: the seat's (kept for the next client of that seat). */
  #seatTokensOf(seat) {
    this.#setHardCap();
    if (!this.#seatTokens.has(seat)) this.#seatTokens.set(seat, messageTokens(this.rateLimit));
    return this.#seatTokens.get(seat);
  }

  /**
   * A joining spectator's userData, with the tokens its address's spectators share; refused
   * (a ServerError the client is sent) when its address has maxSpectatorsPerAddress already.
   */
  #spectatorJoins(client) {
    this.#setHardCap();
    // (the addresses nobody watches from any more whose tokens have refilled: as new ones)
    for (const [key, group] of this.#spectators) if (group.members.size === 0 && group.tokens.full()) this.#spectators.delete(key);
    const address = addressKey(peerAddresses.get(client.ref));
    const group = this.#spectators.get(address) ?? { members: new Set(), tokens: messageTokens(this.rateLimit) };
    if (group.members.size >= this.maxSpectatorsPerAddress) throw tooManySpectators(this.maxSpectatorsPerAddress);
    const userData = { seat: null, sent: 0, tokens: group.tokens, address };
    group.members.add(userData);
    this.#spectators.set(address, group);
    return userData;
  }

  /** A spectator gone for good (left, or not back within its grace period): its place is free. */
  #spectatorLeaves(userData) {
    const group = this.#spectators.get(userData.address);
    group?.members.delete(userData);
    if (group?.members.size === 0 && group.tokens.full()) this.#spectators.delete(userData.address);
  }

  /**
   * Colyseus's own cap on a connection's frames, for what never reaches #admit (a request of an
   * unknown type): far above what #admit lets through before it disconnects.
   */
  #setHardCap() {
    this.maxMessagesPerSecond = hardCap(this.rateLimit);
  }

  /** A connection's budget (a reconnection is a new connection: its own refusals, the same tokens). */
  #budgetOf(client) {
    if (!this.#budgets.has(client)) this.#budgets.set(client, new MessageBudget(this.rateLimit, undefined, client.userData.tokens));
    return this.#budgets.get(client);
  }

  #closeFlooding(client) {
    if (client.readyState !== WebSocket.OPEN) return;
    console.error(`rulestack room: ${this.roomId}: client ${client.sessionId} disconnected (${FLOOD_CLOSE_CODE}): more than ${this.rateLimit.floodRefusals} messages refused within ${FLOOD_WINDOW_MS / 1000} s for the rate limit`);
    client.leave(FLOOD_CLOSE_CODE, FLOOD_CLOSE_REASON);
  }

  async #onMove(client, msg) {
    const id = isObject(msg) && Number.isSafeInteger(msg.id) ? msg.id : null;
    if (id === null || !isObject(msg)) {
      return this.#reject(client, null, 'bad_move', `rulestack room: a 'move' message is { id: <integer>, move: <a move object> }, not ${quote(msg)}`);
    }
    const { seat } = client.userData;
    if (seat === null) return this.#reject(client, id, 'unknown_player', 'rulestack room: a spectator cannot move');
    await this.#apply(seat, msg.move, 'player', (e) => this.#reject(this.#current(client), id, e.reason, e.message), client, id);
  }

  #onSync(client, msg) {
    const since = isObject(msg) ? msg.since : undefined;
    if (!Number.isSafeInteger(since) || since < 0) {
      return this.#reject(client, null, 'bad_move', `rulestack room: a 'sync' message is { since: <integer ≥ 0> }, not ${quote(msg)}`);
    }
    client.userData.sent = Math.min(since, client.userData.sent);
    this.#sendUpdates([client]);
  }

  /** Applies a move, records it, then sends every client its update. */
  async #apply(player, move, by, onIllegal, moverClient, id) {
    try {
      this.game.apply(player, move);
    } catch (e) {
      if (e instanceof IllegalMoveError) return onIllegal(e);
      throw e;
    }
    const entry = by === 'player' ? { player, move } : { player, move, by };
    // recorded before anyone is told, so that no client sees a move a resumed room lacks;
    // a move that cannot be recorded is taken back (as one made after this room's claim lapsed:
    // another room may run the record now)
    try {
      if (this.#claim === null) throw new Error('this room lost its claim on the record');
      await this.store.append(this.roomId, entry, this.#claim.owner);
    } catch (e) {
      this.game.undo();
      return onIllegal({ reason: 'runtime_error', message: `rulestack room: the move could not be recorded (${e.message}); it was taken back` });
    }
    this.moves.push(entry);
    const logs = this.#liveLogs();
    this.#history.moved(entry, logs);
    const mover = moverClient ? this.#current(moverClient) : null; // (it may have come back meanwhile)
    if (mover) mover.userData.answer = { id, from: mover.userData.sent }; // (from: its first event)
    this.#sendUpdates(this.clients, mover, { ack: id }, logs);
    // a game that ended leaves the lobby: nobody is to join it
    if (this.header.listed && this.game.view().result !== null) this.setPrivate(true).catch(() => {});
    this.#schedule();
    return true;
  }

  /**
   * Who plays next: a bot now, or a decision timer for a person. Called after every move and
   * whenever someone joins or leaves: a timer already counting for the same turn runs on (a
   * spectator coming and going never restarts it); one whose turn has passed does nothing.
   */
  #schedule(retryMs = 0) {
    let want = null;
    const view = this.#started && !this.#ending && !this.game.disposed ? this.game.view() : null;
    if (view && view.result === null) {
      const botPlayer = view.toAct.find((p) => this.#botLevel(p) && this.game.legalMoves(p).length > 0);
      if (botPlayer !== undefined) want = { kind: 'bot', player: botPlayer, ms: Math.max(retryMs, this.header.botDelayMs) };
      else if (this.header.decisionSeconds) want = { kind: 'timer', player: null, ms: Math.max(retryMs, this.header.decisionSeconds * 1000) };
    }
    const key = this.moves.length;
    const t = this.#timer;
    if (t && want && t.key === key && t.kind === want.kind && t.player === want.player) return;
    clearTimeout(t?.handle);
    this.#timer = null;
    if (!want) return;
    const work = want.kind === 'bot' ? () => this.#botMove(want.player) : () => this.#timeout();
    const timer = { key, kind: want.kind, player: want.player };
    timer.handle = setTimeout(() => {
      if (this.#timer === timer) this.#timer = null;
      // (queued behind the moves received meanwhile: one of them may have taken this turn)
      this.#run(() => (this.moves.length === key ? work() : undefined));
    }, want.ms);
    this.#timer = timer;
  }

  #botLevel(p) {
    return this.header.bots[p] ?? (this.#seatClient.has(p) ? null : this.header.botsForEmptySeats);
  }

  #bot(p, level) {
    const key = `${p}:${level}`;
    if (!this.#bots.has(key)) this.#bots.set(key, this.rs.bot(this.game, botOptions(level, this.moves.length)));
    return this.#bots.get(key);
  }

  /**
   * A bot's move. A random one takes no time; a search (easy, normal, hard) may take seconds,
   * so it runs in the bot pool, on a copy of the game (nothing else runs in this room meanwhile:
   * the game is as the copy when the move comes back).
   */
  #choose(p, level) {
    if (level === 'random') return this.#bot(p, level).choose(p);
    const job = { definition: this.game.definitionJson, snapshot: this.game.snapshot(), player: p, level, seed: this.moves.length };
    // the moves since the last choice: the worker that kept the game then plays them instead
    // of compiling the definition again to restore the snapshot
    const last = this.#lastChoice;
    if (last !== null && this.moves.length - last.moves <= MAX_REPLAYED_MOVES) {
      job.since = { stateHash: last.stateHash, moves: this.moves.slice(last.moves).map(({ player, move }) => ({ player, move })) };
    }
    this.#lastChoice = { moves: this.moves.length, stateHash: this.game.stateHash() };
    return botPool().choose(job, this, this.#botGroup);
  }

  async #botMove(p) {
    const level = this.#botLevel(p);
    if (!level || this.game.disposed) return this.#schedule();
    let move;
    try {
      move = await this.#choose(p, level);
    } catch (e) {
      if (this.#ending) return; // (cancelled: the room is ending)
      console.error(`rulestack room: ${this.roomId}: the bot could not choose a move (${e.message}); it tries again`);
      return this.#schedule(RETRY_MS);
    }
    const ok = move && (await this.#apply(p, move, 'bot', (e) => console.error(`rulestack room: the bot's move was refused: ${e.message}`)));
    if (!ok) this.#schedule(RETRY_MS); // (its timer has run: without another the game would wait for someone to join)
  }

  /** The decision timer ran out: the first player to act passes, or a random bot moves for them. */
  async #timeout() {
    if (this.game.disposed) return;
    const p = this.game.view().toAct.find((q) => this.game.legalMoves(q).length > 0);
    if (p === undefined) return;
    const moves = this.game.legalMoves(p);
    const pass = moves.find((m) => m.action === 'pass');
    const move = pass ?? this.#bot(p, 'random').choose(p);
    const ok = await this.#apply(p, move, 'timeout', (e) => console.error(`rulestack room: the timeout's move was refused: ${e.message}`));
    if (!ok) return this.#schedule(RETRY_MS);
    for (const c of this.clients) {
      c.send('timeout', c.userData.seat === p ? { player: p, passed: !!pass, move } : { player: p, passed: !!pass });
    }
  }
}
