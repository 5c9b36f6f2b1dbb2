// Reading definitions (no engine needed, only the YAML reader): JSON/YAML/object input,
// syntax errors, and the JSON pointer → YAML line/column map.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition, DefinitionError, loadYaml } from '../index.js';
import { locateIssues, pointerSegments } from '../definition.js';

before(() => loadYaml());

const YAML = `name: T
players:
  count: 2
zones:
  - name: Board
  - name: "Hand"
    per_player: true
actions:
  - name: Noop
    mutations:
      - { operation: Draw }
      -
        operation: Win
        target: $player.current
a/b: 1
"t~x": 2
`;

test('JSON pointer segments are unescaped', () => {
  assert.deepEqual(pointerSegments(''), []);
  assert.deepEqual(pointerSegments('/a/0/b~1c/d~0e'), ['a', '0', 'b/c', 'd~e']);
});

test('YAML text: JSON for the engine and positions of pointers', () => {
  const p = parseDefinition(YAML);
  assert.equal(p.format, 'yaml');
  const v = JSON.parse(p.json);
  assert.equal(v.players.count, 2);
  assert.equal(v.actions[0].mutations[1].operation, 'Win');
  assert.deepEqual(p.locate(''), { line: 1, column: 1 });
  assert.deepEqual(p.locate('/players'), { line: 2, column: 1 });
  assert.deepEqual(p.locate('/players/count'), { line: 3, column: 3 });
  assert.deepEqual(p.locate('/zones/1'), { line: 6, column: 5 });
  assert.deepEqual(p.locate('/zones/1/per_player'), { line: 7, column: 5 });
  assert.deepEqual(p.locate('/actions/0/mutations/0/operation'), { line: 11, column: 11 });
  assert.deepEqual(p.locate('/actions/0/mutations/1'), { line: 13, column: 9 });
  assert.deepEqual(p.locate('/actions/0/mutations/1/target'), { line: 14, column: 9 });
  assert.deepEqual(p.locate('/a~1b'), { line: 15, column: 1 });
  assert.deepEqual(p.locate('/t~0x'), { line: 16, column: 1 });
  // a missing key: its deepest existing ancestor
  assert.deepEqual(p.locate('/zones/1/visibility'), { line: 6, column: 5 });
  assert.deepEqual(p.locate('/zones/7'), { line: 4, column: 1 });
  assert.deepEqual(p.locate('/nope'), { line: 1, column: 1 });
});

test('engine errors are located', () => {
  const p = parseDefinition(YAML);
  const issues = locateIssues(p, [
    { path: '/zones/1/per_player', message: 'bad' },
    { path: '/zzz', message: 'unknown key' },
  ]);
  assert.deepEqual(issues, [
    { path: '/zones/1/per_player', message: 'bad', line: 7, column: 5 },
    { path: '/zzz', message: 'unknown key', line: 1, column: 1 },
  ]);
});

test('aliases are followed', () => {
  const p = parseDefinition('base: &b { x: 1, y: { z: 2 } }\ncopy: *b\n');
  assert.deepEqual(JSON.parse(p.json), { base: { x: 1, y: { z: 2 } }, copy: { x: 1, y: { z: 2 } } });
  assert.deepEqual(p.locate('/copy/y/z'), { line: 1, column: 23 });
});

test('a byte-order mark before JSON text is skipped, whatever the format asked', () => {
  for (const format of ['auto', 'json'] as const) {
    const p = parseDefinition('\ufeff{ "name": "T", "players": { "count": 2 } }', format);
    assert.equal(p.format, 'json');
    assert.equal(p.json, '{"name":"T","players":{"count":2}}');
  }
  // a mark inside the text is not skipped
  assert.throws(() => parseDefinition('{ "name": \ufeff"T" }', 'json'), DefinitionError);
});

test('JSON text and objects have no positions', () => {
  const j = parseDefinition('{ "name": "T", "players": { "count": 2 } }');
  assert.equal(j.format, 'json');
  assert.equal(j.locate('/players'), undefined);
  const o = parseDefinition({ name: 'T' });
  assert.equal(o.format, 'object');
  assert.equal(o.json, '{"name":"T"}');
  assert.deepEqual(locateIssues(o, [{ path: '/x', message: 'm' }]), [{ path: '/x', message: 'm' }]);
});

