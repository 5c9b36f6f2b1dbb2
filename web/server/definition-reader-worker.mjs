// A worker of the definition reader (definition-reader.mjs): reads a definition's text as
// createGame does — YAML parsed, the engine's checks, errors located in the text — and
// answers with the engine's JSON of it, or with its errors.
import { parentPort } from 'node:worker_threads';
import { loadEngine } from 'rulestack';

parentPort.on('message', async (text) => {
  try {
    const rs = await loadEngine();
    parentPort.postMessage({ started: true }); // (the reader's time limit runs from here)
    let game;
    try {
      game = rs.createGame(text, { seed: 0 });
    } catch (e) {
      // (at most 1,000: text written to be slow can have millions, all alike)
      if (e?.name === 'DefinitionError') return parentPort.postMessage({ errors: e.errors.slice(0, 1000) });
      throw e;
    }
    const json = game.definitionJson;
    game.dispose();
    parentPort.postMessage({ json });
  } catch (e) {
    parentPort.postMessage({ failure: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
});
