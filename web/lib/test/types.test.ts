// The package's types as a consumer meets them: typical code (narrowing moves, reading
// events by type) compiles under `tsc --strict` against the built .d.ts and runs; code that
// breaks the types' rules does not compile (@ts-expect-error). And the events the engine
// really logs have the fields their types promise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadEngine, type GameEvent } from '../index.js';
import { consumerApp, ROOT, TSC } from './consumer-app.js';

let app: string;
let removeApp = () => {};

before(() => {
  // the package as installed: node_modules/rulestack is this repository (package.json exports)
  ({ dir: app, remove: removeApp } = consumerApp('rulestack-types-'));
});
after(() => removeApp());

const CONSUMER = `import { loadEngine, IllegalMoveError, type Move, type GameEvent, type EventOf, type GameEventType } from 'rulestack';
import { readFileSync } from 'node:fs';

/** Narrowing a move: an answer, a pass, an action. */
export function describe(m: Move): string {
  if (m.decision !== undefined) {
    const id: string = m.decision;
    const accept: boolean = m.accept !== false;
    return (accept ? 'accept ' : 'decline ') + id + (m.targets ? ' ' + m.targets.join(',') : '');
  }
  if (m.action === 'pass') return 'pass';
  const name: string = m.action;
  const source: string | undefined = m.source;
  const targets: string[] | undefined = m.targets;
  const x: number | undefined = m.x;
  const mode: number | undefined = m.mode;
  return [name, source, targets?.join(','), x, mode].filter((p) => p !== undefined).join(' ');
}

/** Reading events: each type has its own fields. */
export function summarize(ev: GameEvent): string {
  switch (ev.type) {
    case 'TurnStart': {
      const turn: number = ev.turn;
      return 'turn ' + turn + ' of ' + ev.player;
    }
    case 'OnZoneEnter': {
      const entity: string = ev.entity;
      const zone: string = ev.zone;
      const shown: string | undefined = ev.revealed;
      return (entity.startsWith('?') ? 'a hidden card' : entity) + ' -> ' + zone + (ev.from ? ' from ' + ev.from : '') + (shown ? ' (was ' + shown + ')' : '');
    }
    case 'DamageTaken': {
      const amount: number = ev.damage_value;
      return ev.entity + ' takes ' + amount;
    }
    case 'PhaseExecute':
      return 'phase ' + ev.phase;
    case 'GameOver':
      return ev.draw ? 'draw' : 'winner ' + ev.winner;
    case 'ActionPlayed': {
      const from: string | undefined = ev.from;
      const shown: string | undefined = ev.revealed;
      return 'played ' + ev.action + (from ? ' from ' + from : '') + (shown ? ' (was ' + shown + ')' : '');
    }
    case 'ActionExecuted':
    case 'BeforeAction':
    case 'AfterAction': {
      const item: string = ev.item;
      return ev.type + ' ' + ev.action + ' ' + item;
    }
    case 'ActionCancelled':
      return 'cancelled ' + ev.item;
    case 'Pass':
    case 'DrawFailed':
      return ev.type + ' ' + ev.player;
    case 'GameError': {
      const reason: 'runtime_error' | 'loop_limit' = ev.reason;
      return reason + ': ' + ev.message + (ev.item ? ' (' + ev.item + ' cancelled)' : '');
    }
    default: {
      const never: never = ev; // every event type is handled
      return never;
    }
  }
}

const turnStarts: Array<EventOf<'TurnStart'>> = [];
const seen = new Set<GameEventType>();
const rs = await loadEngine();
const game = rs.createGame(readFileSync(process.argv[2]!, 'utf8'), { seed: 3 });
game.on('event', (ev) => {
  seen.add(ev.type);
  if (ev.type === 'TurnStart') turnStarts.push(ev);
});
const bot = rs.bot(game, { seed: 3 });
const described: string[] = [];
for (let n = 0; n < 200 && game.view().result === null; n++) {
  const player = game.view().toAct[0];
  if (player === undefined) break;
  for (const m of game.legalMoves(player)) described.push(describe(m));
  game.apply(player, bot.choose(player)!);
}
try {
  game.apply('0', { action: 'NoSuchAction' });
} catch (e) {
  if (e instanceof IllegalMoveError) described.push('illegal ' + e.reason);
}
// null where api.md says it counts as left out; a simulation's counts are all there
const drawn = rs.createGame(readFileSync(process.argv[2]!, 'utf8'), { seed: null });
drawn.dispose();
const sim = rs.simulate(readFileSync(process.argv[2]!, 'utf8'), { games: 2, seed: null });
const unfinished: number = sim.unfinished;
await rs.simulateParallel(readFileSync(process.argv[2]!, 'utf8'), { games: 2, workers: 1, onProgress: null });
const lines = game.log().map(summarize);
console.log(JSON.stringify({ unfinished, described: described.slice(0, 3), kinds: [...new Set(described.map((d) => d.split(' ')[0]))], lines: lines.length, turns: turnStarts.length, seen: [...seen].sort() }));
game.dispose();

// ---- what the types forbid
// @ts-expect-error a move has no other fields (no index signature)
export const extra: Move = { action: 'Bolt', power: 3 };
// an answer that leaves accept out accepts (language.md)
export const noAccept: Move = { decision: 'd1' };
// @ts-expect-error accept is a boolean
export const acceptText: Move = { decision: 'd1', accept: 'yes' };
// @ts-expect-error an answer is not an action
export const both: Move = { decision: 'd1', accept: true, action: 'Bolt' };
// @ts-expect-error targets are ids
export const numbers: Move = { action: 'Bolt', targets: [1] };
export function wrongField(ev: GameEvent): number {
  // @ts-expect-error only TurnStart has a turn
  return ev.turn;
}
export function wrongNarrow(ev: GameEvent): string | null {
  if (ev.type === 'PhaseExecute') {
    // @ts-expect-error a PhaseExecute event has no entity
    return ev.entity;
  }
  return null;
}
`;