test('YAML syntax errors carry line and column', () => {
  assert.throws(
    () => parseDefinition('name: T\nzones: [ { name: Board }\nflow: {}\n'),
    (e: unknown) => {
      assert.ok(e instanceof DefinitionError);
      assert.ok(e.errors.length >= 1);
      for (const x of e.errors) {
        assert.equal(x.path, '');
        assert.ok(typeof x.line === 'number' && typeof x.column === 'number');
        assert.match(x.message, /^YAML syntax error: /);
        assert.doesNotMatch(x.message, /\n/);
      }
      return true;
    },
  );
  // duplicate keys are errors too
  assert.throws(() => parseDefinition('name: a\nname: b\n'), DefinitionError);
});

test('JSON syntax errors carry line and column', () => {
  assert.throws(
    () => parseDefinition('{\n  "name": "T",\n  "players": ]\n}', 'json'),
    (e: unknown) => {
      assert.ok(e instanceof DefinitionError);
      const x = e.errors[0]!;
      assert.match(x.message, /^JSON syntax error: /);
      assert.equal(x.line, 3);
      return true;
    },
  );
});

test('a definition must be an object', () => {
  for (const bad of ['- a\n- b\n', '42', '', '[1]', 'just text']) {
    assert.throws(() => parseDefinition(bad), DefinitionError, JSON.stringify(bad));
  }
  assert.throws(() => parseDefinition(null), DefinitionError);
  assert.throws(() => parseDefinition([1, 2]), DefinitionError);
});

test('text over 8 MB is refused before it is read', () => {
  const big = (fill: string, bytes: number) => `name: T # ${fill.repeat(Math.ceil(bytes / Buffer.byteLength(fill)))}\n`;
  const message = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof DefinitionError);
      return e.errors.map((i) => i.message).join('; ');
    }
    return 'not refused';
  };
  const t0 = Date.now();
  assert.equal(message(() => parseDefinition(big('x', 30 << 20))), 'the definition is larger than 8 MB');
  assert.ok(Date.now() - t0 < 1000, 'refused without being read');
  // bytes, not characters: 3 million three-byte characters are 9 MB
  assert.equal(message(() => parseDefinition(big('é€', 9 << 20))), 'the definition is larger than 8 MB');
  assert.equal(message(() => parseDefinition(new TextEncoder().encode(big('x', 9 << 20)))), 'the definition is larger than 8 MB');
  // under the bound it is read (a comment: only the name is left)
  assert.deepEqual(parseDefinition(big('é€', 7 << 20)).value, { name: 'T' });
});

test('text nested deeper than 200 levels is refused before it is read, JSON or YAML', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  for (const [text, n] of [
    [`{"name":"x","a":${deep(100000)}}`, 100000],
    [`{"name":"x","a":${deep(201)}}`, 201],
    [`name: x\na: ${deep(5000)}\n`, 5000],
  ] as const) {
    assert.throws(
      () => parseDefinition(text),
      (e: unknown) => e instanceof DefinitionError && e.errors[0]!.message === 'the definition is nested more than 200 levels deep',
      String(n),
    );
  }
  // brackets in a string do not count; 200 levels are read
  assert.deepEqual(parseDefinition(`{"name":"${'['.repeat(300)}"}`).value, { name: '['.repeat(300) });
  assert.ok(parseDefinition(`{"name":"x","a":${deep(199)}}`));
});

test('alias bombs are refused', () => {
  let y = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 8; i++) {
    const r = `*a${i - 1}`;
    y += `a${i}: &a${i} [${Array(10).fill(r).join(', ')}]\n`;
  }
  assert.throws(() => parseDefinition(y), DefinitionError);
});

test("spec 002's bare operators (operation: -) read as strings", () => {
  const p = parseDefinition(`mutations:
  - target: $player.current
    operation: -
    value: 1
  - operation: +
  - operation: *
  - { operation: MoveZone }
`);
  const v = JSON.parse(p.json);
  assert.deepEqual(
    v.mutations.map((m: { operation: string }) => m.operation),
    ['-', '+', '*', 'MoveZone'],
  );
  assert.deepEqual(p.locate('/mutations/0/value'), { line: 4, column: 5 });
  assert.deepEqual(p.locate('/mutations/2/operation'), { line: 6, column: 5 });
  // in flow style as well (before, '-' was a block list inside the flow mapping and '*' an alias)
  const flow = parseDefinition(`mutations:
  - { target: $player.current, operation: -, value: 2 }
  - { operation: *, value: 3 }
  - { operation: /}
  - [+, =]
`);
  assert.deepEqual(JSON.parse(flow.json).mutations, [{ target: '$player.current', operation: '-', value: 2 }, { operation: '*', value: 3 }, { operation: '/' }, ['+', '=']]);
  assert.deepEqual(flow.locate('/mutations/1/value'), { line: 3, column: '  - { operation: *, '.length + 1 }); // (the author's column)
});

