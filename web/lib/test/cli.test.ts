// The rulestack CLI (dist/cli.js) run as a child process, for each command and error path.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { TIC_TAC_TOE_YAML, BAD_DEFINITION_YAML, SYNTAX_ERROR_YAML, WINNING_MOVES, RUNTIME_ERROR_YAML } from './fixtures.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
let dir: string;

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return runWith('', ...args);
}

/** Runs the CLI with `input` as its stdin (a pipe, not a terminal). */
function runWith(input: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ENPASSANT = fileURLToPath(new URL('../../examples/seed-enpassant.yaml', import.meta.url));

/** Duel-lite (README.md) with fewer cards: a Bolt goes on the queue and may be answered. */
const QUEUE_GAME_YAML = `name: Duel-lite
players: { count: 2, properties: { life: 6 } }
settings: { cancel_zone: Discard }
zones:
  - { name: Hand, per_player: true, visibility: owner }
  - { name: Discard, per_player: true, actions: false }
entities:
  - id: Bolt
    type: card
    actions:
      - name: Bolt
        condition: $entity.self.zone == $zone.@Hand and $queue.size == 0 and $player.current == $player.active
        play: true
        mutations:
          - { target: $player.opponent, property: life, operation: '-', value: 2 }
  - id: Shield
    type: card
    actions:
      - name: Shield
        condition: $entity.self.zone == $zone.@Hand and $queue.size > 0 and $queue.top.name == 'Bolt'
        play: true
        mutations:
          - { target: $queue.top, operation: Cancel }
setup:
  - { operation: Create, template: Bolt, count: 2, destination: $item.zone.@Hand, for_each: $player.all }
  - { operation: Create, template: Shield, count: 1, destination: $item.zone.@Hand, for_each: $player.all }
flow:
  phases: [ { name: Main, valid_actions: [Bolt, Shield] } ]
end_conditions:
  - { when: $player.current.life <= 0, winner: $player.opponent }
`;

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
    'fail.scenario.yaml': `name: two wrong steps
game: ttt.yaml
seed: 1
steps:
  - { player: "0", move: { action: Place, targets: [c0] } }

  # the next step is on line 8
  - { expect: "$players[0].row0 == 2" }
  - { player: "1", move: { action: Place, targets: [c0] } }
`,
    'queue.yaml': QUEUE_GAME_YAML,
    'err.yaml': RUNTIME_ERROR_YAML,
    'enpassant.jsonl': jsonl([{ player: '0', move: { action: 'MovePiece', source: 'WP', targets: ['Square#7'] } }]),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  mkdirSync(path.join(dir, 'scen', 'sub'), { recursive: true });
  // a scenario's game is in its folder or below it (reliability.test.ts: anywhere else is refused)
  writeFileSync(path.join(dir, 'scen', 'ttt.yaml'), TIC_TAC_TOE_YAML);
  writeFileSync(path.join(dir, 'scen', 'b.yaml'), files['pass.scenario.yaml']!.replace('name: top row wins', 'name: b'));
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

  test('numeric options are range-checked with a clear message, exit 2', () => {
    const cases: Array<[string[], RegExp]> = [
      [['simulate', 'ttt.yaml', '--games', '0'], /--games must be an integer from 1 to 1000000, not 0/],
      [['simulate', 'ttt.yaml', '--games', '1000001'], /--games must be an integer from 1 to 1000000, not 1000001/],
      [['simulate', 'ttt.yaml', '--iterations', '0'], /--iterations must be an integer from 1 to 100000/],
      [['simulate', 'ttt.yaml', '--iterations', '100001'], /--iterations must be an integer from 1 to 100000/],
      [['simulate', 'ttt.yaml', '--batch', '0'], /--batch must be an integer from 1 to/],
      [['simulate', 'ttt.yaml', '--workers', '0'], /--workers must be an integer from 1 to 1024, not 0/],
      [['simulate', 'ttt.yaml', '--seed', '1.5'], /--seed must be an integer from 0 to \d+, not "1\.5"/],
      [['play', 'ttt.yaml', '--seed', '-1'], /--seed must be an integer from 0 to 9007199254740991, not -1/],
      [['moves', 'ttt.yaml', '--seed', '9007199254740992'], /--seed must be an integer from 0 to 9007199254740991/],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0]!, message, args.join(' '));
      assert.equal(r.stdout, '');
    }
    // the largest values are accepted
    assert.equal(run('moves', 'ttt.yaml', '--seed', '9007199254740991').code, 0);
  });

  test('--help and --version exit 0', () => {
    const h = run('--help');
    assert.equal(h.code, 0);
    assert.match(h.stdout, /rulestack validate GAME/);
    const v = run('--version');
    assert.equal(v.code, 0);
    assert.match(v.stdout, /\d+\.\d+/);
    const vj = run('--version', '--json');
    assert.equal(vj.code, 0);
    assert.match(JSON.parse(vj.stdout).version, /\d+\.\d+/);
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

  test('a byte-order mark before the JSON or YAML text is skipped, as the native tool does', () => {
    for (const f of ['ttt.yaml', 'ttt.json']) {
      const bom = `bom-${f}`;
      writeFileSync(path.join(dir, bom), '\ufeff' + readFileSync(path.join(dir, f), 'utf8'));
      const r = run('validate', bom);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'ok\n');
      assert.equal(JSON.parse(run('play', bom, '--json').stdout).ok, true);
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

  test('--json: one object on stdout, valid or not', () => {
    const ok = run('validate', 'ttt.yaml', '--json');
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { ok: true, errors: [], warnings: [] });
    const bad = run('validate', 'bad-def.yaml', '--json');
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, '');
    const r = JSON.parse(bad.stdout);
    assert.equal(r.ok, false);
    assert.ok(r.errors.some((e: any) => e.file === 'bad-def.yaml' && e.path === '/flwo' && e.line === 7 && e.column === 1 && /flwo/.test(e.message)), bad.stdout);
    const syntax = JSON.parse(run('validate', 'bad-syntax.json', '--json').stdout);
    assert.equal(syntax.errors[0].line, 3);
    assert.match(syntax.errors[0].message, /^JSON syntax error/);
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

  test('a line with a key besides player and move: line N, exit 1, nothing after it applied', () => {
    writeFileSync(path.join(dir, 'extra.jsonl'), jsonl([WINNING_MOVES[0], { ...WINNING_MOVES[1], extra: 1 }]));
    for (const cmd of ['play', 'moves']) {
      const r = run(cmd, 'ttt.yaml', '--moves', 'extra.jsonl');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `line 2: malformed_move: unknown key 'extra' (a line has "player" and "move", nothing else)\n`);
    }
    const j = run('play', 'ttt.yaml', '--moves', 'extra.jsonl', '--json');
    assert.equal(j.code, 1);
    assert.deepEqual(JSON.parse(j.stdout).error, { line: 2, reason: 'malformed_move', message: `unknown key 'extra' (a line has "player" and "move", nothing else)` });
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


describe('moves', () => {
  test('numbers every move of the player to act; the other is told why they have none', () => {
    const r = run('moves', 'ttt.yaml');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, /^turn 1 · phase Main · active 0 · priority 0 · to act: 0$/);
    assert.equal(lines[1], 'player 0:');
    for (let i = 0; i < 9; i++) {
      assert.equal(lines[2 + i], `  ${String(i + 1).padStart(2)}. Place → c${i}   {"action":"Place","targets":["c${i}"]}`);
    }
    assert.equal(lines[11], 'player 1: no moves — waiting for player 0');
    assert.equal(lines.length, 12);
  });

  test('after --moves, with --seed; a finished game says so', () => {
    const r = run('moves', 'ttt.yaml', '--moves', 'win.jsonl', '--seed', '2');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /game over: player 0 wins/);
    assert.match(r.stdout, /player 0: no moves — the game is over \(player 0 wins\)/);
    assert.match(r.stdout, /player 1: no moves — the game is over/);
  });

  test('a pending decision is named, not shown as an empty list', () => {
    const r = run('moves', ENPASSANT, '--moves', 'enpassant.jsonl');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.includes('decision pending: d1 (EnPassant, trigger, optional) for player 0'), r.stdout);
    // one decision at a time: player 1's offer is asked after d1 is answered
    assert.ok(!lines.some((l) => l.includes('d2')), r.stdout);
    assert.ok(lines.includes('   1. accept d1 → WP   {"accept":true,"decision":"d1","targets":["WP"]}'), r.stdout);
    assert.ok(lines.includes('   2. decline d1   {"accept":false,"decision":"d1"}'), r.stdout);
    assert.ok(lines.includes('player 1: no moves — a decision is pending: d1 (EnPassant, trigger, optional) for player 0'), r.stdout);
  });

  test('--json: the moves of every player, the decisions and why a list is empty', () => {
    const r = run('moves', ENPASSANT, '--moves', 'enpassant.jsonl', '--json');
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.ok, true);
    assert.deepEqual(j.toAct, ['0']);
    assert.deepEqual(j.decisions.map((d: any) => [d.id, d.player, d.name]), [['d1', '0', 'EnPassant']]);
    assert.deepEqual(j.players[0].moves, [{ accept: true, decision: 'd1', targets: ['WP'] }, { accept: false, decision: 'd1' }]);
    assert.deepEqual(j.players[1].moves, []);
    assert.match(j.players[1].reason, /decision is pending/);
  });

  test('an illegal move in --moves: line N, exit 1 (and as JSON with --json)', () => {
    const r = run('moves', 'ttt.yaml', '--moves', 'illegal.jsonl');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^line 2: not_your_priority: /);
    const j = run('moves', 'ttt.yaml', '--moves', 'illegal.jsonl', '--json');
    assert.equal(j.code, 1);
    assert.deepEqual({ ...JSON.parse(j.stdout).error, message: 'm' }, { line: 2, reason: 'not_your_priority', message: 'm' });
  });
});

