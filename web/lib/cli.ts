#!/usr/bin/env node
// The `rulestack` command: validate / play / simulate / test, on the wasm engine in node.
// Exit codes: 0 ok, 1 the check failed (invalid definition, illegal move, failing scenario,
// games that errored), 2 usage error or unreadable file, 3 internal error.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEngine, type Rulestack } from './engine.js';
import { DefinitionError, IllegalMoveError, type DefinitionIssue } from './errors.js';
import { parseDefinition, type DefinitionFormat, type ParsedDefinition } from './definition.js';
import type { Move, SimulateResult } from './types.js';

const USAGE = `usage:
  rulestack validate GAME
  rulestack play GAME [--seed N] [--moves FILE] [--view PLAYER]
  rulestack simulate GAME [--games N] [--bot random|mcts] [--seed N] [--iterations N] [--json]
  rulestack test SCENARIO|DIR...
  rulestack --version | --help

GAME is a .json, .yaml or .yml file. Exit codes: 0 ok, 1 failed (invalid game, illegal move,
failing scenario), 2 usage error or unreadable file, 3 internal error.`;

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

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

function formatOf(file: string): DefinitionFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return 'auto';
}

function readText(file: string): string {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new ReadError(`cannot read ${file}: ${why}`);
  }
}
class ReadError extends Error {}

/** `FILE:LINE:COL: PATH: MESSAGE` (no LINE:COL without a position, no PATH at the root). */
export function formatIssue(file: string, e: DefinitionIssue): string {
  const where = e.line !== undefined ? `${file}:${e.line}:${e.column ?? 1}` : file;
  return e.path ? `${where}: ${e.path}: ${e.message}` : `${where}: ${e.message}`;
}

function integer(name: string, value: string | undefined, dflt: number, min = 0): number {
  if (value === undefined) return dflt;
  if (!/^-?[0-9]+$/.test(value.trim())) throw new UsageError(`--${name} must be an integer, not "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return n;
}

function oneFile(positionals: string[], what: string): string {
  if (positionals.length === 0) throw new UsageError(`missing ${what}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
  return positionals[0]!;
}

/** Reads and parses a game file; prints its errors and exits 1 when it does not parse. */
function readGame(file: string): ParsedDefinition {
  const text = readText(file);
  try {
    return parseDefinition(text, formatOf(file));
  } catch (e) {
    if (e instanceof DefinitionError) {
      for (const x of e.errors) err(formatIssue(file, x));
      throw new Exit(EXIT_FAILED);
    }
    throw e;
  }
}

/** Validates; prints every error and exits 1 when there is any. */
function checkGame(rs: Rulestack, file: string, parsed: ParsedDefinition): void {
  const issues = rs.validate(parsed.value as Record<string, unknown>);
  if (issues.length === 0) return;
  for (const x of issues) {
    const p = parsed.locate(x.path);
    err(formatIssue(file, p ? { ...x, line: p.line, column: p.column } : x));
  }
  throw new Exit(EXIT_FAILED);
}

// ------------------------------------------------------------------ validate

async function cmdValidate(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  const file = oneFile(positionals, 'GAME');
  const parsed = readGame(file);
  const rs = await loadEngine();
  checkGame(rs, file, parsed);
  out('ok');
  return EXIT_OK;
}

// ------------------------------------------------------------------ play

async function cmdPlay(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: { seed: { type: 'string' }, moves: { type: 'string' }, view: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const file = oneFile(positionals, 'GAME');
  const seed = integer('seed', values.seed, 0);
  const movesText = values.moves !== undefined ? readText(values.moves) : '';
  const parsed = readGame(file);
  const rs = await loadEngine();
  checkGame(rs, file, parsed);
  const game = rs.createGame(parsed.value as Record<string, unknown>, { seed });
  try {
    const lines = movesText.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === '' || line.startsWith('#') || line.startsWith('//')) continue;
      const n = i + 1;
      let entry: { player?: unknown; move?: unknown };
      try {
        entry = JSON.parse(line);
      } catch {
        err(`line ${n}: malformed_move: not a JSON object: ${line.slice(0, 80)}`);
        return EXIT_FAILED;
      }
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        err(`line ${n}: malformed_move: expected {"player": ..., "move": {...}}`);
        return EXIT_FAILED;
      }
      const { player, move } = entry;
      if (typeof player !== 'string' && typeof player !== 'number') {
        err(`line ${n}: malformed_move: "player" must be a player id`);
        return EXIT_FAILED;
      }
      if (typeof move !== 'object' || move === null || Array.isArray(move)) {
        err(`line ${n}: malformed_move: "move" must be an object`);
        return EXIT_FAILED;
      }
      try {
        game.apply(player, move as Move);
      } catch (e) {
        if (e instanceof IllegalMoveError) {
          err(`line ${n}: ${e.reason}: ${e.message}`);
          return EXIT_FAILED;
        }
        throw e;
      }
    }
    out(JSON.stringify(game.view(values.view), null, 2));
    return EXIT_OK;
  } finally {
    game.dispose();
  }
}