test('expressions in YAML flow style read as in block style: [ ] ( , inside an expression do not end it', () => {
  const text = `mutations:
  - { target: $players[0], property: life, operation: '-', value: min($x, 3) }
  - { target: $queue.items[1], condition: $e.id == 'NW' and $queue.size > 1, operation: Cancel }  # a [ comment
  - { when: "$a == 'x'", k: [1, 2], m: { x: $players[1].life } }
`;
  const flow = parseDefinition(text);
  const block = parseDefinition(`mutations:
  - target: $players[0]
    property: life
    operation: '-'
    value: min($x, 3)
  - target: $queue.items[1]
    condition: $e.id == 'NW' and $queue.size > 1
    operation: Cancel
  - when: "$a == 'x'"
    k: [1, 2]
    m:
      x: $players[1].life
`);
  assert.deepEqual(flow.value, block.value);
  // positions are the author's, not those of the quoted text
  const at = (line: number, key: string) => ({ line, column: text.split('\n')[line - 1]!.indexOf(`${key}:`) + 1 });
  assert.deepEqual(flow.locate('/mutations/0/property'), at(2, 'property'));
  assert.deepEqual(flow.locate('/mutations/0/value'), at(2, 'value'));
  assert.deepEqual(flow.locate('/mutations/1/operation'), at(3, 'operation'));
  assert.deepEqual(flow.locate('/mutations/2/m/x'), { line: 4, column: text.split('\n')[3]!.indexOf(' x:') + 2 });
});

test('a YAML syntax error after a quoted flow expression is placed in the author\'s text', () => {
  try {
    parseDefinition(`a: { target: $players[0], b: [1, 2 }\n`);
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof DefinitionError);
    const [issue] = e.errors;
    assert.match(issue!.message, /^YAML syntax error/);
    assert.equal(issue!.line, 1);
    // the error is at or after the broken "[1, 2 }" (column 31 in the author's text), never past the line
    assert.ok(issue!.column! >= 30 && issue!.column! <= 37, `column ${issue!.column}`);
  }
});

