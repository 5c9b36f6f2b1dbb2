// rs.simulateParallel: the games of rs.simulate spread over worker threads (each its own
// engine instance) in contiguous batches of seeds, merged into exactly the one-call result.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine, DefinitionError, type Rulestack, type SimulateOptions, type SimulateBatch } from '../index.js';
import { BAD_DEFINITION_YAML, RUNTIME_ERROR_YAML, SOMETIMES_ERROR_YAML, SYNTAX_ERROR_YAML } from './fixtures.js';

const example = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/${name}.yaml`, import.meta.url)), 'utf8');
let rs: Rulestack;

before(async () => {
  rs = await loadEngine();
});

/** The parallel result for these options and worker counts, each the same as simulate's, to the key order. */
async function same(definition: string, opts: SimulateOptions, runs: Array<{ workers: number; batch?: number }>) {
  const one = rs.simulate(definition, opts);
  for (const run of runs) {
    const many = await rs.simulateParallel(definition, { ...opts, ...run });
    assert.deepEqual(many, one, JSON.stringify(run));
    assert.equal(JSON.stringify(many), JSON.stringify(one), JSON.stringify(run));
  }
  return one;
}

describe('simulateParallel gives what simulate gives', () => {
  test('Duel, random bots: 1, 2, 3 workers, several batch sizes and seeds; hashes in game order', { timeout: 120_000 }, async () => {
    const duel = example('duel');
    const r = await same(duel, { games: 23, seed: 5, hashes: true }, [{ workers: 1 }, { workers: 2, batch: 4 }, { workers: 3, batch: 1 }, { workers: 3 }]);
    assert.equal(r.games, 23);
    assert.equal(r.hashes!.length, 23);
    assert.equal(r.wins['0']! + r.wins['1']! + r.draws + (r.unfinished ?? 0), 23);
    await same(duel, { games: 9, seed: 1000 }, [{ workers: 2, batch: 2 }]);
  });

  test('more workers than games; MCTS bots (a level, and iterations)', { timeout: 120_000 }, async () => {
    const ttt = example('tictactoe');
    await same(ttt, { games: 3, seed: 2, hashes: true }, [{ workers: 8 }, { workers: 5, batch: 2 }]);
    await same(ttt, { games: 5, seed: 40, bot: 'mcts', iterations: 5, hashes: true }, [{ workers: 2 }]);
    await same(ttt, { games: 3, seed: 7, bot: 'easy' }, [{ workers: 3 }]);
  });

  test('Nexus, a short run', { timeout: 120_000 }, async () => {
    const r = await same(example('nexus'), { games: 4, seed: 11, hashes: true }, [{ workers: 2, batch: 1 }]);
    assert.equal(r.hashes!.length, 4);
  });

  test('seeds: none (1), and up to the last game playing 2^53 - 1; a negative, fractional or later seed is refused alike', { timeout: 120_000 }, async () => {
    const ttt = example('tictactoe');
    await same(ttt, { games: 6, hashes: true }, [{ workers: 2, batch: 2 }]); // seed 1
    await same(ttt, { games: 4, seed: Number.MAX_SAFE_INTEGER - 3, hashes: true }, [{ workers: 2, batch: 1 }]);
    for (const seed of [-7.5, -1, 0.5, Number.MAX_SAFE_INTEGER - 2]) {
      const why = /^rulestack: simulate(Parallel)?: seed must be an integer from 0 to 9007199254740991 - games \+ 1/;
      assert.throws(() => rs.simulate(ttt, { games: 4, seed }), { name: 'RangeError', message: why });
      await assert.rejects(rs.simulateParallel(ttt, { games: 4, seed, workers: 2 }), { name: 'RangeError', message: why });
    }
  });
});

describe('simulateParallel: errors', () => {
  test('games that end in an engine error are listed with their number in the whole run and their seed', { timeout: 120_000 }, async () => {
    const r = await same(SOMETIMES_ERROR_YAML, { games: 30, seed: 100 }, [{ workers: 3, batch: 4 }, { workers: 2, batch: 7 }]);
    assert.ok(r.errors > 0 && r.errors < 30, `some games fail: ${r.errors}`);
    assert.ok(r.errorList!.some((e) => e.game >= 7), 'an errored game past the first batch');
    for (const e of r.errorList!) {
      assert.equal(e.seed, 100 + e.game);
      assert.match(e.message, /^\/actions\/0\/mutations\/0: destination is not a zone/);
      // that game alone, by its seed, fails too; the one before it (if any, and not listed) does not
      assert.equal(rs.simulate(SOMETIMES_ERROR_YAML, { games: 1, seed: e.seed }).errors, 1);
    }
    const listed = new Set(r.errorList!.map((e) => e.game));
    for (let g = 0; g < 30; g++) if (!listed.has(g)) assert.equal(rs.simulate(SOMETIMES_ERROR_YAML, { games: 1, seed: 100 + g }).errors, 0, `game ${g}`);
  });

  test('the first 20 errored games of the run are listed, as one call lists them', { timeout: 120_000 }, async () => {
    const r = await same(RUNTIME_ERROR_YAML, { games: 25, seed: 3 }, [{ workers: 2, batch: 3 }]);
    assert.equal(r.errors, 25);
    assert.deepEqual(r.errorList!.map((e) => [e.game, e.seed]), Array.from({ length: 20 }, (_, g) => [g, g + 3]));
  });

  test('a bad definition rejects with the DefinitionError simulate throws', { timeout: 60_000 }, async () => {
    for (const bad of [BAD_DEFINITION_YAML, SYNTAX_ERROR_YAML]) {
      let sync: unknown;
      try {
        rs.simulate(bad, { games: 4 });
      } catch (e) {
        sync = e;
      }
      assert.ok(sync instanceof DefinitionError);
      for (const workers of [1, 2]) {
        await assert.rejects(rs.simulateParallel(bad, { games: 4, workers, batch: 1 }), (e: unknown) => {
          assert.ok(e instanceof DefinitionError);
          assert.equal(e.message, sync.message);
          assert.deepEqual(e.errors, sync.errors);
          return true;
        });
      }
    }
  });

  test('workers and batch must be integers from 1', async () => {
    for (const workers of [0, 1.5, -1, 2000]) {
      await assert.rejects(rs.simulateParallel(example('tictactoe'), { games: 2, workers }), { name: 'RangeError', message: /invalid workers: .* \(an integer from 1 to 1024\)/ });
    }
    await assert.rejects(rs.simulateParallel(example('tictactoe'), { games: 2, batch: 0 }), { name: 'RangeError', message: /invalid batch: 0/ });
  });
});

test('onProgress: after each batch, the games done, the total and the batch with its own result', { timeout: 120_000 }, async () => {
  const ttt = example('tictactoe');
  for (const workers of [1, 3]) {
    const seen: Array<{ done: number; total: number; batch: SimulateBatch }> = [];
    const r = await rs.simulateParallel(ttt, { games: 10, seed: 4, workers, batch: 3, onProgress: (done, total, batch) => seen.push({ done, total, batch }) });
    // batches end in any order with workers: done sums the games of those ended so far
    let sum = 0;
    assert.deepEqual(seen.map((s) => s.done), seen.map((s) => (sum += s.batch.result.games)));
    assert.equal(seen.at(-1)!.done, 10);
    assert.ok(seen.every((s) => s.total === 10));
    assert.deepEqual(seen.map((s) => s.batch.first).sort((a, b) => a - b), [0, 3, 6, 9]);
    for (const s of seen) assert.deepEqual(s.batch.result, rs.simulate(ttt, { games: s.batch.result.games, seed: 4 + s.batch.first }));
    assert.equal(r.games, 10);
  }
});

test('without workers: as many as the cores', { timeout: 60_000 }, async () => {
  const ttt = example('tictactoe');
  assert.deepEqual(await rs.simulateParallel(ttt, { games: 12, seed: 9 }), rs.simulate(ttt, { games: 12, seed: 9 }));
});

describe('simulateParallel keeps its workers between runs', () => {
  const ttt = example('tictactoe');

  test('a second run starts no worker; a run of another definition reuses them too', { timeout: 120_000 }, async () => {
    const { WorkerPool, runInWorkers } = await import('../simulate-pool.js');
    const { compileEngine } = await import('../wasm-load.js');
    const pool = new WorkerPool(await compileEngine({}));
    const play = async (definition: string, opts: SimulateOptions, batch: number) => {
      const { parseDefinition } = await import('../definition.js');
      const json = parseDefinition(definition).json;
      const options: string[] = [];
      for (let first = 0; first < opts.games; first += batch)
        options.push(JSON.stringify({ ...opts, games: Math.min(batch, opts.games - first), seed: (opts.seed ?? 1) + first }));
      const texts: string[] = new Array(options.length);
      await runInWorkers({ pool, definition: json, options, workers: 2, onAnswer: (i, t) => (texts[i] = t) });
      return texts.map((t) => JSON.parse(t) as { games: number; hashes: string[] }).flatMap((r) => r.hashes);
    };
    const hashesOf = (definition: string, opts: SimulateOptions) => rs.simulate(definition, { ...opts, hashes: true }).hashes;
    assert.deepEqual(await play(ttt, { games: 8, seed: 3, hashes: true }, 2), hashesOf(ttt, { games: 8, seed: 3 }));
    assert.equal(pool.started, 2);
    assert.equal(pool.idle, 2);
    assert.deepEqual(await play(ttt, { games: 6, seed: 50, hashes: true }, 1), hashesOf(ttt, { games: 6, seed: 50 }));
    const duel = example('duel');
    assert.deepEqual(await play(duel, { games: 4, seed: 9, hashes: true }, 1), hashesOf(duel, { games: 4, seed: 9 }));
    assert.equal(pool.started, 2, 'the same two workers played all three runs');
    pool.close();
    assert.equal(pool.idle, 0);
  });

  test('runs at the same time share the workers: never more than the largest run asks for', { timeout: 120_000 }, async () => {
    const { WorkerPool, runInWorkers } = await import('../simulate-pool.js');
    const { compileEngine } = await import('../wasm-load.js');
    const { parseDefinition } = await import('../definition.js');
    const pool = new WorkerPool(await compileEngine({}));
    let most = 0;
    const play = (definition: string, seed: number, workers: number) => {
      const json = parseDefinition(definition).json;
      const options = Array.from({ length: 6 }, (_, i) => JSON.stringify({ games: 2, seed: seed + 2 * i, hashes: true }));
      const texts: string[] = new Array(options.length);
      const onAnswer = (i: number, t: string) => {
        texts[i] = t;
        most = Math.max(most, pool.live);
      };
      return runInWorkers({ pool, definition: json, options, workers, onAnswer }).then(() =>
        texts.flatMap((t) => (JSON.parse(t) as { hashes: string[] }).hashes));
    };
    const hashesOf = (definition: string, seed: number) => rs.simulate(definition, { games: 12, seed, hashes: true }).hashes;
    const duel = example('duel');
    // three runs at once, two of them of the same definition: each plays all its games right
    const [a, b, c] = await Promise.all([play(ttt, 5, 2), play(duel, 40, 2), play(ttt, 90, 1)]);
    assert.deepEqual(a, hashesOf(ttt, 5));
    assert.deepEqual(b, hashesOf(duel, 40));
    assert.deepEqual(c, hashesOf(ttt, 90));
    assert.equal(pool.started, 2, 'two workers in all, not 2 + 2 + 1');
    assert.ok(most <= 2, `at most 2 live at once (saw ${most})`);
    assert.equal(pool.idle, 2);
    // a run that asks for more raises the bound while it runs
    assert.deepEqual(await play(ttt, 7, 3), hashesOf(ttt, 7));
    assert.equal(pool.started, 3);
    pool.close();
    assert.equal(pool.live, 0);
  });

  test('at the API: two simulateParallel calls at once give what simulate gives', { timeout: 120_000 }, async () => {
    const duel = example('duel');
    const [x, y] = await Promise.all([
      rs.simulateParallel(duel, { games: 20, seed: 3, hashes: true, workers: 2, batch: 3 }),
      rs.simulateParallel(ttt, { games: 15, seed: 8, hashes: true, workers: 2, batch: 2 }),
    ]);
    assert.deepEqual(x, rs.simulate(duel, { games: 20, seed: 3, hashes: true }));
    assert.deepEqual(y, rs.simulate(ttt, { games: 15, seed: 8, hashes: true }));
  });

  test('a run that fails while it waits for a worker another run holds rejects (never an uncaught error), and the other plays on', { timeout: 120_000 }, async () => {
    const { WorkerPool, runInWorkers } = await import('../simulate-pool.js');
    const { compileEngine } = await import('../wasm-load.js');
    const { parseDefinition } = await import('../definition.js');
    const pool = new WorkerPool(await compileEngine({}));
    const json = parseDefinition(ttt).json;
    // the long run holds one of the two workers until its 30 batches are played: the short
    // one fails at its first answer while it still waits for its second worker
    const long = Array.from({ length: 30 }, (_, i) => JSON.stringify({ games: 1, seed: 1 + i, hashes: true }));
    const texts: string[] = new Array(long.length);
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.allSettled([
        runInWorkers({ pool, definition: json, options: long, workers: 2, onAnswer: (i, t) => (texts[i] = t) }),
        runInWorkers({ pool, definition: json, options: ['{"games":1}', '{"games":1}'], workers: 2, onAnswer: () => { throw new Error('refused'); } }),
      ]);
      assert.equal(a.status, 'fulfilled', `round ${round}`);
      assert.ok(b.status === 'rejected' && (b.reason as Error).message === 'refused', `round ${round}`);
      assert.deepEqual(texts.flatMap((t) => (JSON.parse(t) as { hashes: string[] }).hashes), rs.simulate(ttt, { games: 30, seed: 1, hashes: true }).hashes);
    }
    pool.close();
  });

  test('at the API: of two calls at once, one that fails (a bad definition, onProgress throws) rejects, the other gives what simulate gives', { timeout: 120_000 }, async () => {
    const duel = example('duel');
    const want = rs.simulate(duel, { games: 60, seed: 2 });
    for (let round = 0; round < 3; round++) {
      const [good, bad, thrown] = await Promise.allSettled([
        rs.simulateParallel(duel, { games: 60, seed: 2, workers: 2, batch: 2 }),
        rs.simulateParallel('name: x', { games: 10, workers: 2, batch: 1 }),
        rs.simulateParallel(ttt, { games: 10, workers: 2, batch: 1, onProgress: () => { throw new Error('progress refused'); } }),
      ]);
      assert.ok(good.status === 'fulfilled', `round ${round}`);
      assert.deepEqual(good.value, want);
      assert.ok(bad.status === 'rejected' && bad.reason instanceof DefinitionError, `round ${round}`);
      assert.match((bad.reason as Error).message, /missing required key 'players'/);
      assert.ok(thrown.status === 'rejected' && (thrown.reason as Error).message === 'progress refused', `round ${round}`);
    }
  });

  test('a failed run ends its workers (the next starts new ones); idle workers end after idleMs', { timeout: 120_000 }, async () => {
    const { WorkerPool, runInWorkers } = await import('../simulate-pool.js');
    const { compileEngine } = await import('../wasm-load.js');
    const pool = new WorkerPool(await compileEngine({}), { idleMs: 100 });
    const { parseDefinition } = await import('../definition.js');
    const json = parseDefinition(ttt).json;
    const options = [1, 2, 3].map((seed) => JSON.stringify({ games: 1, seed }));
    await assert.rejects(
      runInWorkers({ pool, definition: json, options, workers: 2, onAnswer: () => { throw new Error('refused'); } }),
      { message: 'refused' },
    );
    assert.equal(pool.idle, 0);
    const texts: string[] = [];
    await runInWorkers({ pool, definition: json, options, workers: 2, onAnswer: (i, t) => (texts[i] = t) });
    assert.equal(pool.started, 4);
    assert.deepEqual(texts.map((t) => JSON.parse(t).games), [1, 1, 1]);
    assert.equal(pool.idle, 2);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(pool.idle, 0);
  });
});
