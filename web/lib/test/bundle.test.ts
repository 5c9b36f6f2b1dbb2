// What a web app that bundles the package with Vite ships. A game given as an object (or
// JSON text) with loadEngine({ yaml: false }) loads no YAML parser: the yaml package is a chunk
// of its own that such an app never fetches. The sizes are printed (docs/api.md, Bundlers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
let work: string;

interface Chunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
}
interface Built {
  chunks: Chunk[];
  assets: string[];
}

/**
 * Builds `main.js` (its text given) with Vite, as an app that installed the package:
 * node_modules/rulestack is this repository (its package.json `exports`, dist/).
 */
async function bundle(name: string, source: string): Promise<Built> {
  const dir = path.join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'rulestack'), 'dir');
  writeFileSync(path.join(dir, 'main.js'), source);
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
  const { build } = await import('vite');
  const result = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    build: { write: false, target: 'es2022', minify: true },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const chunks: Chunk[] = [];
  const assets: string[] = [];
  for (const o of outputs as Array<Record<string, any>>) {
    if (o.type === 'chunk') {
      chunks.push({ fileName: o.fileName, code: o.code, isEntry: o.isEntry, imports: o.imports, dynamicImports: o.dynamicImports });
    } else assets.push(o.fileName);
  }
  return { chunks, assets };
}

/** The chunks loaded when the page starts: the entry and what it imports statically. */
function initialChunks(b: Built): Chunk[] {
  const byName = new Map(b.chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const walk = (c: Chunk) => {
    if (seen.has(c.fileName)) return;
    seen.add(c.fileName);
    for (const i of c.imports) if (byName.has(i)) walk(byName.get(i)!);
  };
  for (const c of b.chunks) if (c.isEntry) walk(c);
  return [...seen].map((n) => byName.get(n)!);
}

const gz = (s: string) => zlib.gzipSync(s, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const sizes = (cs: Chunk[]) => {
  const code = cs.map((c) => c.code).join('');
  return { raw: code.length, gzip: cs.reduce((a, c) => a + gz(c.code), 0) };
};
/** Code that only the yaml package has. */
const isYaml = (c: Chunk) => /YAMLParseError/.test(c.code);

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'rulestack-bundle-'));
});
after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const GAME = {
  name: 'Minimal', players: { count: 2 }, zones: [{ name: 'Board' }],
  flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] }, actions: [{ name: 'Noop', mutations: [] }],
};

test('Vite: objects/JSON with { yaml: false } load no YAML parser; YAML text loads it as a chunk of its own', { timeout: 120_000 }, async (t) => {
  const json = await bundle('json', `import { loadEngine } from 'rulestack';
const rs = await loadEngine({ yaml: false });
const game = rs.createGame(${JSON.stringify(GAME)});
document.title = JSON.stringify(game.legalMoves('0'));
`);
  const yaml = await bundle('yaml', `import { loadEngine } from 'rulestack';
const rs = await loadEngine();
const game = rs.createGame('name: Minimal\\nplayers: { count: 2 }\\nzones: [ { name: Board } ]\\nflow: { phases: [ { name: Main, valid_actions: [Noop] } ] }\\nactions: [ { name: Noop, mutations: [] } ]\\n');
document.title = JSON.stringify(game.legalMoves('0'));
`);
  for (const b of [json, yaml]) {
    // engine.wasm is emitted once, as an asset next to the code
    assert.equal(b.assets.filter((a) => a.endsWith('.wasm')).length, 1, b.assets.join(', '));
    assert.ok(b.assets.some((a) => /engine-[\w-]+\.wasm$|engine\.wasm$/.test(a)), b.assets.join(', '));
    // the yaml package is one lazy chunk, never in the initial chunks
    const yamlChunks = b.chunks.filter(isYaml);
    assert.equal(yamlChunks.length, 1, b.chunks.map((c) => c.fileName).join(', '));
    assert.ok(!initialChunks(b).some(isYaml), 'the initial chunks hold no YAML parser');
    assert.ok(b.chunks.some((c) => c.dynamicImports.includes(yamlChunks[0]!.fileName)), 'loaded by import()');
  }
  const initial = sizes(initialChunks(json));
  const yamlChunk = sizes(yaml.chunks.filter(isYaml));
  const all = sizes(yaml.chunks);
  const line =
    `JS loaded, objects/JSON with { yaml: false }: ${kb(initial.raw)} (${kb(initial.gzip)} gzip); ` +
    `YAML text (default loadEngine()): ${kb(all.raw)} (${kb(all.gzip)} gzip), of which the yaml chunk ${kb(yamlChunk.raw)} (${kb(yamlChunk.gzip)} gzip)`;
  t.diagnostic(line);
  console.log(`bundle sizes: ${line}`);
  // the YAML parser is most of the JS: leaving it out must save a good part
  assert.ok(yamlChunk.gzip > initial.gzip / 2, line);
});

test("Vite: 'rulestack/engine.wasm?url' gives the URL to pass as wasmUrl; the wasm is emitted once", { timeout: 120_000 }, async () => {
  const b = await bundle('url', `import { loadEngine } from 'rulestack';
import wasmUrl from 'rulestack/engine.wasm?url';
const rs = await loadEngine({ wasmUrl, yaml: false });
document.title = rs.version();
`);
  const wasm = b.assets.filter((a) => a.endsWith('.wasm'));
  assert.equal(wasm.length, 1, b.assets.join(', '));
  const entry = b.chunks.find((c) => c.isEntry)!;
  // the URL of the emitted file is in the code (the glue and wasmUrl refer to the same file)
  assert.ok(b.chunks.some((c) => c.code.includes(path.basename(wasm[0]!))), 'the code names the emitted wasm');
  assert.ok(entry.code.length > 0);
});
