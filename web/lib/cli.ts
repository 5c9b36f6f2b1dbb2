#!/usr/bin/env node
// The `rulestack` command: validate / moves / play / simulate / test, on the wasm engine in
// node. Exit codes: 0 ok, 1 the check failed (invalid definition, illegal move, failing
// scenario, games that errored), 2 usage error or unreadable file, 3 internal error.
import { closeSync, constants as fsConstants, existsSync, fstatSync, openSync, readSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadEngine, type Rulestack } from './engine.js';
import { DefinitionError, IllegalMoveError, clipped, type DefinitionIssue } from './errors.js';
import { loadYaml, locateIssues, parseDefinition, type DefinitionFormat, type ParsedDefinition } from './definition.js';
import type { Game } from './game.js';
import { coreCount } from './simulate-pool.js';
import type { GameEvent, GameView, Move, ParallelSimulateOptions, PlayerId, SimulateOptions, SimulateResult } from './types.js';

const USAGE = `usage:
  rulestack validate GAME [--json]
  rulestack moves GAME [--moves FILE] [--seed N] [--json]
  rulestack play GAME [--seed N] [--moves FILE] [--view PLAYER] [--json] [--interactive]
  rulestack simulate GAME [--games N] [--bot random|mcts|easy|normal|hard] [--seed N] [--iterations N] [--max-moves N] [--batch N] [--workers N] [--json]
  rulestack test SCENARIO|DIR... [--json] [--root DIR]
  rulestack --version | --help

GAME is a .json, .yaml or .yml file. A moves FILE has one JSON object a line,
{"player": "0", "move": {...}} ("-" = stdin). play is interactive when stdin and stdout are
a terminal, or with --interactive. A scenario's game path must be in the scenario's folder or
below it (or, with --root DIR, under DIR). Files are read only if they are regular files of at
most 16 MiB. Exit codes: 0 ok, 1 failed (invalid game, illegal move, failing scenario), 2 usage
error or unreadable file, 3 internal error.`;

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

/** The largest seed: seeds are integers the engine reads exactly (2^53 - 1). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;
/** The engine plays at most this many games in one call and bots use at most this many iterations. */
export const MAX_GAMES = 1_000_000;
export const MAX_ITERATIONS = 100_000;
/** The most moves a simulated game is played for (the engine's own bound). */
export const MAX_GAME_MOVES = 100_000;
/** The most simulate workers. */
export const MAX_WORKERS = 1024;

class UsageError extends Error {}
/** A failure already reported on stderr; carries the exit code. */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

// `rulestack ... | head`: a closed pipe ends the program quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const out = (s: string) => process.stdout.write(s + '\n');
const err = (s: string) => process.stderr.write(s + '\n');
const outJson = (v: unknown) => out(JSON.stringify(v));

function formatOf(file: string): DefinitionFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return 'auto';
}