describe('play --interactive (scripted stdin)', () => {
  test('choose by number, a bad number, undo, save, quit; the saved file replays', () => {
    const r = runWith('1\n1\n99\nundo\n2\nsave saved.jsonl\nfoo\nquit\n', 'play', 'ttt.yaml', '--interactive', '--seed', '5');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rulestack play: TicTacToe, seed 5\./);
    assert.match(r.stdout, /moves for player 0:\n {3}1\. Place → c0 /);
    assert.match(r.stdout, /0> player 0: Place → c0\n/);
    assert.match(r.stdout, /1> player 1: Place → c1\n/);
    assert.match(r.stdout, /no move 99: choose 1 to 7/);
    assert.match(r.stdout, /undone: player 1: Place → c1/);
    assert.match(r.stdout, /1> player 1: Place → c2\n/);
    assert.match(r.stdout, /saved 2 moves to saved\.jsonl/);
    assert.match(r.stdout, /unknown command "foo"/);
    // help says how a saved file replays, as docs/api.md does: with the seed
    const help = runWith('help\nquit\n', 'play', 'ttt.yaml', '--interactive');
    assert.match(help.stdout, /save FILE {5}write the moves so far as moves JSON lines \(rulestack play GAME --seed N --moves FILE replays them\)/);
    assert.match(r.stdout, /player 0 sees:\n {2}players:\n/);
    assert.match(r.stdout, /Board \(9\): c0 \(mark "0", pos 0\), c1 \(pos 1\)/);
    const saved = readFileSync(path.join(dir, 'saved.jsonl'), 'utf8');
    assert.equal(saved, jsonl([
      { player: '0', move: { action: 'Place', targets: ['c0'] } },
      { player: '1', move: { action: 'Place', targets: ['c2'] } },
    ]));
    const replay = JSON.parse(run('play', 'ttt.yaml', '--seed', '5', '--moves', 'saved.jsonl', '--json').stdout);
    assert.equal(replay.moves, 2);
    assert.deepEqual(replay.view.toAct, ['0']);
    const cells = replay.view.zones.Board.entities.map((e: any) => e.properties.mark);
    assert.deepEqual(cells, ['0', null, '1', null, null, null, null, null, null]);
  });

  test('the queue and the view of the player to act (hidden hands stay hidden); end of input ends it', () => {
    const r = runWith('1\nqueue\nview 0\n', 'play', 'queue.yaml', '-i');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /queue \(top first\):\n {2}q1 Bolt by 0 from Bolt#1\n/);
    assert.match(r.stdout, /player 1 sees:[\s\S]*Hand:0 \(2\): hidden\n[\s\S]*Hand:1 \(3\): Bolt#3, Bolt#4, Shield#2\n/);
    assert.match(r.stdout, /moves for player 1:\n {3}1\. Shield from Shield#2 .*\n {3}2\. pass /);
    // `view 0` prints player 0's whole view as JSON
    const json = r.stdout.slice(r.stdout.indexOf('1> {') + 3, r.stdout.lastIndexOf('}') + 1);
    const view = JSON.parse(json);
    assert.deepEqual(view.zones['Hand:0'].entities.map((e: any) => e.id), ['Bolt#2', 'Shield#1']);
    assert.equal(view.zones['Hand:1'].entities, undefined);
  });

  test("a move that ends in an engine error shows the engine's message among its events", () => {
    // queued, the failing Hit resolves once both players pass: the error is an event of that move
    writeFileSync(path.join(dir, 'err-queued.yaml'), RUNTIME_ERROR_YAML.replace('    queue: false\n', ''));
    const r = runWith('1\n2\n2\nquit\n', 'play', 'err-queued.yaml', '-i');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /events: .*GameError Hit 0 \(\/actions\/0\/mutations\/0: destination is not a zone\)/);
  });

  test('stdin gives the game or the moves, not both; --interactive takes the game from a file', () => {
    const ttt = readFileSync(path.join(dir, 'ttt.yaml'), 'utf8');
    for (const args of [['play', '-', '--moves', '-'], ['moves', '-', '--moves', '-'], ['play', '-', '-i']]) {
      const r = runWith(ttt, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /stdin can give the game or the moves, not both|--interactive reads commands from stdin: give the game as a file/);
      assert.equal(r.stdout, '');
    }
    // the game alone from stdin still plays
    const ok = runWith(ttt, 'play', '-', '--json');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).ok, true);
  });

  test('game over: said once, undo still works', () => {
    writeFileSync(path.join(dir, 'four.jsonl'), jsonl(WINNING_MOVES.slice(0, 4)));
    // the winning move c2 is number 1 of player 0's moves then (c0, c1, c3, c4 are taken)
    const r = runWith('1\nundo\nquit\n', 'play', 'ttt.yaml', '--moves', 'four.jsonl', '--interactive');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /4 moves applied/);
    assert.match(r.stdout, /game over: player 0 wins \(undo, save FILE or quit\)/);
    assert.match(r.stdout, /undone: player 0: Place → c2/);
  });

  test('on a terminal (stdin and stdout), play is interactive without --interactive', (t) => {
    if (spawnSync('script', ['--version'], { encoding: 'utf8' }).status !== 0) {
      t.skip('no script(1) to make a terminal');
      return;
    }
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} play ttt.yaml`;
    // script(1) runs the command on a pseudo-terminal and types its own stdin into it
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: 60_000, input: '1\nundo\nquit\n' });
    assert.equal(r.status, 0, r.stdout);
    const text = r.stdout.replace(/\r/g, '');
    assert.match(text, /rulestack play: TicTacToe, seed 0\./);
    assert.match(text, /player 0: Place → c0\n/);
    assert.match(text, /undone: player 0: Place → c0/);
    assert.doesNotMatch(text, /"toAct"/); // not the JSON view of the batch mode
  });

  test('without --interactive and off a terminal, play prints the view as before', () => {
    const r = runWith('1\nquit\n', 'play', 'ttt.yaml');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).toAct, ['0']);
  });

  test('--view names a player of the game', () => {
    const r = run('play', 'ttt.yaml', '--view', '7');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--view: no player "7" \(players: 0, 1\)/);
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

  test('--workers: any number of workers gives the same games, errors listed in game order', () => {
    const strip = (text: string) => {
      const { seconds, gamesPerSecond, movesPerSecond, ...rest } = JSON.parse(text);
      return rest;
    };
    const one = strip(run('simulate', 'ttt.yaml', '--games', '40', '--seed', '3', '--batch', '6', '--workers', '1', '--json').stdout);
    assert.equal(one.games, 40);
    for (const w of ['2', '5']) {
      assert.deepEqual(strip(run('simulate', 'ttt.yaml', '--games', '40', '--seed', '3', '--batch', '6', '--workers', w, '--json').stdout), one);
    }
    const e = JSON.parse(run('simulate', 'err.yaml', '--games', '7', '--batch', '2', '--seed', '5', '--workers', '3', '--json').stdout);
    assert.deepEqual(e.errorDetails.map((d: any) => [d.game, d.seed]), [1, 2, 3, 4, 5, 6, 7].map((g) => [g, g + 4]));
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
    const j = run('simulate', 'bad-def.yaml', '--games', '5', '--json');
    assert.equal(j.code, 1);
    assert.equal(JSON.parse(j.stdout).ok, false);
  });

  test("every game that ends in an engine error is listed with its seed and the engine's message", () => {
    const r = run('simulate', 'err.yaml', '--games', '3', '--seed', '10');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /errors {7}3/);
    for (const [game, seed] of [[1, 10], [2, 11], [3, 12]]) {
      assert.match(r.stderr, new RegExp(`^simulate: game ${game} \\(seed ${seed}\\): /actions/0/mutations/0: destination is not a zone`, 'm'));
    }
    // the engine's own message: no seed is played again through the API to find one
    assert.doesNotMatch(r.stderr, /replay/);
    assert.match(r.stderr, /simulate: 3 game\(s\) ended in an engine error\n/);
    const j = JSON.parse(run('simulate', 'err.yaml', '--games', '2', '--json').stdout);
    assert.equal(j.ok, false);
    assert.equal(j.errors, 2);
    assert.deepEqual(j.errorDetails.map((d: any) => [d.game, d.seed]), [[1, 0], [2, 1]]);
    assert.match(j.errorDetails[0].message, /^\/actions\/0\/mutations\/0: destination is not a zone/);
  });

  test('errored games over several batches are numbered across them; the engine lists 20 a call', () => {
    const j = JSON.parse(run('simulate', 'err.yaml', '--games', '7', '--batch', '3', '--seed', '5', '--json').stdout);
    assert.equal(j.errors, 7);
    assert.deepEqual(j.errorDetails.map((d: any) => [d.game, d.seed]), [1, 2, 3, 4, 5, 6, 7].map((g) => [g, g + 4]));
    const r = run('simulate', 'err.yaml', '--games', '25', '--batch', '25');
    assert.equal(r.code, 1);
    assert.equal(r.stderr.split('\n').filter((l) => /^simulate: game \d+ /.test(l)).length, 20);
    assert.match(r.stderr, /^simulate: game 20 \(seed 19\): /m);
    assert.match(r.stderr, /simulate: 25 game\(s\) ended in an engine error \(5 not listed: the engine lists the first 20 of each call; a smaller --batch lists more\)/);
  });

  test('a progress bar on a terminal only', (t) => {
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (script.status !== 0) {
      t.skip('no script(1) to make a terminal');
      return;
    }
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} simulate ttt.yaml --games 40 --bot mcts --iterations 5`;
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(tty.status, 0, tty.stdout);
    assert.match(tty.stdout, /\r\[#+\.*\] +\d+% \d+\/40 games/);
    assert.match(tty.stdout, /\r\[#{30}\] 100% 40\/40 games/);
    const piped = run('simulate', 'ttt.yaml', '--games', '40', '--bot', 'mcts', '--iterations', '5');
    assert.doesNotMatch(piped.stderr + piped.stdout, /\[#|\r/);
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
    assert.match(lines[1]!, /^FAIL wrong expectation: step 2 \(fail\.scenario\.json:1\): .+/);
  });

  test('a failing step is numbered from 1, with its line in the file, and the other failures counted', () => {
    const r = run('test', 'fail.scenario.yaml');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAIL two wrong steps: step 2 \(fail\.scenario\.yaml:8\): .+ \(\+1 more\)\n$/);
  });

  test('--json: every scenario with every failure (step from 1, line)', () => {
    const r = run('test', 'pass.scenario.yaml', 'fail.scenario.yaml', 'badgame.scenario.yaml', '--json');
    assert.equal(r.code, 1);
    const j = JSON.parse(r.stdout);
    assert.equal(j.ok, false);
    assert.equal(j.passed, 1);
    assert.equal(j.failed, 2);
    assert.deepEqual(j.scenarios[0], { file: 'pass.scenario.yaml', name: 'top row wins', ok: true, failures: [] });
    const f = j.scenarios[1];
    assert.equal(f.name, 'two wrong steps');
    assert.deepEqual(f.failures.map((x: any) => [x.step, x.line]), [[2, 8], [3, 9]]);
    assert.match(f.failures[1].message, /not_your_priority|rejected/);
    assert.equal(j.scenarios[2].failures[0].step, null);
    assert.match(j.scenarios[2].failures[0].message, /^game: bad-def\.yaml:\d+:\d+: /);
  });

  test('--root that is a file, or nothing: exit 2, saying which', () => {
    const file = run('test', 'ttt.yaml', '--root', 'ttt.yaml');
    assert.equal(file.code, 2);
    assert.match(file.stderr, /--root ttt\.yaml: not a folder/);
    const none = run('test', 'ttt.yaml', '--root', 'nowhere');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--root nowhere: no such folder/);
  });

  test('a directory: every .json/.yaml/.yml file under it, in name order', () => {
    const r = run('test', 'scen');
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2, r.stdout);
    assert.equal(lines[0], 'PASS b');
    assert.match(lines[1]!, /^FAIL wrong expectation: step 2 \(scen\/sub\/a\.json:1\): /);
  });

  test("an inline game's errors carry their line and column in the scenario's text (YAML and JSON)", () => {
    const game = {
      name: 'T',
      players: { count: 2 },
      zones: [{ name: 'Hand', per_player: true }],
      flow: { turn_order: ['0', '1'], phases: [{ name: 'Main', valid_actions: ['Nope'] }] },
    };
    const yamlText = [
      'name: inline broken',
      'game:',
      '  name: T',
      '  players: { count: 2 }',
      '  zones:',
      '    - { name: Hand, per_player: true }',
      '  flow:',
      '    turn_order: ["0", "1"]',
      '    phases:',
      '      - name: Main',
      '        valid_actions: [Nope]',
      'steps:',
      '  - { expect: "$turn == 1" }',
      '',
    ].join('\n');
    writeFileSync(path.join(dir, 'inline-bad.scenario.yaml'), yamlText);
    writeFileSync(
      path.join(dir, 'inline-bad.scenario.json'),
      JSON.stringify({ name: 'inline broken json', game, steps: [{ expect: '$turn == 1' }] }, null, 2) + '\n',
    );
    const r = run('test', 'inline-bad.scenario.yaml', 'inline-bad.scenario.json');
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(lines, [
      "FAIL inline broken: game: inline-bad.scenario.yaml:11:25: /flow/phases/0/valid_actions/0: unknown action 'Nope'",
      "FAIL inline broken json: game: inline-bad.scenario.json:23:13: /flow/phases/0/valid_actions/0: unknown action 'Nope'",
    ]);
  });

  test('a key a scenario does not have (stepz) fails it, as runScenario does', () => {
    writeFileSync(path.join(dir, 'stepz.scenario.yaml'), 'name: typo\ngame: ttt.yaml\nseed: 1\nsteps: []\nstepz:\n  - { expect: "$turn == 1" }\n');
    const r = run('test', 'stepz.scenario.yaml');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stdout, "FAIL typo: unknown key 'stepz' in the scenario (keys: name, game, seed, steps)\n");
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
