// The definition editor (CodeMirror): the package's check() runs in a worker as one types,
// each error and warning is underlined at its exact place with the engine's message on hover,
// the list under the editor jumps to a place, completion knows the definition's own names
// and, after a `.`, the built-in members of what is before it; the keyboard works as in any editor (Tab indents; Escape then Tab leaves).
import { test, expect, type Page } from '@playwright/test';
import { Text } from '@codemirror/state';
import { readFile } from 'node:fs/promises';
import { WARNING_YAML } from '../dist/test/fixtures.js';
import { loadEngine } from '../dist/index.js';
import { checkFormat } from '../web/playground/editor/check-format.js';
import { issueRange } from '../web/playground/editor/diagnostics.js';
import { editorContent, setEditorText } from './editor-helpers.js';
import { failOnPageErrors } from './page-errors.js';

failOnPageErrors();

/** The first check waits for the lint worker to load the engine (slow on a loaded machine). */
const LINT_START = 20_000;

async function open(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
}

const GAME = (condition: string) => `name: Editor test
players: { count: 2 }
zones:
  - name: Board
entities:
  - id: Pawn
    type: piece
    properties: { hp: 1 }
actions:
  - name: Go
    condition: ${condition}
    mutations:
      - operation: Create
        template: Pawn
        destination: $zone.@Board
flow:
  phases:
    - name: Main
      valid_actions: [Go]
`;