test("an expression's error is located at the character its column names, in every YAML style and in JSON read as YAML", () => {
  // the engine says `expression error at column N` (bytes of the expression's text, from 1)
  const issue = (text: string, path: string, column: number, format: 'auto' | 'yaml' = 'auto') => {
    const [x] = locateIssues(parseDefinition(text, format), [{ path, message: `expression error at column ${column}: unknown reference '$foo'` }]);
    const line = text.split('\n')[x!.line! - 1]!;
    return { line: x!.line, at: line.slice(x!.column! - 1, x!.column! - 1 + 4) };
  };
  const expr = '$turn > 1 and $foo.bar'; // $foo at column 15
  assert.deepEqual(issue(`a:\n  condition: ${expr}\n`, '/a/condition', 15), { line: 2, at: '$foo' });
  assert.deepEqual(issue(`a:\n  condition: '${expr}'\n`, '/a/condition', 15), { line: 2, at: '$foo' });
  // '' is one character of the value, \" and \u00e9 too (é is 2 bytes to the engine)
  assert.deepEqual(issue(`a:\n  condition: '$p == ''x'' and $foo'\n`, '/a/condition', 15), { line: 2, at: '$foo' });
  assert.deepEqual(issue(`a:\n  condition: "$p == \\"\\u00e9\\" and $foo"\n`, '/a/condition', 16), { line: 2, at: '$foo' });
  // a folded or literal block, and a plain scalar folded over two lines: the next line, not past the first
  assert.deepEqual(issue(`a:\n  condition: >-\n    $turn > 1 and\n    $foo.bar\n`, '/a/condition', 15), { line: 4, at: '$foo' });
  assert.deepEqual(issue(`a:\n  condition: |\n    $turn > 1 and\n    $foo.bar\n`, '/a/condition', 15), { line: 4, at: '$foo' });
  assert.deepEqual(issue(`a:\n  condition: $turn > 1 and   \n     $foo.bar\nb: 1\n`, '/a/condition', 15), { line: 3, at: '$foo' });
  // past the end ("the expression ended"): the last character, in a block scalar too (not past
  // its final line break, on the next key's line)
  const ended = (text: string, column: number) => {
    const [x] = locateIssues(parseDefinition(text), [{ path: '/a/condition', message: `expression error at column ${column}: expected ')' but the expression ended` }]);
    return { line: x!.line, at: text.split('\n')[x!.line! - 1]!.slice(x!.column! - 1) };
  };
  for (const style of ['>', '|', '>-']) assert.deepEqual(ended(`a:\n  condition: ${style}\n    ($turn > 1 or\n    $turn == 0\nb: 1\n`, 26), { line: 4, at: '0' }, style);
  assert.deepEqual(ended(`a:\n  condition: ($turn > 1 or $turn == 0\nb: 1\n`, 26), { line: 2, at: '0' });
  // flow style (the expression is quoted before YAML reads it: the author's column comes back)
  assert.deepEqual(issue(`a: { x: 1, condition: ${expr}, y: 2 }\n`, '/a/condition', 15), { line: 1, at: '$foo' });
  assert.deepEqual(issue(`a: [ { filter: $candidate.size > $foo } ]\n`, '/a/0/filter', 19), { line: 1, at: '$foo' });
  // JSON text read as YAML (JSON is YAML): the JSON string's character
  const json = JSON.stringify({ a: { condition: '$p == "x" and $foo' } }, null, 2);
  assert.deepEqual(issue(json, '/a/condition', 15, 'yaml'), { line: 3, at: '$foo' });
  // a warning says `at column N` too; a message without a column keeps the key's place
  const p = parseDefinition(`a:\n  condition: ${expr}\n`);
  assert.deepEqual(locateIssues(p, [{ path: '/a/condition', message: "at column 15: property 'foo'" }])[0], { path: '/a/condition', message: "at column 15: property 'foo'", line: 2, column: 28 });
  assert.deepEqual(locateIssues(p, [{ path: '/a/condition', message: 'expected a condition' }])[0], { path: '/a/condition', message: 'expected a condition', line: 2, column: 3 });
});

test('YAML syntax errors by the thousand each get their own line and column (found by a binary search, not a scan per error)', () => {
  // 3 lines of 2,000 stray scalars each: every one an error at its own column
  const line = '"a" '.repeat(2000).trimEnd();
  const text = `${line}\n${line}\n${line}\n`;
  const e = (() => {
    try {
      parseDefinition(text, 'yaml');
    } catch (err) {
      return err as DefinitionError;
    }
    throw new Error('no error');
  })();
  assert.ok(e instanceof DefinitionError);
  assert.ok(e.errors.length > 5000, `${e.errors.length} errors`);
  const seen = new Set(e.errors.map((x) => `${x.line}:${x.column}`));
  assert.equal(seen.size, e.errors.length, 'each error at its own place');
  for (const x of e.errors) {
    assert.ok(x.line! >= 1 && x.line! <= 3, `line ${x.line}`);
    assert.equal((x.column! - 1) % 4, 0, `column ${x.column} starts a scalar`);
  }
  // the same places as a scan of the text gives
  const last = e.errors[e.errors.length - 1]!;
  assert.equal(last.line, 3);
  assert.equal(text.split('\n')[2]!.slice(last.column! - 1, last.column! + 2), '"a"');
});