// ------------------------------------------------------------------ simulate

interface Totals {
  games: number;
  moves: number;
  draws: number;
  unfinished: number;
  errors: number;
  wins: Record<string, number>;
  lengthSum: number;
}

function progressBar(done: number, total: number, elapsed: number): string {
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  const rate = elapsed > 0 ? done / elapsed : 0;
  const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done}/${total} games  ${rate.toFixed(1)} games/s`;
}

async function cmdSimulate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: {
      games: { type: 'string' },
      bot: { type: 'string' },
      seed: { type: 'string' },
      iterations: { type: 'string' },
      batch: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const file = oneFile(positionals, 'GAME');
  const total = integer('games', values.games, 100, 1);
  const seed = integer('seed', values.seed, 0);
  const bot = values.bot ?? 'random';
  if (bot !== 'random' && bot !== 'mcts') throw new UsageError(`--bot must be random or mcts, not "${bot}"`);
  const iterations = values.iterations !== undefined ? integer('iterations', values.iterations, 0, 1) : undefined;
  // MCTS games are slow: one per engine call, so the progress moves.
  const batch = integer('batch', values.batch, bot === 'mcts' ? 1 : 20, 1);
  const json = values.json === true;

  const parsed = readGame(file);
  const rs = await loadEngine();
  checkGame(rs, file, parsed);

  const tty = !json && process.stderr.isTTY === true;
  const t: Totals = { games: 0, moves: 0, draws: 0, unfinished: 0, errors: 0, wins: {}, lengthSum: 0 };
  const started = performance.now();
  let reportedTenths = 0;
  let lastDraw = -1;
  while (t.games < total) {
    const n = Math.min(batch, total - t.games);
    const opts: Record<string, unknown> = { games: n, bot, seed: seed + t.games };
    if (iterations !== undefined) opts.iterations = iterations;
    const text = rs.module.simulate(parsed.json, JSON.stringify(opts));
    let r: SimulateResult;
    try {
      r = JSON.parse(text) as SimulateResult;
    } catch {
      throw new Error(`engine simulate returned invalid JSON: ${text.slice(0, 200)}`);
    }
    if (Array.isArray((r as { errors?: unknown }).errors)) {
      const issues = (r as unknown as { errors: DefinitionIssue[] }).errors;
      for (const x of issues) err(formatIssue(file, x));
      return EXIT_FAILED;
    }
    if (typeof r.games !== 'number' || typeof r.moves !== 'number') {
      throw new Error(`engine simulate returned an unexpected answer: ${text.slice(0, 200)}`);
    }
    const played = r.games > 0 ? r.games : n;
    t.games += played;
    t.moves += r.moves;
    t.draws += r.draws ?? 0;
    t.unfinished += r.unfinished ?? 0;
    t.errors += r.errors ?? 0;
    t.lengthSum += (typeof r.meanLength === 'number' ? r.meanLength : r.moves / Math.max(1, played)) * played;
    for (const [p, w] of Object.entries(r.wins ?? {})) t.wins[p] = (t.wins[p] ?? 0) + w;
    const elapsed = (performance.now() - started) / 1000;
    if (tty) {
      // redraw at most every 50 ms (and at the end)
      if (elapsed - lastDraw >= 0.05 || t.games >= total) {
        lastDraw = elapsed;
        process.stderr.write(`\r${progressBar(t.games, total, elapsed)}`);
      }
    } else if (!json && Math.floor((t.games * 10) / total) > reportedTenths) {
      err(`simulate: ${t.games}/${total} games`);
      reportedTenths = Math.floor((t.games * 10) / total);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  if (tty) process.stderr.write('\r\x1b[2K');

  const gamesPerSecond = seconds > 0 ? t.games / seconds : 0;
  const movesPerSecond = seconds > 0 ? t.moves / seconds : 0;
  const meanLength = t.games > 0 ? t.lengthSum / t.games : 0;
  const players = Object.keys(t.wins).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const winRates: Record<string, number> = {};
  for (const p of players) winRates[p] = t.games > 0 ? t.wins[p]! / t.games : 0;
  const drawRate = t.games > 0 ? t.draws / t.games : 0;

  if (json) {
    const result: Record<string, unknown> = {
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
      unfinished: t.unfinished,
      errors: t.errors,
    };
    if (iterations !== undefined) result.iterations = iterations;
    out(JSON.stringify(result));
  } else {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    out(`games        ${t.games} (${bot} bots, seed ${seed})`);
    out(`moves        ${t.moves}`);
    out(`mean length  ${meanLength.toFixed(2)} moves`);
    out(`time         ${seconds.toFixed(3)} s`);
    out(`games/s      ${gamesPerSecond.toFixed(1)}`);
    out(`moves/s      ${Math.round(movesPerSecond)}`);
    out(`win rates    ${players.map((p) => `${p}: ${pct(winRates[p]!)} (${t.wins[p]})`).join('  ') || '-'}`);
    out(`draws        ${pct(drawRate)} (${t.draws})`);
    if (t.unfinished > 0) out(`unfinished   ${pct(t.unfinished / t.games)} (${t.unfinished})`);
    if (t.errors > 0) out(`errors       ${t.errors}`);
  }
  if (t.errors > 0) {
    err(`simulate: ${t.errors} game(s) ended in an engine error`);
    return EXIT_FAILED;
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ test

async function runOneScenario(rs: Rulestack, file: string): Promise<{ ok: boolean; line: string }> {
  let name = file;
  const fail = (msg: string) => ({ ok: false, line: `FAIL ${name}: ${msg}` });
  let text: string;
  try {
    text = readText(file);
  } catch (e) {
    return fail((e as Error).message);
  }
  let scenario: Record<string, unknown>;
  try {
    scenario = parseDefinition(text, formatOf(file)).value as Record<string, unknown>;
  } catch (e) {
    if (e instanceof DefinitionError) return fail(formatIssue(file, e.errors[0]!));
    throw e;
  }
  if (typeof scenario.name === 'string' && scenario.name !== '') name = scenario.name;
  const game = scenario.game;
  let gameParsed: ParsedDefinition;
  let gameFile: string;
  if (typeof game === 'string') {
    gameFile = path.resolve(path.dirname(path.resolve(file)), game);
    let gameText: string;
    try {
      gameText = readText(gameFile);
    } catch (e) {
      return fail(`game: ${(e as Error).message}`);
    }
    gameFile = path.relative(process.cwd(), gameFile) || gameFile;
    try {
      gameParsed = parseDefinition(gameText, formatOf(gameFile));
    } catch (e) {
      if (e instanceof DefinitionError) return fail(`game: ${formatIssue(gameFile, e.errors[0]!)}`);
      throw e;
    }
  } else if (typeof game === 'object' && game !== null && !Array.isArray(game)) {
    gameFile = file;
    gameParsed = parseDefinition(game);
  } else {
    return fail('"game" must be a path or an inline definition');
  }
  const issues = rs.validate(gameParsed.value as Record<string, unknown>);
  if (issues.length > 0) {
    const x = issues[0]!;
    const p = gameParsed.locate(x.path);
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    return fail(`game: ${formatIssue(gameFile, p ? { ...x, ...p } : x)}${more}`);
  }
  const r = rs.runScenario({ ...scenario, game: gameParsed.value });
  if (r.ok === true) return { ok: true, line: `PASS ${name}` };
  const f = Array.isArray(r.failures) ? r.failures[0] : undefined;
  if (!f) return fail('failed');
  const more = r.failures.length > 1 ? ` (+${r.failures.length - 1} more)` : '';
  return fail(`step ${f.step}: ${f.message}${more}`);
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
      else if (/\.(json|ya?ml)$/i.test(e.name) && /^steps\s*:|"steps"\s*:/m.test(readFileSync(p, 'utf8'))) files.push(p);
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
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length === 0) throw new UsageError('missing SCENARIO');
  const rs = await loadEngine();
  let failed = 0;
  for (const file of expandScenarioArgs(positionals)) {
    const r = await runOneScenario(rs, file);
    out(r.line);
    if (!r.ok) failed++;
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

// ------------------------------------------------------------------ main

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  validate: cmdValidate,
  play: cmdPlay,
  simulate: cmdSimulate,
  test: cmdTest,
};

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (cmd === undefined) throw new UsageError('missing command');
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
      out(USAGE);
      return EXIT_OK;
    }
    if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
      const rs = await loadEngine();
      out(rs.version());
      return EXIT_OK;
    }
    const run = COMMANDS[cmd];
    if (!run) throw new UsageError(`unknown command: ${cmd}`);
    if (rest.includes('--help') || rest.includes('-h')) {
      out(USAGE);
      return EXIT_OK;
    }
    return await run(rest);
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