/** The most a command reads from one file (or stdin). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_FILE_TEXT = '16 MiB';
const TOO_LARGE = `larger than ${MAX_FILE_TEXT} (the most a command reads)`;
const NOT_REGULAR = 'not a regular file (only regular files are read)';

/** Reads fd to its end, at most MAX_FILE_BYTES. */
function readBounded(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const chunk = Buffer.allocUnsafe(65536);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(wait, 0, 0, 5); // a non-blocking stdin: wait for more
        continue;
      }
      if (code === 'EOF') break; // stdin on Windows
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_FILE_BYTES) throw new ReadError(TOO_LARGE);
    chunks.push(chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

/**
 * The text of a file (or stdin, "-"): only a regular file of at most MAX_FILE_BYTES is read,
 * never a directory, a device (/dev/zero), a FIFO or anything else that may not end. A
 * ReadError that names the file and why otherwise.
 */
function readText(file: string, shown = file === '-' ? 'stdin' : file): string {
  try {
    if (file === '-') return readBounded(0).toString('utf8');
    const st = statSync(file);
    if (st.isDirectory()) throw new ReadError('is a directory');
    if (!st.isFile()) throw new ReadError(NOT_REGULAR);
    // O_NONBLOCK: should the file have become a FIFO since the stat, the open does not hang
    const fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    try {
      const st2 = fstatSync(fd);
      if (!st2.isFile()) throw new ReadError(NOT_REGULAR);
      if (st2.size > MAX_FILE_BYTES) throw new ReadError(TOO_LARGE);
      return readBounded(fd).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      e instanceof ReadError
        ? e.message
        : code === 'ENOENT' || code === 'ENOTDIR'
          ? 'no such file'
          : code === 'EISDIR'
            ? 'is a directory'
            : (e as Error).message;
    throw new ReadError(`cannot read ${shown}: ${why}`);
  }
}
class ReadError extends Error {}

/** A path as messages show it: relative to the working directory when it is below it. */
function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel === '' || path.isAbsolute(rel) || rel === '..' || rel.startsWith('..' + path.sep) ? file : rel;
}

/** `FILE:LINE:COL: PATH: MESSAGE` (no LINE:COL without a position, no PATH at the root). */
export function formatIssue(file: string, e: DefinitionIssue): string {
  const where = e.line !== undefined ? `${file}:${e.line}:${e.column ?? 1}` : file;
  return e.path ? `${where}: ${e.path}: ${e.message}` : `${where}: ${e.message}`;
}

/** An issue as --json prints it: `{ file, path, message, line?, column? }`. */
const issueJson = (file: string, e: DefinitionIssue) => ({ file, ...e });

/** An integer option in [min, max]; a clear usage error otherwise. */
function integer(name: string, value: string | undefined, dflt: number, min: number, max: number): number {
  if (value === undefined) return dflt;
  const range = `an integer from ${min} to ${max}`;
  if (!/^-?[0-9]+$/.test(value.trim())) throw new UsageError(`--${name} must be ${range}, not "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be ${range}, not ${value.trim()}`);
  return n;
}

/** stdin ("-") can give the game or the moves, not both. */
function oneStdin(file: string, moves: string | undefined): void {
  if (file === '-' && moves === '-') throw new UsageError('stdin can give the game or the moves, not both: give one of them as a file');
}

function oneFile(positionals: string[], what: string): string {
  if (positionals.length === 0) throw new UsageError(`missing ${what}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
  return positionals[0]!;
}

/**
 * Reports definition issues (stderr, one a line; or one JSON object on stdout with --json)
 * and ends the command with exit 1.
 */
function failIssues(file: string, issues: DefinitionIssue[], json: boolean): never {
  if (json) outJson({ ok: false, errors: issues.map((x) => issueJson(file, x)) });
  else for (const x of issues) err(formatIssue(file, x));
  throw new Exit(EXIT_FAILED);
}

/** Reads and parses a game file; reports its errors and exits 1 when it does not parse. */
function readGame(file: string, json = false): ParsedDefinition {
  const text = readText(file);
  try {
    return parseDefinition(text, formatOf(file));
  } catch (e) {
    if (e instanceof DefinitionError) failIssues(file, e.errors, json);
    throw e;
  }
}

/** The engine's problems with a parsed game, located in its YAML source. */
function gameIssues(rs: Rulestack, parsed: ParsedDefinition): DefinitionIssue[] {
  return locateIssues(parsed, rs.validate(parsed.value as Record<string, unknown>));
}

/** Validates; reports every error and exits 1 when there is any. */
function checkGame(rs: Rulestack, file: string, parsed: ParsedDefinition, json = false): void {
  const issues = gameIssues(rs, parsed);
  if (issues.length > 0) failIssues(file, issues, json);
}

// ------------------------------------------------------------------ moves files

/** One line of a moves file. */
export interface MoveLine {
  player: PlayerId;
  move: Move;
}

/** A moves-file line that could not be applied. */
interface MoveFailure {
  line: number;
  reason: string;
  message: string;
}

/**
 * Applies the moves of a moves file in order. Returns the applied moves, or the first
 * failure (the game then holds every move before it).
 */
function applyMovesText(game: Game, text: string): { applied: MoveLine[]; failure?: MoveFailure } {
  const applied: MoveLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('//')) continue;
    const n = i + 1;
    const malformed = (message: string) => ({ applied, failure: { line: n, reason: 'malformed_move', message } });
    let entry: { player?: unknown; move?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      return malformed(`not a JSON object: ${line.slice(0, 80)}`);
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return malformed('expected {"player": ..., "move": {...}}');
    }
    for (const key of Object.keys(entry))
      if (key !== 'player' && key !== 'move') return malformed(`unknown key '${clipped(key)}' (a line has "player" and "move", nothing else)`);
    const { player, move } = entry;
    if (typeof player !== 'string' && typeof player !== 'number') return malformed('"player" must be a player id');
    if (typeof move !== 'object' || move === null || Array.isArray(move)) return malformed('"move" must be an object');
    try {
      game.apply(player, move as Move);
    } catch (e) {
      if (e instanceof IllegalMoveError) return { applied, failure: { line: n, reason: e.reason, message: e.message } };
      throw e;
    }
    applied.push({ player: String(player), move: move as Move });
  }
  return { applied };
}

/** Starts the game of a command (`--seed`, `--moves`): reports every failure and exits 1. */
async function startGame(
  file: string,
  opts: { seed: number; movesText: string; json: boolean },
): Promise<{ rs: Rulestack; game: Game; applied: MoveLine[] }> {
  const parsed = readGame(file, opts.json);
  const rs = await loadEngine();
  checkGame(rs, file, parsed, opts.json);
  const game = rs.createGame(parsed.value as Record<string, unknown>, { seed: opts.seed });
  const r = applyMovesText(game, opts.movesText);
  if (r.failure) {
    game.dispose();
    const f = r.failure;
    if (opts.json) outJson({ ok: false, error: f });
    else err(`line ${f.line}: ${f.reason}: ${f.message}`);
    throw new Exit(EXIT_FAILED);
  }
  return { rs, game, applied: r.applied };
}

// ------------------------------------------------------------------ describing moves and views

/** A move in words: `Bolt from Bolt#1 → c4`, `accept d1 → BP`, `decline d2`, `pass`. */
export function describeMove(move: Move): string {
  const m = move as { action?: string; decision?: string; accept?: boolean; source?: string; targets?: string[]; mode?: number; x?: number };
  const targets = m.targets?.length ? ` → ${m.targets.join(', ')}` : '';
  if (m.decision !== undefined) return `${m.accept === false ? 'decline' : 'accept'} ${m.decision}${targets}`;
  if (m.action === 'pass') return 'pass';
  let s = String(m.action);
  if (m.source !== undefined) s += ` from ${m.source}`;
  if (m.mode !== undefined) s += ` mode ${m.mode}`;
  if (m.x !== undefined) s += ` x=${m.x}`;
  return s + targets;
}

function describeDecision(d: NonNullable<GameView['decisions']>[number]): string {
  const what = [d.name, d.kind, d.optional ? 'optional' : 'forced'].filter(Boolean).join(', ');
  return `${d.id} (${what}) for player ${d.player}`;
}

function describeResult(r: GameView['result']): string {
  if (r === null) return 'not over';
  return 'winner' in r ? `player ${r.winner} wins` : 'a draw';
}

function statusLine(v: GameView): string {
  const parts = [`turn ${v.turn}`, `phase ${v.phase ?? '-'}`];
  if (v.active != null) parts.push(`active ${v.active}`);
  if (v.priority != null) parts.push(`priority ${v.priority}`);
  parts.push(v.result === null ? `to act: ${v.toAct.join(', ') || 'nobody'}` : `game over: ${describeResult(v.result)}`);
  return parts.join(' · ');
}

const jsonValue = (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x));

/** The queue, top first, one item a line. */
function queueLines(v: GameView): string[] {
  if (v.queue.length === 0) return ['queue: empty'];
  return [
    'queue (top first):',
    ...v.queue.map((q) => {
      let s = `  ${q.id} ${q.action} by ${q.player}`;
      if (q.source) s += ` from ${q.source}`;
      if (q.mode != null) s += ` mode ${q.mode}`;
      if (q.x != null) s += ` x=${q.x}`;
      if (q.targets?.length) s += ` → ${q.targets.join(', ')}`;
      return s;
    }),
  ];
}

/** ` (mark "0", pos 4)`: the properties that are not null. */
function entityProps(p: Record<string, unknown> | undefined): string {
  const set = Object.entries(p ?? {}).filter(([, x]) => x !== null);
  return set.length ? ` (${set.map(([k, x]) => `${k} ${JSON.stringify(x)}`).join(', ')})` : '';
}

/** A view in a few lines: players and their properties, zones and what is visible in them. */
function viewLines(v: GameView): string[] {
  const props = (p?: Record<string, unknown>) =>
    p && Object.keys(p).length ? ' ' + Object.entries(p).map(([k, x]) => `${k} ${jsonValue(x)}`).join(', ') : '';
  const lines = ['players:'];
  for (const p of v.players) lines.push(`  ${p.id}:${props(p.properties as Record<string, unknown> | undefined)}`);
  lines.push('zones:');
  for (const [id, z] of Object.entries(v.zones)) {
    const shown = z.entities ? z.entities.map((e) => e.id + entityProps(e.properties)).join(', ') : 'hidden';
    lines.push(`  ${id} (${z.count})${z.count > 0 ? `: ${shown}` : ''}`);
  }
  if (v.decisions?.length) {
    lines.push('decisions pending:');
    for (const d of v.decisions) lines.push(`  ${describeDecision(d)}`);
  }
  return lines;
}

/** The numbered list of moves of a player (1-based numbers, `first` onwards). */
function moveLines(moves: Move[], first = 1): string[] {
  return moves.map((m, i) => `  ${String(first + i).padStart(2)}. ${describeMove(m)}   ${JSON.stringify(m)}`);
}

/** Why a player without moves has none. */
function noMovesReason(v: GameView, player: PlayerId): string {
  if (v.result !== null) return `the game is over (${describeResult(v.result)})`;
  const pending = v.decisions ?? [];
  if (pending.length > 0) {
    const own = pending.filter((d) => d.player === player);
    const others = pending.filter((d) => d.player !== player);
    if (own.length > 0) {
      return `a decision is pending: their ${own.map((d) => d.id).join(', ')} comes after ${others.map(describeDecision).join('; ')}`;
    }
    return `a decision is pending: ${pending.map(describeDecision).join('; ')}`;
  }
  if (v.toAct.length > 0) return `waiting for ${v.toAct.map((p) => `player ${p}`).join(', ')}`;
  return 'nobody may act';
}

// ------------------------------------------------------------------ validate

async function cmdValidate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const file = oneFile(positionals, 'GAME');
  const json = values.json === true;
  const parsed = readGame(file, json);
  const rs = await loadEngine();
  const { errors, warnings } = rs.check(parsed.value as Record<string, unknown>);
  if (errors.length > 0) failIssues(file, locateIssues(parsed, errors), json);
  // legal, but almost certainly not meant: said, and still exit 0
  const located = locateIssues(parsed, warnings);
  if (json) outJson({ ok: true, errors: [], warnings: located.map((w) => issueJson(file, w)) });
  else {
    for (const w of located) err(`warning: ${formatIssue(file, w)}`);
    out('ok');
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ moves

async function cmdMoves(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: { seed: { type: 'string' }, moves: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const file = oneFile(positionals, 'GAME');
  const seed = integer('seed', values.seed, 0, 0, MAX_SEED);
  const json = values.json === true;
  oneStdin(file, values.moves);
  const movesText = values.moves !== undefined ? readText(values.moves) : '';
  const { game } = await startGame(file, { seed, movesText, json });
  try {
    const v = game.view();
    const players = v.players.map((p) => {
      const moves = game.legalMoves(p.id);
      return { id: p.id, moves, ...(moves.length === 0 ? { reason: noMovesReason(v, p.id) } : {}) };
    });
    if (json) {
      outJson({
        ok: true,
        turn: v.turn,
        phase: v.phase,
        toAct: v.toAct,
        result: v.result,
        decisions: (v.decisions ?? []).map(({ id, player, kind, name, optional }) => ({ id, player, kind, name, optional })),
        players,
      });
      return EXIT_OK;
    }
    out(statusLine(v));
    for (const d of v.decisions ?? []) out(`decision pending: ${describeDecision(d)}`);
    for (const p of players) {
      if (p.moves.length === 0) out(`player ${p.id}: no moves — ${p.reason}`);
      else {
        out(`player ${p.id}:`);
        for (const l of moveLines(p.moves)) out(l);
      }
    }
    return EXIT_OK;
  } finally {
    game.dispose();
  }
}

// ------------------------------------------------------------------ play

async function cmdPlay(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: {
      seed: { type: 'string' },
      moves: { type: 'string' },
      view: { type: 'string' },
      json: { type: 'boolean' },
      interactive: { type: 'boolean', short: 'i' },
    },
    allowPositionals: true,
    strict: true,
  });
  const file = oneFile(positionals, 'GAME');
  const seed = integer('seed', values.seed, 0, 0, MAX_SEED);
  const json = values.json === true;
  const interactive =
    values.interactive === true ||
    (!json && values.moves !== '-' && file !== '-' && process.stdin.isTTY === true && process.stdout.isTTY === true);
  if (interactive && json) throw new UsageError('--interactive and --json do not go together');
  if (interactive && values.moves === '-') throw new UsageError('--interactive reads commands from stdin: give --moves a file');
  if (interactive && file === '-') throw new UsageError('--interactive reads commands from stdin: give the game as a file');
  oneStdin(file, values.moves);
  const movesText = values.moves !== undefined ? readText(values.moves) : '';
  const { game, applied } = await startGame(file, { seed, movesText, json });
  try {
    const viewer = values.view;
    if (viewer !== undefined && !game.view().players.some((p) => p.id === viewer)) {
      throw new UsageError(`--view: no player "${viewer}" (players: ${game.view().players.map((p) => p.id).join(', ')})`);
    }
    if (interactive) return await interactivePlay(game, { file, seed, viewer, history: applied });
    const view = game.view(viewer);
    if (json) outJson({ ok: true, moves: applied.length, stateHash: game.stateHash(), view });
    else out(JSON.stringify(view, null, 2));
    return EXIT_OK;
  } finally {
    game.dispose();
  }
}

const PLAY_HELP = `commands:
  N             play move number N of the list
  moves         list the moves again (also: an empty line)
  view [P]      the whole view of player P (default: yours) as JSON
  queue         the action queue
  undo          take back the last move
  save FILE     write the moves so far as moves JSON lines (rulestack play GAME --seed N --moves FILE replays them)
  help          this list
  quit          leave (also: end of input)`;

/**
 * The interactive game: shows the state, the queue, the view of the player to act (or of
 * `viewer`) and the numbered moves, then reads a command a line from stdin.
 */
async function interactivePlay(
  game: Game,
  opts: { file: string; seed: number; viewer: string | undefined; history: MoveLine[] },
): Promise<number> {
  const history = [...opts.history];
  let choices: MoveLine[] = [];
  const show = () => {
    const spectator = game.view();
    const me = opts.viewer ?? spectator.toAct[0];
    const v = game.view(me);
    out('');
    out(statusLine(v));
    for (const l of queueLines(v)) out(l);
    out(me === undefined ? 'spectator view:' : `player ${me} sees:`);
    for (const l of viewLines(v)) out(`  ${l}`);
    choices = [];
    if (v.result !== null) {
      out(`game over: ${describeResult(v.result)} (undo, save FILE or quit)`);
      return;
    }
    for (const p of spectator.toAct) {
      const moves = game.legalMoves(p);
      out(`moves for player ${p}:`);
      for (const l of moveLines(moves, choices.length + 1)) out(l);
      for (const m of moves) choices.push({ player: p, move: m });
    }
    if (choices.length === 0) out(`no moves: ${noMovesReason(spectator, me ?? '')}`);
  };
  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  // on a terminal, readline edits the line (and keeps a history); off one, it reads lines
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: tty, crlfDelay: Infinity });
  const prompt = () => {
    const toAct = game.view().toAct;
    rl.setPrompt(`${toAct.length ? toAct.join(',') : '-'}> `);
    rl.prompt();
  };

  out(`rulestack play: ${game.view().game ?? opts.file}, seed ${opts.seed}` +
    (history.length ? `, ${history.length} moves applied` : '') + '. Type help for the commands.');
  show();
  prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      const [cmd = '', ...rest] = line.split(/\s+/);
      const arg = line.slice(cmd.length).trim();
      if (/^[0-9]+$/.test(cmd)) {
        const n = Number(cmd);
        const c = choices[n - 1];
        if (!c || rest.length > 0) {
          out(choices.length ? `no move ${line}: choose 1 to ${choices.length}` : 'no move to choose now');
        } else {
          try {
            const events = game.apply(c.player, c.move);
            history.push(c);
            out(`player ${c.player}: ${describeMove(c.move)}`);
            if (events.length) out(`events: ${summarizeEvents(events)}`);
          } catch (e) {
            if (!(e instanceof IllegalMoveError)) throw e;
            out(`illegal: ${e.reason}: ${e.message}`);
          }
          show();
        }
      } else if (cmd === '' || cmd === 'moves' || cmd === 'm') {
        show();
      } else if (cmd === 'view' || cmd === 'v') {
        const who = arg || opts.viewer || game.view().toAct[0];
        if (who !== undefined && !game.view().players.some((p) => p.id === who)) out(`no player "${who}"`);
        else out(JSON.stringify(game.view(who), null, 2));
      } else if (cmd === 'queue' || cmd === 'q') {
        for (const l of queueLines(game.view())) out(l);
      } else if (cmd === 'undo' || cmd === 'u') {
        if (game.undo()) {
          const last = history.pop();
          out(`undone: ${last ? `player ${last.player}: ${describeMove(last.move)}` : 'the last move'}`);
          show();
        } else out('nothing to undo');
      } else if (cmd === 'save' || cmd === 's') {
        if (!arg) out('save needs a file name: save FILE');
        else {
          try {
            writeFileSync(arg, history.map((h) => JSON.stringify(h) + '\n').join(''));
            out(`saved ${history.length} moves to ${arg}`);
          } catch (e) {
            out(`cannot write ${arg}: ${(e as Error).message}`);
          }
        }
      } else if (cmd === 'help' || cmd === 'h' || cmd === '?') {
        out(PLAY_HELP);
      } else if (cmd === 'quit' || cmd === 'exit') {
        return EXIT_OK;
      } else {
        out(`unknown command "${cmd}" (help lists the commands)`);
      }
      prompt();
    }
    out('');
    return EXIT_OK;
  } finally {
    rl.close();
  }
}