test('duplicate keys: each repeated key of a mapping, block or flow, at its place, in order with the other errors', () => {
  const errorsOf = (text: string) => {
    try {
      parseDefinition(text, 'yaml');
    } catch (err) {
      assert.ok(err instanceof DefinitionError);
      return err.errors.map((x) => [x.line, x.column, x.message]);
    }
    return [];
  };
  const dup = 'YAML syntax error: Map keys must be unique';
  assert.deepEqual(errorsOf('name: a\nzones: []\nname: b\nname: c\n'), [[3, 1, dup], [4, 1, dup]]);
  assert.deepEqual(errorsOf('name: a\nflow: { phases: [], x: 1, phases: 2 }\n'), [[2, 27, dup]]);
  // mappings of their own: the same key in two of them is not repeated; 1 and "1" differ (as yaml says)
  assert.deepEqual(errorsOf('a: { k: 1 }\nb: { k: 2 }\nc: { 1: x, "1": y }\n'), []);
  // among the syntax errors, by place
  const mixed = errorsOf('k: 1\nk: 2\nl: [ 1\n');
  assert.deepEqual(mixed[0], [2, 1, dup]);
  assert.ok(mixed.length > 1 && mixed.slice(1).every(([line]) => (line as number) >= 3), JSON.stringify(mixed));
  // 20,000 distinct keys: none repeated (the check is by value, linear)
  const many = Array.from({ length: 20000 }, (_, i) => `k${i}: ${i}`).join('\n');
  assert.equal(Object.keys(parseDefinition(many, 'yaml').value as object).length, 20000);
  assert.deepEqual(errorsOf(`${many}\nk19999: again\n`), [[20001, 1, dup]]);
});

test('block nesting too deep for the YAML reader is said as such, at its place', () => {
  const text = 'x:\n' + Array.from({ length: 3000 }, (_, i) => ' '.repeat(i + 1) + '- ').join('\n') + 'a\n';
  assert.throws(
    () => parseDefinition(text, 'yaml'),
    (e: unknown) => {
      assert.ok(e instanceof DefinitionError);
      assert.equal(e.errors[0]!.message, 'YAML syntax error: nested too deeply to read');
      assert.ok(e.errors[0]!.line! > 1);
      return true;
    },
  );
});

test('a pointer to an alias is located at its anchor, an expression column in the anchored text', () => {
  const p = parseDefinition('name: A\na: &c $player.activ == 1\nb: *c\nc: &m { k: v }\nd: *m\n', 'yaml');
  assert.deepEqual(p.locate('/b'), { line: 2, column: 7 });
  assert.deepEqual(p.locate('/b', 9), { line: 2, column: 15 });
  assert.deepEqual(p.locate('/b', 9), p.locate('/a', 9));
  assert.deepEqual(p.locate('/d/k'), { line: 4, column: 9 });
});

test('what JSON cannot say is a DefinitionError where it is: a definition that contains itself, a number that is not finite', () => {
  const errorOf = (input: unknown) => {
    try {
      parseDefinition(input as string);
    } catch (e) {
      assert.ok(e instanceof DefinitionError, String(e));
      return e.errors[0];
    }
    assert.fail('no error');
  };
  // a YAML alias inside its own anchor (JSON.stringify threw a TypeError)
  for (const text of ['a: &a\n  b: *a\n', 'a: &a [ *a ]\n']) {
    assert.equal(errorOf(text)!.message, 'the definition contains itself (a YAML alias inside its own anchor, or an object that holds itself): it cannot be read as JSON');
  }
  // .inf / .nan / 1e999 / Infinity were written as null without a word
  assert.deepEqual(errorOf('name: T\nplayers:\n  count: 2\n  properties: { life: .inf }\n'), {
    path: '/players/properties/life', message: 'expected a finite number, found Infinity', line: 4, column: 17,
  });
  assert.deepEqual(errorOf('name: T\nx: [1, -.inf]\n'), { path: '/x/1', message: 'expected a finite number, found -Infinity', line: 2, column: 8 });
  assert.equal(errorOf('name: T\nx: .nan\n')!.message, 'expected a finite number, found NaN');
  assert.deepEqual(errorOf('{"name": "T", "a/b": {"c": 1e999}}'), { path: '/a~1b/c', message: 'expected a finite number, found Infinity' });
  assert.deepEqual(errorOf({ name: 'T', players: { count: NaN } } as unknown as string), { path: '/players/count', message: 'expected a finite number, found NaN' });
  // every one of them, in document order (before: the first alone)
  try {
    parseDefinition('name: T\nplayers: { count: 2, properties: { a: .inf } }\nentities: [ { id: C, properties: { b: .nan } } ]\n');
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof DefinitionError, String(e));
    assert.deepEqual(e.errors.map((x) => [x.path, x.message, x.line]), [
      ['/players/properties/a', 'expected a finite number, found Infinity', 2],
      ['/entities/0/properties/b', 'expected a finite number, found NaN', 3],
    ]);
  }
});
