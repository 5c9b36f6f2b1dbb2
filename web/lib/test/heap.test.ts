// The wasm heap must not grow over thousands of games: every Session the wrapper creates is
// freed by dispose(), and the engine keeps nothing per game once it is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../index.js';

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

test('2,000 played and disposed games do not grow the wasm heap', async () => {
  const rs = await loadEngine();
  const duel = readFileSync(repo('examples/duel.yaml'), 'utf8');
  const heap = () => (rs.module as unknown as { HEAP8: Int8Array }).HEAP8.buffer.byteLength;
  const play = (n: number) => {
    for (let i = 0; i < n; i++) {
      const game = rs.createGame(duel, { seed: i });
      try {
        const bot = rs.bot(game, { kind: 'random', seed: i });
        for (let k = 0; k < 10; k++) {
          const who = game.view().toAct[0];
          const move = who === undefined ? null : bot.choose(who);
          if (!move) break;
          game.apply(who, move);
        }
        game.snapshot();
        game.undo();
      } finally {
        game.dispose();
      }
    }
  };
  play(200); // warm-up: the allocator reaches its working size
  const before = heap();
  play(1800);
  assert.equal(heap(), before, `heap grew from ${before} to ${heap()} bytes`);
});