/** `TurnStart 0, OnZoneEnter Bolt#3 → Hand:0, …` (at most 12; the `before` halves left out). */
function summarizeEvents(all: GameEvent[]): string {
  const events = all.filter((e) => e.when !== 'before');
  const one = (e: GameEvent) => {
    const f: Record<string, unknown> = { ...e };
    const parts = [String(e.type)];
    for (const k of ['action', 'player', 'entity', 'zone', 'phase', 'winner']) {
      if (f[k] !== undefined && f[k] !== null) parts.push(`${k === 'zone' ? '→ ' : ''}${jsonValue(f[k])}`);
    }
    if (e.type === 'GameError' && typeof f.message === 'string') parts.push(`(${f.message})`);  // where and why
    return parts.join(' ');
  };
  const shown = events.slice(0, 12).map(one).join(', ');
  return events.length > 12 ? `${shown}, … (${events.length} in all)` : shown;
}

// ------------------------------------------------------------------ simulate

/** A game that ended in an engine error. */
interface GameErrorDetail {
  game: number;
  seed: number;
  message: string;
}

function progressBar(done: number, total: number, elapsed: number): string {
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  const rate = elapsed > 0 ? done / elapsed : 0;
  const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done}/${total} games  ${rate.toFixed(1)} games/s`;
}

/**
 * The games of one engine call that ended in an error, as the engine reports them (its
 * `errorList`: the first 20 of the call, `game` counted from 0 within the call); `first` is the
 * number of games played before this call.
 */
function errorsOf(r: SimulateResult, first: number): GameErrorDetail[] {
  return (r.errorList ?? []).map((e) => ({ game: first + e.game + 1, seed: e.seed, message: e.message }));
}

async function cmdSimulate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: {
      games: { type: 'string' },
      bot: { type: 'string' },
      seed: { type: 'string' },
      iterations: { type: 'string' },
      'max-moves': { type: 'string' },
      batch: { type: 'string' },
      workers: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const file = oneFile(positionals, 'GAME');
  const total = integer('games', values.games, 100, 1, MAX_GAMES);
  const seed = integer('seed', values.seed, 0, 0, MAX_SEED - total + 1);
  const bot = values.bot ?? 'random';
  if (!['random', 'mcts', 'easy', 'normal', 'hard'].includes(bot))
    throw new UsageError(`--bot must be random, mcts, easy, normal or hard, not "${bot}"`);
  const iterations = values.iterations !== undefined ? integer('iterations', values.iterations, 0, 1, MAX_ITERATIONS) : undefined;
  if (iterations !== undefined && bot === 'random')
    throw new UsageError('--iterations is an MCTS budget: give it with --bot mcts, or with a level to override its iterations');
  const maxMoves = values['max-moves'] !== undefined ? integer('max-moves', values['max-moves'], 0, 1, MAX_GAME_MOVES) : undefined;
  // MCTS games are slow: one per engine call, so the progress moves.
  const batch = integer('batch', values.batch, bot === 'random' ? 20 : 1, 1, MAX_GAMES);
  const workers = integer('workers', values.workers, await coreCount(), 1, MAX_WORKERS);
  const json = values.json === true;

  const parsed = readGame(file, json);
  const rs = await loadEngine();
  checkGame(rs, file, parsed, json);

  const tty = !json && process.stderr.isTTY === true;
  // each call's own errorList (the first 20 of each batch), numbered across the run
  const errorDetails: GameErrorDetail[] = [];
  const opts: ParallelSimulateOptions = { bot: bot as SimulateOptions['bot'], games: total, seed, batch, workers };
  if (iterations !== undefined) opts.iterations = iterations;
  if (maxMoves !== undefined) opts.maxMoves = maxMoves;
  const started = performance.now();
  let reportedTenths = 0;
  let lastDraw = -1;
  opts.onProgress = (done, _total, b) => {
    errorDetails.push(...errorsOf(b.result, b.first));
    const elapsed = (performance.now() - started) / 1000;
    if (tty) {
      // redraw at most every 50 ms (and at the end)
      if (elapsed - lastDraw >= 0.05 || done >= total) {
        lastDraw = elapsed;
        process.stderr.write(`\r${progressBar(done, total, elapsed)}`);
      }
    } else if (!json && Math.floor((done * 10) / total) > reportedTenths) {
      err(`simulate: ${done}/${total} games`);
      reportedTenths = Math.floor((done * 10) / total);
    }
  };
  let t: SimulateResult;
  try {
    t = await rs.simulateParallel(parsed.json, opts);
  } catch (e) {
    if (e instanceof DefinitionError) failIssues(file, e.errors, json);
    throw e;
  }
  errorDetails.sort((a, b) => a.game - b.game); // the batches end in any order
  const seconds = (performance.now() - started) / 1000;
  if (tty) process.stderr.write('\r\x1b[2K');

  const gamesPerSecond = seconds > 0 ? t.games / seconds : 0;
  const movesPerSecond = seconds > 0 ? t.moves / seconds : 0;
  const meanLength = t.meanLength;
  const unfinished = t.unfinished ?? 0;
  const players = Object.keys(t.wins).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const winRates: Record<string, number> = {};
  for (const p of players) winRates[p] = t.games > 0 ? t.wins[p]! / t.games : 0;
  const drawRate = t.games > 0 ? t.draws / t.games : 0;

  if (json) {
    const result: Record<string, unknown> = {
      ok: t.errors === 0,
      games: t.games,
      moves: t.moves,
      bot,
      seed,
      seconds,
      gamesPerSecond,
      movesPerSecond,
      meanLength,
      wins: Object.fromEntries(players.map((p) => [p, t.wins[p]])),
      winRates,
      draws: t.draws,
      drawRate,
      unfinished,
      errors: t.errors,
      errorDetails,
    };
    if (iterations !== undefined) result.iterations = iterations;
    if (maxMoves !== undefined) result.maxMoves = maxMoves;
    outJson(result);
  } else {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    out(`games        ${t.games} (${bot} bots, ${iterations !== undefined ? `${iterations} iterations, ` : ''}seed ${seed})`);
    out(`moves        ${t.moves}`);
    out(`mean length  ${meanLength.toFixed(2)} moves`);
    out(`time         ${seconds.toFixed(3)} s`);
    out(`games/s      ${gamesPerSecond.toFixed(1)}`);
    out(`moves/s      ${Math.round(movesPerSecond)}`);
    out(`win rates    ${players.map((p) => `${p}: ${pct(winRates[p]!)} (${t.wins[p]})`).join('  ') || '-'}`);
    out(`draws        ${pct(drawRate)} (${t.draws})`);
    if (unfinished > 0) out(`unfinished   ${pct(unfinished / t.games)} (${unfinished})`);
    if (t.errors > 0) out(`errors       ${t.errors}`);
  }
  if (t.errors > 0) {
    if (!json) {
      for (const d of errorDetails) err(`simulate: game ${d.game} (seed ${d.seed}): ${d.message}`);
      const unlisted = t.errors - errorDetails.length;
      err(`simulate: ${t.errors} game(s) ended in an engine error` + (unlisted > 0 ? ` (${unlisted} not listed: the engine lists the first 20 of each call; a smaller --batch lists more)` : ''));
    }
    return EXIT_FAILED;
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ test

/** One failure of a scenario: `step` counts from 1 (null: the scenario as a whole). */
interface ScenarioFailure {
  step: number | null;
  line?: number;
  message: string;
}
interface ScenarioReport {
  file: string;
  name: string;
  ok: boolean;
  failures: ScenarioFailure[];
}

/** Where each step of a scenario file is: the line of `/steps/i` (YAML, and JSON read as YAML). */
function stepLocator(text: string, format: DefinitionFormat): ParsedDefinition['locate'] {
  try {
    return parseDefinition(text, format === 'json' || /^\s*[{[]/.test(text) ? 'yaml' : format).locate;
  } catch {
    return () => undefined;
  }
}

/** Whether `target` (an existing file) is in the directory `dir` or below it, symbolic links resolved. */
function inside(dir: string, target: string): boolean {
  let realDir: string, realTarget: string;
  try {
    realDir = realpathSync(dir);
    realTarget = realpathSync(target);
  } catch {
    return false;
  }
  const rel = path.relative(realDir, realTarget);
  return rel !== '' && !path.isAbsolute(rel) && rel !== '..' && !rel.startsWith('..' + path.sep);
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

function runOneScenario(rs: Rulestack, file: string, root?: string): ScenarioReport {
  const report: ScenarioReport = { file, name: file, ok: false, failures: [] };
  const fail = (message: string): ScenarioReport => {
    report.failures.push({ step: null, message });
    return report;
  };
  let text: string;
  try {
    text = readText(file);
  } catch (e) {
    return fail((e as Error).message);
  }
  let scenario: Record<string, unknown>;
  let parsedScenario: ParsedDefinition;
  try {
    parsedScenario = parseDefinition(text, formatOf(file));
    scenario = parsedScenario.value as Record<string, unknown>;
  } catch (e) {
    if (e instanceof DefinitionError) return fail(formatIssue(file, e.errors[0]!));
    throw e;
  }
  if (typeof scenario.name === 'string' && scenario.name !== '') report.name = scenario.name;
  // where a pointer into the scenario is in its text (JSON is located as the YAML it also is)
  let locator: ParsedDefinition['locate'] | undefined; // parsed again only when a JSON scenario fails
  const locate: ParsedDefinition['locate'] = (pointer, column) =>
    (locator ??= parsedScenario.format === 'yaml' ? parsedScenario.locate : stepLocator(text, formatOf(file)))(pointer, column);
  const game = scenario.game;
  let gameParsed: ParsedDefinition;
  let gameFile: string;
  if (typeof game === 'string') {
    const scenarioDir = path.dirname(path.resolve(file));
    gameFile = path.resolve(scenarioDir, game);
    const shown = shownPath(gameFile);
    const allowed = root === undefined ? scenarioDir : path.resolve(root);
    if (exists(gameFile) && !inside(allowed, gameFile)) {
      const dirShown = path.relative(process.cwd(), allowed) === '' ? '.' : shownPath(allowed);
      return fail(
        root === undefined
          ? `game: ${shown} is outside the scenario's folder ${dirShown} (a scenario's game must be in its folder or ` +
              `below it; --root DIR allows the games under DIR)`
          : `game: ${shown} is outside --root ${dirShown}`,
      );
    }
    let gameText: string;
    try {
      gameText = readText(gameFile, shown);
    } catch (e) {
      return fail(`game: ${(e as Error).message}`);
    }
    gameFile = shown;
    try {
      gameParsed = parseDefinition(gameText, formatOf(gameFile));
    } catch (e) {
      if (e instanceof DefinitionError) return fail(`game: ${formatIssue(gameFile, e.errors[0]!)}`);
      throw e;
    }
  } else if (typeof game === 'object' && game !== null && !Array.isArray(game)) {
    gameFile = file;
    // an inline game's errors are located in the scenario's own text, under /game
    gameParsed = { ...parseDefinition(game), locate: (pointer, column) => locate(`/game${pointer}`, column) };
  } else {
    return fail('"game" must be a path or an inline definition');
  }
  const issues = gameIssues(rs, gameParsed);
  if (issues.length > 0) {
    for (const x of issues) report.failures.push({ step: null, message: `game: ${formatIssue(gameFile, x)}` });
    return report;
  }
  const r = rs.runScenario({ ...scenario, game: gameParsed.value });
  if (r.ok === true) {
    report.ok = true;
    return report;
  }
  const failures = Array.isArray(r.failures) ? r.failures : [];
  if (failures.length === 0) return fail('failed');
  for (const f of failures) {
    // the engine counts steps from 0, and -1 is the scenario as a whole
    if (typeof f.step !== 'number' || f.step < 0) {
      report.failures.push({ step: null, message: String(f.message) });
      continue;
    }
    const at = locate(`/steps/${f.step}`);
    report.failures.push({ step: f.step + 1, ...(at ? { line: at.line } : {}), message: String(f.message) });
  }
  return report;
}

/** `FAIL name: step 2 (file.yaml:9): message (+1 more)`. */
function scenarioLine(r: ScenarioReport): string {
  if (r.ok) return `PASS ${r.name}`;
  const f = r.failures[0]!;
  const where = f.step === null ? '' : `step ${f.step}${f.line !== undefined ? ` (${r.file}:${f.line})` : ''}: `;
  const more = r.failures.length > 1 ? ` (+${r.failures.length - 1} more)` : '';
  return `FAIL ${r.name}: ${where}${f.message}${more}`;
}

/** Whether a file found in a directory is a scenario: it has top-level `steps` or `game` (the
 * games beside the scenarios have neither; a file that cannot be read is taken, so that its
 * run reports why). */
function isScenarioFile(p: string): boolean {
  let value: unknown;
  try {
    value = parseDefinition(readText(p), formatOf(p)).value; // (as a scenario file is read)
  } catch (e) {
    // not a mapping at all (a list, a number, only comments): no scenario, as natively
    const notMapping = e instanceof DefinitionError && e.errors.length === 1 && e.errors[0]!.message === 'the definition must be an object (a mapping)';
    return !notMapping;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) && ('steps' in value || 'game' in value);
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A directory stands for every scenario under it (sorted): .json/.yaml/.yml files with
 * top-level `steps` (game files beside scenarios are skipped). */
function expandScenarioArgs(args: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(json|ya?ml)$/i.test(e.name) && isScenarioFile(p)) files.push(p);
    }
  };
  for (const a of args) {
    let isDir = false;
    try {
      isDir = statSync(a).isDirectory();
    } catch {
      // not there: reported as a failing scenario
    }
    if (isDir) walk(a);
    else files.push(a);
  }
  return files;
}

async function cmdTest(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, root: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError('missing SCENARIO');
  const json = values.json === true;
  const root = values.root;
  if (root !== undefined && !isFolder(root))
    throw new UsageError(`--root ${root}: ${existsSync(root) ? 'not a folder' : 'no such folder'}`);
  const files = expandScenarioArgs(positionals);
  if (files.length === 0) {
    const why = `no scenario in ${positionals.join(', ')} (a scenario is a .json, .yaml or .yml file with steps or game)`;
    if (json) outJson({ ok: false, passed: 0, failed: 0, scenarios: [], error: why });
    else err(`test: ${why}`);
    return EXIT_FAILED;
  }
  const rs = await loadEngine();
  const reports: ScenarioReport[] = [];
  for (const file of files) {
    const r = runOneScenario(rs, file, root);
    reports.push(r);
    if (!json) out(scenarioLine(r));
  }
  const failed = reports.filter((r) => !r.ok).length;
  if (json) outJson({ ok: failed === 0, passed: reports.length - failed, failed, scenarios: reports });
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

// ------------------------------------------------------------------ main

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  validate: cmdValidate,
  moves: cmdMoves,
  play: cmdPlay,
  simulate: cmdSimulate,
  test: cmdTest,
};

const NUMERIC_OPTIONS = new Set(['--seed', '--games', '--iterations', '--max-moves', '--batch', '--workers']);

/** `--seed -1` → `--seed=-1`, so that a negative number gets the range message, not "ambiguous". */
function joinNegativeNumbers(args: string[]): string[] {
  const outArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (NUMERIC_OPTIONS.has(a) && next !== undefined && /^-[0-9.]/.test(next)) {
      outArgs.push(`${a}=${next}`);
      i++;
    } else outArgs.push(a);
  }
  return outArgs;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    await loadYaml(); // the command line reads YAML files
    if (cmd === undefined) throw new UsageError('missing command');
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
      out(USAGE);
      return EXIT_OK;
    }
    if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
      const rs = await loadEngine();
      if (rest.includes('--json')) outJson({ version: rs.version() });
      else out(rs.version());
      return EXIT_OK;
    }
    const run = COMMANDS[cmd];
    if (!run) throw new UsageError(`unknown command: ${cmd}`);
    if (rest.includes('--help') || rest.includes('-h')) {
      out(USAGE);
      return EXIT_OK;
    }
    return await run(joinNegativeNumbers(rest));
  } catch (e) {
    if (e instanceof Exit) return e.code;
    if (e instanceof UsageError || (e as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      err(`rulestack: ${(e as Error).message}`);
      err(USAGE);
      return EXIT_USAGE;
    }
    if (e instanceof ReadError) {
      err(`rulestack: ${e.message}`);
      return EXIT_USAGE;
    }
    err(`rulestack: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT_INTERNAL;
  }
}

process.exitCode = await main(process.argv.slice(2));
