// A stand-in for bot-worker.mjs (bots.test.mjs): answers each job with its `move` after `ms`,
// so that the order the pool serves its choices in shows without a search's cost.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ move, ms = 0, drop }) => {
  if (drop !== undefined) return; // (a room's kept games dropped: nothing kept here)
  setTimeout(() => parentPort.postMessage({ move }), ms);
});