test('tsc --strict: consumer code narrowing moves and events compiles against the package types, and runs', (t) => {
  if (!existsSync(TSC)) {
    t.skip('typescript is not installed');
    return;
  }
  writeFileSync(path.join(app, 'consumer.ts'), CONSUMER);
  const r = spawnSync(
    TSC,
    ['--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node',
      '--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--skipLibCheck', 'false', '--outDir', 'out', 'consumer.ts'],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.status, 0, `tsc: ${r.stdout}${r.stderr}`);
  const run = spawnSync(process.execPath, ['out/consumer.js', path.join(ROOT, 'examples', 'duel.yaml')], { cwd: app, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.ok(out.lines > 50, run.stdout);
  assert.ok(out.turns >= 2, run.stdout);
  assert.equal(out.unfinished, 0, run.stdout);
  assert.ok(out.kinds.includes('pass') && out.kinds.includes('Bolt') && out.kinds.includes('illegal'), run.stdout);
  for (const type of ['ActionPlayed', 'OnZoneEnter', 'Pass', 'PhaseExecute', 'TurnStart']) assert.ok(out.seen.includes(type), run.stdout);
});

test('tsc --strict: a broken rule is reported (the @ts-expect-error lines are real errors)', (t) => {
  if (!existsSync(TSC)) {
    t.skip('typescript is not installed');
    return;
  }
  // without the directives, each forbidden line is an error
  writeFileSync(path.join(app, 'broken.ts'), CONSUMER.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
  const r = spawnSync(
    TSC,
    ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node',
      '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'broken.ts'],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  assert.notEqual(r.status, 0);
  const errors = (r.stdout.match(/^broken\.ts\(\d+,\d+\): error/gm) ?? []).length;
  assert.equal(errors, 6, r.stdout);
});

// The fields each event type's declaration requires (web/lib/types.ts), checked against what
// the engine logs in random games of every example.
const REQUIRED: Record<GameEvent['type'], Record<string, string>> = {
  ActionPlayed: { action: 'string', player: 'string', item: 'string' },
  ActionExecuted: { action: 'string', player: 'string', item: 'string' },
  BeforeAction: { action: 'string', player: 'string', item: 'string' },
  AfterAction: { action: 'string', player: 'string', item: 'string' },
  ActionCancelled: { player: 'string', item: 'string' },
  OnZoneEnter: { entity: 'string', zone: 'string', player: 'string' },
  DamageTaken: { entity: 'string', damage_value: 'number', player: 'string' },
  PhaseExecute: { phase: 'string', player: 'string' },
  TurnStart: { player: 'string', turn: 'number' },
  DrawFailed: { player: 'string' },
  GameOver: {},
  Pass: { player: 'string' },
  GameError: { reason: 'string', message: 'string' },
};
const OPTIONAL: Record<string, string> = { revealed: 'string', cause: 'string', when: 'string', cancelled: 'boolean', entity: 'string', from: 'string', source: 'string', action: 'string', winner: 'string', draw: 'boolean', item: 'string', player: 'string' };

test('the events the engine logs have the fields their types declare', async () => {
  const rs = await loadEngine();
  const types = new Set<string>();
  const examples = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'));
  for (const f of examples) {
    const text = readFileSync(path.join(ROOT, 'examples', f), 'utf8');
    for (let seed = 0; seed < 4; seed++) {
      const game = rs.createGame(text, { seed });
      try {
        const bot = rs.bot(game, { seed });
        for (let n = 0; n < 300 && game.view().result === null; n++) {
          const p = game.view().toAct[0];
          if (p === undefined) break;
          game.apply(p, bot.choose(p)!);
        }
        for (const log of [game.log(), game.log('0'), game.log(null)]) {
          for (const ev of log) {
            const e = ev as unknown as Record<string, unknown>;
            const required = REQUIRED[ev.type];
            assert.ok(required, `${f}: unknown event type ${String(ev.type)}`);
            types.add(ev.type);
            for (const [k, kind] of Object.entries(required)) {
              const actual = e[k] === null ? 'null' : typeof e[k];
              assert.ok(kind.split('|').includes(actual), `${f}: ${ev.type}.${k} is ${actual}: ${JSON.stringify(ev)}`);
            }
            for (const [k, v] of Object.entries(e)) {
              if (k === 'type' || k in required) continue;
              assert.ok(k in OPTIONAL, `${f}: ${ev.type} has an undeclared field ${k}: ${JSON.stringify(ev)}`);
              assert.equal(typeof v, OPTIONAL[k], `${f}: ${ev.type}.${k}`);
            }
            if (ev.type === 'GameOver') assert.ok(('winner' in ev) !== ('draw' in ev), JSON.stringify(ev));
            if (ev.when !== undefined) assert.equal(ev.when, 'before');
          }
        }
      } finally {
        game.dispose();
      }
    }
  }
  for (const t of ['ActionPlayed', 'ActionExecuted', 'OnZoneEnter', 'PhaseExecute', 'TurnStart', 'GameOver', 'Pass']) assert.ok(types.has(t), [...types].join(','));
});

test('the moves the engine lists are of the declared kinds', async () => {
  const rs = await loadEngine();
  const kinds = new Set<string>();
  for (const f of ['duel.yaml', 'nexus.yaml', 'seed-enpassant.yaml', 'crazy-eights.yaml']) {
    const game = rs.createGame(readFileSync(path.join(ROOT, 'examples', f), 'utf8'), { seed: 1 });
    try {
      const bot = rs.bot(game, { seed: 1 });
      for (let n = 0; n < 300 && game.view().result === null; n++) {
        const p = game.view().toAct[0];
        if (p === undefined) break;
        for (const m of game.legalMoves(p)) {
          const keys = Object.keys(m).sort().join(',');
          if ('decision' in m) {
            assert.ok(keys === 'accept,decision' || keys === 'accept,decision,targets', keys);
            assert.equal(typeof m.accept, 'boolean');
            kinds.add('decision');
          } else if (m.action === 'pass') {
            assert.equal(keys, 'action');
            kinds.add('pass');
          } else {
            assert.ok(keys.split(',').every((k) => ['action', 'source', 'targets', 'mode', 'x'].includes(k)), keys);
            kinds.add('action');
          }
        }
        game.apply(p, bot.choose(p)!);
      }
    } finally {
      game.dispose();
    }
  }
  assert.deepEqual([...kinds].sort(), ['action', 'decision', 'pass']);
});
