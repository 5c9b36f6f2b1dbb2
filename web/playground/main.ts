// The playground page (a placeholder for now): loads the engine through the npm package,
// as a user would, and starts the tiny game.
import { loadEngine } from 'rulestack';
import tinyGame from './tiny-game.json';

const SEED = 7;

const $ = (id: string) => document.getElementById(id)!;

async function main() {
  const rs = await loadEngine();
  $('version').textContent = rs.version();
  $('seed').textContent = String(SEED);
  const game = rs.createGame(tinyGame, { seed: SEED });
  try {
    $('hash').textContent = game.stateHash();
  } finally {
    game.dispose();
  }
  $('status').textContent = 'ready';
}

main().catch((err) => {
  console.error(err);
  $('status').textContent = `error: ${err instanceof Error ? err.message : String(err)}`;
});