test('a broken expression is underlined exactly at the reference the engine names, with its message on hover', async ({ page }) => {
  await open(page);
  await setEditorText(page, GAME('$turn > 1 and $foo.bar'));
  const range = page.locator('.cm-lintRange-error');
  await expect(range).toHaveCount(1, { timeout: LINT_START }); // the worker loads the engine first
  await expect(range).toHaveText('$foo');
  // on line 11, where the condition is
  const line = page.locator('.cm-line').filter({ has: range });
  await expect(line).toHaveText('    condition: $turn > 1 and $foo.bar');
  await range.hover();
  const tip = page.locator('.cm-tooltip-lint');
  await expect(tip).toContainText("expression error at column 15: unknown reference '$foo'");
  // the list under the editor has it with its line:column (column 30: the $ of $foo)
  const entry = page.locator('#errors li');
  await expect(entry).toHaveCount(1);
  await expect(entry.locator('.pos')).toHaveText('11:30');
  await expect(entry.locator('.path')).toHaveText('/actions/0/condition');
  await expect(page.locator('.cm-gutter-lint .cm-lint-marker-error')).toHaveCount(1);

  // fixed: the underline and the list go
  await page.locator('.cm-line').filter({ hasText: '$foo.bar' }).click();
  await page.keyboard.press('End');
  for (let i = 0; i < '$foo.bar'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('$turn < 9');
  await expect(range).toHaveCount(0);
  await expect(page.locator('#errors-box')).toBeHidden();
});

test('the same in flow style and in JSON: the exact characters', async ({ page }) => {
  await open(page);
  await setEditorText(page, GAME('$turn > 1').replace('  - name: Board', '  - { name: Board, visibility: everyone }\n  - { name: Pile, actions: true }').replace('    condition: $turn > 1', '    requires_target: { from: $zone.@Board, filter: $candidate.size > $zone.@Nowhere }'));
  await expect(page.locator('.cm-lintRange-error')).toHaveText('@Nowhere', { timeout: LINT_START });
  // JSON text: JSON mode, and the place inside the JSON string
  const json = JSON.stringify({ name: 'J', players: { count: 2 }, actions: [{ name: 'Go', condition: '$turn > 1 and $nope', mutations: [] }], flow: { phases: [{ name: 'Main', valid_actions: ['Go'] }] } }, null, 2);
  await setEditorText(page, json);
  await expect(page.locator('.cm-lintRange-error')).toHaveText('$nope');
  await expect(page.locator('#errors li .pos')).toHaveText(/^9:\d+$/);
  // Load reports the same places
  await page.locator('#load').click();
  await expect(page.locator('#errors li .pos')).toHaveText(/^9:\d+$/);
  await expect(page.locator('.cm-lintRange-error')).toHaveText('$nope');
});

test('an error about a key’s value is underlined on the value (an unknown operation, in flow style too); an unknown key and a missing key stay on their key', async ({ page }) => {
  await open(page);
  const ttt = await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8');
  const flow = "operation: '+', value: 1, condition: $target.entity.row == 0";
  expect(ttt).toContain(flow);
  await setEditorText(page, ttt.replace(flow, flow.replace("'+'", "'^'")));
  const range = page.locator('.cm-lintRange-error');
  await expect(range).toHaveText("'^'", { timeout: LINT_START });
  const entry = page.locator('#errors li');
  await expect(entry.locator('.path')).toHaveText('/actions/0/mutations/1/operation');
  await expect(entry.locator('.msg')).toContainText("unknown operation '^'");
  const line = page.locator('.cm-line').filter({ has: range });
  const at = (await line.textContent())!.indexOf("'^'") + 1;
  await expect(entry.locator('.pos')).toHaveText(new RegExp(`^\\d+:${at}$`)); // the list and a click on it go to the value too
  // block style
  await setEditorText(page, GAME('$turn > 1').replace('operation: Create', 'operation: Craete'));
  await expect(range).toHaveText('Craete');
  await expect(entry.locator('.pos')).toHaveText('13:20');
  // about the key: an unknown key, and a missing key (its object's path: the key that holds it)
  await setEditorText(page, GAME('$turn > 1').replace('    type: piece', '    type: piece\n    tpye: x').replace('players: { count: 2 }', 'players: {}'));
  await expect(range).toHaveText(['players', 'tpye']);
});

test('issueRange: the value of the key an issue names, as written (block, flow, JSON, a list or map, before a comment); the key for an issue about it, a missing key or a value on the next lines; an expression’s reference', async () => {
  const rs = await loadEngine();
  /** The text each issue of this definition is underlined on. */
  const under = (text: string) => {
    const doc = Text.of(text.split('\n'));
    const { errors, warnings } = rs.check(text, { format: checkFormat(text) });
    return [...errors, ...warnings].map((issue) => {
      const { from, to } = issueRange(doc, issue);
      return doc.sliceString(from, to);
    });
  };
  const game = GAME('$turn > 1');
  expect(under(game.replace('operation: Create', 'operation: Craete'))).toEqual(['Craete']);
  expect(under(game.replace('  - name: Board', '  - { name: Board, visibility: sometimes }'))).toEqual(['sometimes']);
  expect(under(game.replace('players: { count: 2 }', 'players: { count: 2.5 }  # two and a half'))).toEqual(['2.5']);
  expect(under(game.replace('players: { count: 2 }', 'players:\n  count: 2.5 # two and a half'))).toEqual(['2.5']);
  // a list where a map is wanted: all of it; the phases' own error is about the list on the lines below
  expect(under(game.replace('valid_actions: [Go]', 'valid_actions: { a: [Go, Go] }'))).toEqual(['{ a: [Go, Go] }', 'phases']);
  const json = JSON.stringify({ name: 'J', players: { count: 2 }, actions: [{ name: 'Go', mutations: [{ operation: '^' }] }], flow: { phases: [{ name: 'Main', valid_actions: ['Go'] }] } }, null, 2);
  expect(under(json)).toEqual(['"^"']);
  expect(under(game.replace('  - name: Board', '  - name: Board\n    visibility: >-\n      sometimes'))).toEqual(['visibility']);
  expect(under(game.replace('players: { count: 2 }', 'players: {}'))).toEqual(['players']);
  expect(under(game.replace('    type: piece', '    type: piece\n    tpye: x'))).toEqual(['tpye']);
  expect(under(game.replace('properties: { hp: 1 }', 'properties: { hp: 1, type: 2 }'))).toEqual(['type']); // a warning about the property's name
  expect(under(GAME('$turn > 1 and $foo.bar'))).toEqual(['$foo']);
});

test('a warning is underlined in amber and listed as a warning; a click on an entry moves the cursor there', async ({ page }) => {
  await open(page);
  await setEditorText(page, WARNING_YAML);
  const warn = page.locator('.cm-lintRange-warning');
  await expect(warn).toHaveText('ready', { timeout: LINT_START });
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  expect(await warn.evaluate((el) => getComputedStyle(el).textDecorationColor)).toBe('rgb(201, 154, 46)');
  await expect(page.locator('#errors-box')).toHaveClass(/warn/);
  await expect(page.locator('#errors-title')).toHaveText('Warnings (1)');
  const entry = page.locator('#errors li.warning');
  await expect(entry.locator('.pos')).toHaveText('5:32');
  // the cursor is elsewhere; a click on the entry puts it at 5:32, in the editor
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(page.locator('#cursor-pos')).toHaveText('1:1');
  await entry.click();
  await expect(page.locator('#cursor-pos')).toHaveText('5:32');
  await expect(editorContent(page)).toBeFocused();
  await expect(page.locator('.cm-activeLine')).toHaveText('    condition: $player.current.ready == null');
});

test('completion offers the keys of the schema and the template names the text declares', async ({ page }) => {
  await open(page);
  await setEditorText(page, GAME('$turn > 1').replace('        template: Pawn\n', '        template: \n'));
  // the cursor is at the end: go to the end of the template line
  await page.locator('.cm-line').filter({ hasText: /^\s+template: $/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Space');
  const list = page.locator('.cm-tooltip-autocomplete');
  await expect(list).toBeVisible();
  // under `template:` only templates: Pawn, not the zone Board or the action Go
  await expect(list.locator('li').filter({ hasText: /^Pawn/ })).toHaveCount(1);
  await expect(list.locator('li')).toHaveCount(1);
  await list.locator('li').click();
  await expect(page.locator('.cm-line').filter({ hasText: /^\s+template: Pawn$/ })).toHaveCount(1);
  // a key of the Create mutation that is not written yet: count
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('cou');
  await expect(list.locator('li').filter({ hasText: /^count/ })).toHaveCount(1);
  await list.locator('li').filter({ hasText: /^count/ }).click(); // (Enter is taken only 75 ms after the list opens)
  await expect(page.locator('.cm-line').filter({ hasText: /^\s+count: $/ })).toHaveCount(1);
  // a reference: `$zone.@` offers the zones the text declares
  await page.keyboard.type('$zone.@');
  await expect(list.locator('li').filter({ hasText: /^\$zone\.@Board/ })).toHaveCount(1);
  await expect(list.locator('li').filter({ hasText: '@Name' })).toHaveCount(0); // the docs' placeholder is not offered
  await page.keyboard.press('Escape');
  // an operation: the schema's list
  await page.keyboard.press('Escape');
  await setEditorText(page, GAME('$turn > 1').replace('      - operation: Create', '      - operation: Shu\n      - operation: Create'));
  await page.locator('.cm-line').filter({ hasText: /operation: Shu$/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Space');
  await expect(list.locator('li').filter({ hasText: /^Shuffle/ })).toHaveCount(1);
  await list.locator('li').filter({ hasText: /^Shuffle/ }).click();
  await expect(page.locator('.cm-line').filter({ hasText: /^\s+- operation: Shuffle$/ })).toHaveCount(1);
  // a trigger: the events the schema names, and the actions the text declares
  await setEditorText(page, GAME('$turn > 1') + 'reactions:\n  - trigger: $After.\n    mutations: []\n');
  await page.locator('.cm-line').filter({ hasText: /trigger: \$After\.$/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Space');
  await expect(list.locator('li').filter({ hasText: /^\$After\.DamageTaken/ })).toHaveCount(1);
  await expect(list.locator('li').filter({ hasText: /^\$After\.@Go/ })).toHaveCount(1);
  await expect(list.locator('li').filter({ hasText: /^\$Before/ })).toHaveCount(0);
  // JSON: a key of the top-level object, written with its quotes
  await page.keyboard.press('Escape');
  await setEditorText(page, '{\n  "name": "J",\n  "pla\n}\n');
  await page.locator('.cm-line').filter({ hasText: /^\s+"pla$/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Space');
  await list.locator('li').filter({ hasText: /^players/ }).click();
  await expect(page.locator('.cm-line').filter({ hasText: /^\s+"players": $/ })).toHaveCount(1);
});

test('after a `.` in an expression completion offers the built-in members docs/language.md lists and the properties', async ({ page }) => {
  await open(page);
  const list = page.locator('.cm-tooltip-autocomplete');
  const labels = async () => (await list.locator('.cm-completionLabel').allTextContents()).sort();
  /** Types `chain.` at the end of the condition and reads what the list offers (it opens by itself). */
  const offered = async (chain: string) => {
    await setEditorText(page, GAME(chain));
    await page.locator('.cm-line').filter({ hasText: `condition: ${chain}` }).click();
    await page.keyboard.press('End');
    await page.keyboard.type('.');
    await expect(list).toBeVisible();
    return labels();
  };
  const all = (base: string, names: string[]) => names.map((n) => `${base}.${n}`).sort();

  // an entity: its built-ins (docs/language.md, "Built-in members of an entity") and the text's property hp
  const entity = ['id', 'type', 'template', 'tags', 'zone', 'owner', 'controller', 'host', 'index'];
  expect(await offered('$entity.self')).toEqual(all('$entity.self', [...entity, 'hp']));
  await expect(list.locator('li').filter({ hasText: /^\$entity\.self\.host/ }).locator('.cm-completionDetail')).toHaveText('built-in (entity)');
  await expect(list.locator('li').filter({ hasText: /^\$entity\.self\.hp/ }).locator('.cm-completionDetail')).toHaveText('property');
  // typing on narrows the list; a pick writes the member
  await page.keyboard.type('ho');
  await expect.poll(labels).toEqual(['$entity.self.host']);
  await list.locator('li').click();
  await expect(page.locator('.cm-line').filter({ hasText: /condition: \$entity\.self\.host$/ })).toHaveCount(1);
  await page.keyboard.press('Escape');

  // a zone: name, owner, size, entities, top and the list methods; no property
  expect(await offered('$zone.@Board')).toEqual(all('$zone.@Board', ['name', 'owner', 'size', 'entities', 'top', 'contains', 'where']));
  await page.keyboard.press('Escape');
  // a queue item: its members, and the properties it reads from its action and its source
  expect(await offered('$queue.top')).toEqual(all('$queue.top', ['name', 'source', 'player', 'targets', 'target', 'mode', 'x', 'cancelled', 'hp']));
  await page.keyboard.press('Escape');
  // a list (every entity of the type piece): contains, size, where
  expect(await offered('$entity.piece')).toEqual(all('$entity.piece', ['contains', 'size', 'where']));
  await page.keyboard.press('Escape');
  // a member of a member: the entity's owner is a player (or entity) again
  expect(await offered('$entity.self.owner')).toEqual(all('$entity.self.owner', [...entity, 'hp']));
});

test('Tab indents in the editor; Escape then Tab moves the focus out; Ctrl+Enter loads', async ({ page }) => {
  await open(page);
  await setEditorText(page, 'name: T\nplayers: { count: 2 }\n');
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('Tab');
  await expect(editorContent(page)).toBeFocused();
  await expect(page.locator('.cm-line').first()).toHaveText('  name: T');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editorContent(page)).not.toBeFocused();
  expect(await page.evaluate(() => !!document.activeElement && !document.activeElement.closest('.cm-editor'))).toBe(true);
  // the editor box shows that it has the focus
  await editorContent(page).click();
  expect(await page.locator('#editor-box').evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
  // Ctrl+Enter loads the text
  await setEditorText(page, GAME('$turn >= 1'));
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('#sum-game')).toHaveText('Editor test');
  await expect(page.locator('.cm-line').filter({ hasText: /^\s+condition: \$turn >= 1$/ })).toHaveCount(1); // no newline typed
});

test('in a trigger, `$`, `$B`, `$Be`… offer `$Before.` and `$After.`, and a pick goes on to the events and actions', async ({ page }) => {
  await open(page);
  const list = page.locator('.cm-tooltip-autocomplete');
  const labels = async () => (await list.locator('.cm-completionLabel').allTextContents()).sort();
  await setEditorText(page, GAME('$turn > 1') + 'reactions:\n  - trigger: \n    mutations: []\n');
  await page.locator('.cm-line').filter({ hasText: /- trigger:\s*$/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.type('$');
  await page.keyboard.press('Control+Space');
  await expect.poll(labels).toEqual(['$After.', '$Before.']);
  await page.keyboard.type('B');
  await expect.poll(labels).toEqual(['$Before.']);
  await page.keyboard.type('efor');
  await expect.poll(labels).toEqual(['$Before.']);
  await list.locator('li').click();
  await expect(page.locator('.cm-line').filter({ hasText: /- trigger: \$Before\.$/ })).toHaveCount(1);
  // the list opens again on what may follow: the schema's events and the text's actions
  await expect(list.locator('li').filter({ hasText: /^\$Before\.DamageTaken/ })).toHaveCount(1);
  await expect(list.locator('li').filter({ hasText: /^\$Before\.@Go/ })).toHaveCount(1);
  await expect(list.locator('li').filter({ hasText: /^\$After/ })).toHaveCount(0);
});
