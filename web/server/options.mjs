// The options a rulestack room is created with, checked before any game starts: a bad
// option is refused with an Error that names it and says what is allowed.
import fs from 'node:fs';
import { ErrorCode, ServerError } from '@colyseus/core';
import { DefinitionError } from 'rulestack';
import { fileURLToPath } from 'node:url';

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The example games a room can be created with by name (examples/<name>.yaml). */
export function exampleNames() {
  return fs.readdirSync(examplesDir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
}

const exampleCache = new Map();
/**
 * An example game's definition (its YAML text, or once a game has been made from it the
 * engine's JSON of it, which loads without the YAML reader); an Error naming the examples.
 */
export function exampleDefinition(name) {
  if (exampleCache.has(name)) return exampleCache.get(name);
  const names = exampleNames();
  if (!names.includes(name)) fail(`unknown game '${name}' (examples: ${names.join(', ')})`);
  return fs.readFileSync(`${examplesDir}${name}.yaml`, 'utf8');
}
/** Remembers the JSON the engine made of an example (game.definitionJson). */
export function rememberExample(name, definitionJson) {
  exampleCache.set(name, definitionJson);
}

/** The engine's limit on a definition (its JSON), and how it says a definition is over it. */
export const MAX_DEFINITION_BYTES = 8 * 1024 * 1024;
const TOO_LARGE = 'the definition is larger than 8 MB';

/**
 * Refuses a definition over MAX_DEFINITION_BYTES before anything reads it (a YAML text of
 * tens of MB takes the engine seconds, on the thread every room runs on): a text's size in
 * UTF-8, an object's as JSON. The error is the engine's for it.
 */
export function checkDefinitionSize(definition) {
  let bytes;
  try {
    bytes = Buffer.byteLength(typeof definition === 'string' ? definition : (JSON.stringify(definition) ?? ''), 'utf8');
  } catch {
    return; // (not JSON-serializable: the engine says so)
  }
  if (bytes > MAX_DEFINITION_BYTES) fail(definitionErrorMessage(new DefinitionError([{ path: '', message: TOO_LARGE }])));
}

/** One of a definition's errors as createGame's message writes it: `path: message (line, column)`. */
function definitionIssue({ path, message, line, column }) {
  return `${path || '/'}: ${message}${line !== undefined ? ` (line ${line}, column ${column ?? 1})` : ''}`;
}

/**
 * A DefinitionError said to the client: createGame's message (its first error), then each
 * other error once.
 */
export function definitionErrorMessage(e) {
  const first = e.errors?.[0] ? definitionIssue(e.errors[0]) : null;
  const others = [...new Set((e.errors ?? []).map(definitionIssue))].filter((t) => t !== first);
  return others.length > 0 ? `${e.message}: ${others.join('; ')}` : e.message;
}

export const BOT_LEVELS = ['random', 'easy', 'normal', 'hard'];
const CREATE_KEYS = ['game', 'definition', 'seed', 'bots', 'botsForEmptySeats', 'decisionSeconds', 'graceSeconds', 'botDelayMs', 'listed', 'resume'];
// keys a client may also pass when it creates or joins (Colyseus hands both the same object)
const JOIN_KEYS = ['seat', 'resumeKey'];
/** The longest resumeKey read (a key is 22 characters): a longer one is no key. */
const MAX_RESUME_KEY = 200;

/** The client's request is at fault: a ServerError (sent to it, not logged as a crash). */
export function requestError(msg) {
  return new ServerError(ErrorCode.APPLICATION_ERROR, `rulestack room: ${msg}`);
}
function fail(msg) {
  throw requestError(msg);
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function seconds(name, v, max) {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > max) fail(`${name} must be a number of seconds above 0 and at most ${max}, not ${JSON.stringify(v)}`);
  return v;
}

function botLevel(where, v) {
  if (!BOT_LEVELS.includes(v)) fail(`${where} must be one of ${BOT_LEVELS.join(', ')}, not ${JSON.stringify(v)}`);
  return v;
}

/**
 * Options, of a new room or of a join (a typo such as `seet` is refused, not ignored): an
 * object of known keys. (A join may carry the room's own options: Colyseus hands the options of
 * joinOrCreate to both onCreate and onJoin.)
 */
export function checkOptionKeys(options) {
  if (!isObject(options)) fail(`options must be an object, not ${JSON.stringify(options)}`);
  for (const k of Object.keys(options)) {
    if (!CREATE_KEYS.includes(k) && !JOIN_KEYS.includes(k)) fail(`unknown option '${k}' (options: ${CREATE_KEYS.join(', ')}; when joining: ${JOIN_KEYS.join(', ')})`);
  }
}

/**
 * Checks the options of a new room. Returns { source, seed, bots, botsForEmptySeats,
 * decisionSeconds, graceSeconds, botDelayMs, listed, resume } where source is
 * { game } (an example name) or { definition } (an object or JSON/YAML text).
 * Which players exist is checked later, against the loaded game (checkSeats).
 */
export function parseRoomOptions(options = {}) {
  checkOptionKeys(options);
  const out = {
    source: null,
    seed: undefined,
    bots: {},
    botsForEmptySeats: null,
    decisionSeconds: seconds('decisionSeconds', options.decisionSeconds, 86400),
    graceSeconds: seconds('graceSeconds', options.graceSeconds, 86400) ?? 30,
    botDelayMs: 0,
    listed: false,
    resume: null,
  };
  if (options.resume !== undefined) {
    if (typeof options.resume !== 'string' || options.resume === '') fail(`resume must be the id of a game record (a string), not ${JSON.stringify(options.resume)}`);
    for (const k of ['game', 'definition', 'seed', 'bots']) if (options[k] !== undefined) fail(`resume takes the game, seed and bots from the record: do not pass '${k}' with it`);
    out.resume = options.resume;
  } else {
    const hasGame = options.game !== undefined;
    const hasDef = options.definition !== undefined;
    if (hasGame === hasDef) fail(`give exactly one of 'game' (an example name: ${exampleNames().join(', ')}) or 'definition' (an object, JSON or YAML text)`);
    if (hasGame) {
      if (typeof options.game !== 'string') fail(`game must be an example name (a string), not ${JSON.stringify(options.game)}`);
      exampleDefinition(options.game);
      out.source = { game: options.game };
    } else {
      if (typeof options.definition !== 'string' && !isObject(options.definition)) fail('definition must be an object or JSON/YAML text');
      checkDefinitionSize(options.definition);
      out.source = { definition: options.definition };
    }
    if (options.seed !== undefined) {
      const s = options.seed;
      if (!(typeof s === 'string' || Number.isSafeInteger(s))) fail(`seed must be a safe integer or a string, not ${JSON.stringify(s)}`);
      out.seed = s;
    }
    if (options.bots !== undefined) {
      if (!isObject(options.bots)) fail(`bots must be an object { player: level }, not ${JSON.stringify(options.bots)}`);
      for (const [p, level] of Object.entries(options.bots)) out.bots[p] = botLevel(`bots['${p}']`, level);
    }
  }
  if (options.botsForEmptySeats !== undefined) out.botsForEmptySeats = botLevel('botsForEmptySeats', options.botsForEmptySeats);
  if (options.botDelayMs !== undefined) {
    const d = options.botDelayMs;
    if (!Number.isSafeInteger(d) || d < 0 || d > 60000) fail(`botDelayMs must be an integer from 0 to 60000, not ${JSON.stringify(d)}`);
    out.botDelayMs = d;
  }
  if (options.listed !== undefined) {
    if (typeof options.listed !== 'boolean') fail(`listed must be true or false, not ${JSON.stringify(options.listed)}`);
    out.listed = options.listed;
  }
  return out;
}

/** Checks that every bot seat names a player of the game. */
export function checkSeats(players, bots) {
  for (const p of Object.keys(bots)) {
    if (!players.includes(p)) fail(`bots names player '${p}', but the game's players are ${players.join(', ')}`);
  }
}

/**
 * The seat a joining client asks for: undefined (the first free seat, else spectator),
 * 'spectator', or a player id. Returns the player id, or null for a spectator. `locked`: the
 * seats only their key opens (a resumed room's: joinSeat); one asked for is refused.
 */
export function parseSeat(seat, { players, bots, taken, locked = new Set() }) {
  if (seat === undefined) return players.find((p) => !bots[p] && !taken.has(p) && !locked.has(p)) ?? null;
  if (seat === 'spectator' || seat === null) return null;
  // (a number names the player of that id, but the refusal quotes what was sent)
  const id = typeof seat === 'number' ? String(seat) : seat;
  if (typeof id !== 'string' || !players.includes(id)) fail(`seat must be a player (${players.join(', ')}) or 'spectator', not ${JSON.stringify(seat)}`);
  seat = id;
  if (bots[seat]) fail(`seat '${seat}' is played by a bot`);
  if (locked.has(seat)) fail(`seat '${seat}' was held before this room was resumed: only its player takes it back, joining with the seat's resumeKey`);
  if (taken.has(seat)) fail(`seat '${seat}' is taken`);
  return seat;
}

/**
 * The seat of a joining client: with `resumeKey` (a seat's key: seatOf(key) finds whose),
 * that seat (a `seat` that names another is refused), else parseSeat's. `seat: 'spectator'`
 * is a spectator either way.
 */
export function joinSeat({ seat, resumeKey }, { players, bots, taken, locked, seatOf }) {
  if (resumeKey === undefined || seat === 'spectator' || seat === null) return parseSeat(seat, { players, bots, taken, locked });
  if (typeof resumeKey !== 'string' || resumeKey === '' || resumeKey.length > MAX_RESUME_KEY) fail(`resumeKey must be a seat's key (a string: an OnlineGame's resumeKey), not ${JSON.stringify(resumeKey)?.slice(0, 60)}`);
  const mine = seatOf(resumeKey);
  if (mine === undefined) fail('resumeKey is not the key of a seat of this room');
  if (seat !== undefined && parseSeat(seat, { players, bots, taken: new Set() }) !== mine) fail(`resumeKey is the key of seat '${mine}', not ${JSON.stringify(seat)}`);
  if (taken.has(mine)) fail(`seat '${mine}' is taken`);
  return mine;
}
