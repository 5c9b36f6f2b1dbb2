// The rulestack CLI (dist/cli.js) run as a child process, for each command and error path.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { TIC_TAC_TOE_YAML, BAD_DEFINITION_YAML, SYNTAX_ERROR_YAML, WINNING_MOVES } from './fixtures.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
let dir: string;

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rulestack-cli-'));
  const files: Record<string, string> = {
    'ttt.yaml': TIC_TAC_TOE_YAML,
    'ttt.json': JSON.stringify(parseYaml(TIC_TAC_TOE_YAML), null, 2),
    'bad-def.yaml': BAD_DEFINITION_YAML,
    'bad-def.json': JSON.stringify(parseYaml(BAD_DEFINITION_YAML), null, 2),
    'bad-syntax.yaml': SYNTAX_ERROR_YAML,
    'bad-syntax.json': '{\n  "name": "x",\n  "players": ]\n}\n',
    'win.jsonl': jsonl(WINNING_MOVES),
    'illegal.jsonl': jsonl([WINNING_MOVES[0], WINNING_MOVES[0]]),
    'garbage.jsonl': '{"player":"0","move":{"action":"Place","targets":["c0"]}}\nnot json\n',
    'pass.scenario.yaml': `name: top row wins
game: ttt.yaml
seed: 1
steps:
  - { player: "0", move: { action: Place, targets: [c0] } }
  - { player: "0", move: { action: Place, targets: [c1] }, illegal: not_your_priority }
  - { expect: "$players[0].row0 == 1" }
  - { player: "1", move: { action: Place, targets: [c3] } }
  - { player: "0", move: { action: Place, targets: [c1] } }
  - { player: "1", move: { action: Place, targets: [c4] } }
  - { player: "0", move: { action: Place, targets: [c2] } }
  - { expect: { path: /result/winner, value: "0" } }
`,
    'fail.scenario.json': JSON.stringify({
      name: 'wrong expectation',
      game: parseYaml(TIC_TAC_TOE_YAML),
      seed: 1,
      steps: [
        { player: '0', move: { action: 'Place', targets: ['c0'] } },
        { expect: '$players[0].row0 == 2' },
      ],
    }),
    'badgame.scenario.yaml': 'name: broken game\ngame: bad-def.yaml\nseed: 1\nsteps: []\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  mkdirSync(path.join(dir, 'scen', 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'scen', 'b.yaml'), files['pass.scenario.yaml']!.replace('game: ttt.yaml', 'game: ../ttt.yaml').replace('name: top row wins', 'name: b'));
  writeFileSync(path.join(dir, 'scen', 'sub', 'a.json'), files['fail.scenario.json']!);
  writeFileSync(path.join(dir, 'scen', 'notes.txt'), 'not a scenario');
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('usage', () => {
  test('no command, unknown command, unknown option, missing file argument → exit 2', () => {
    for (const args of [[], ['frobnicate'], ['validate'], ['validate', 'ttt.yaml', '--bogus'], ['test'],
      ['simulate', 'ttt.yaml', '--games', 'many'], ['simulate', 'ttt.yaml', '--bot', 'genius'],
      ['play', 'ttt.yaml', '--seed', '-x'], ['validate', 'a.yaml', 'b.yaml']]) {
      const r = run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^rulestack: /);
      assert.match(r.stderr, /usage:/);
      assert.equal(r.stdout, '');
    }
  });

  test('--help and --version exit 0', () => {
    const h = run('--help');
    assert.equal(h.code, 0);
    assert.match(h.stdout, /rulestack validate GAME/);
    const v = run('--version');
    assert.equal(v.code, 0);
    assert.match(v.stdout, /\d+\.\d+/);
  });
});

describe('validate', () => {
  test('a valid game: "ok", exit 0 (YAML and JSON)', () => {
    for (const f of ['ttt.yaml', 'ttt.json']) {
      const r = run('validate', f);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'ok\n');
    }
  });

  test('a missing file: exit 2', () => {
    const r = run('validate', 'nope.yaml');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read nope\.yaml: no such file/);
  });

  test('YAML syntax error: FILE:LINE:COL, exit 1', () => {
    const r = run('validate', 'bad-syntax.yaml');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^bad-syntax\.yaml:\d+:\d+: YAML syntax error: /m);
  });

  test('JSON syntax error: FILE:LINE:COL, exit 1', () => {
    const r = run('validate', 'bad-syntax.json');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^bad-syntax\.json:3:\d+: JSON syntax error: /m);
  });

  test('invalid definition (YAML): every error with line and column, exit 1', () => {
    const r = run('validate', 'bad-def.yaml');
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.ok(lines.length >= 2, r.stderr);
    for (const l of lines) assert.match(l, /^bad-def\.yaml:\d+:\d+: \/\S* ?.*: .+/);
    assert.ok(lines.some((l) => l.startsWith('bad-def.yaml:7:1: /flwo: ')), r.stderr);
    assert.ok(lines.some((l) => /^bad-def\.yaml:5:\d+: \/actions\/0\/mutations\/0/.test(l)), r.stderr);
  });

  test('invalid definition (JSON): FILE: PATH: MESSAGE, exit 1', () => {
    const r = run('validate', 'bad-def.json');
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.split('\n').some((l) => l.startsWith('bad-def.json: /flwo: ')), r.stderr);
  });
});

describe('play', () => {
  test('applies the moves and prints the final spectator view', () => {
    const r = run('play', 'ttt.yaml', '--seed', '3', '--moves', 'win.jsonl');
    assert.equal(r.code, 0, r.stderr);
    const view = JSON.parse(r.stdout);
    assert.deepEqual(view.result, { winner: '0' });
    assert.ok(Array.isArray(view.players));
  });

  test('without moves: the initial view', () => {
    const r = run('play', 'ttt.json');
    assert.equal(r.code, 0, r.stderr);
    const view = JSON.parse(r.stdout);
    assert.equal(view.result, null);
    assert.deepEqual(view.toAct, ['0']);
  });

  test('an illegal move: "line N: reason: message" on stderr, exit 1', () => {
    const r = run('play', 'ttt.yaml', '--moves', 'illegal.jsonl');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^line 2: not_your_priority: .+/);
  });

  test('a line that is not JSON: exit 1', () => {
    const r = run('play', 'ttt.yaml', '--moves', 'garbage.jsonl');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^line 2: malformed_move: /);
  });

  test('a missing moves file: exit 2; an invalid game: exit 1', () => {
    assert.equal(run('play', 'ttt.yaml', '--moves', 'none.jsonl').code, 2);
    const r = run('play', 'bad-def.yaml');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^bad-def\.yaml:7:1: \/flwo: /m);
  });
});

describe('simulate', () => {
  test('--json prints one JSON object', () => {
    const r = run('simulate', 'ttt.yaml', '--games', '50', '--bot', 'random', '--seed', '4', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const s = JSON.parse(lines[0]!);
    assert.equal(s.games, 50);
    assert.ok(s.moves >= 50 * 5 && s.moves <= 50 * 9, `moves ${s.moves}`);
    assert.ok(s.meanLength >= 5 && s.meanLength <= 9);
    const wins = Object.values(s.wins as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(wins + s.draws, 50);
    assert.ok(s.gamesPerSecond > 0 && s.movesPerSecond > 0);
    assert.equal(s.errors, 0);
  });

  test('the same seed gives the same games', () => {
    const a = JSON.parse(run('simulate', 'ttt.yaml', '--games', '30', '--seed', '9', '--json').stdout);
    const b = JSON.parse(run('simulate', 'ttt.json', '--games', '30', '--seed', '9', '--json').stdout);
    assert.equal(a.moves, b.moves);
    assert.deepEqual(a.wins, b.wins);
  });

  test('human output: games/s, moves/s, win rates, mean length; progress lines off a TTY', () => {
    const r = run('simulate', 'ttt.yaml', '--games', '45', '--bot', 'mcts', '--iterations', '20');
    assert.equal(r.code, 0, r.stderr);
    for (const word of ['games/s', 'moves/s', 'win rates', 'mean length', 'draws']) {
      assert.match(r.stdout, new RegExp(word));
    }
    assert.match(r.stderr, /simulate: 45\/45 games/);
  });

  test('an invalid game: exit 1', () => {
    const r = run('simulate', 'bad-def.yaml', '--games', '5');
    assert.equal(r.code, 1);
  });
});

describe('test', () => {
  test('a passing scenario (game by path)', () => {
    const r = run('test', 'pass.scenario.yaml');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, 'PASS top row wins\n');
  });

  test('a failing scenario (inline game): FAIL name: step i: message, exit 1', () => {
    const r = run('test', 'pass.scenario.yaml', 'fail.scenario.json');
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.equal(lines[0], 'PASS top row wins');
    assert.match(lines[1]!, /^FAIL wrong expectation: step 1: .+/);
  });

  test('a directory: every .json/.yaml/.yml file under it, in name order', () => {
    const r = run('test', 'scen');
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2, r.stdout);
    assert.equal(lines[0], 'PASS b');
    assert.match(lines[1]!, /^FAIL wrong expectation: step 1: /);
  });

  test('a missing scenario file and a scenario with an invalid game fail, exit 1', () => {
    const r = run('test', 'missing.yaml', 'badgame.scenario.yaml');
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^FAIL missing\.yaml: cannot read/);
    assert.match(lines[1]!, /^FAIL broken game: game: bad-def\.yaml:\d+:\d+: /);
  });
});
