// What a run of simulated games adds up to: wins per player, draws, the spread of game
// lengths, and the games worth a look (the longest, the shortest, the draws, the failures).
import type { SimulateResult } from 'rulestack';
import type { GameOutcome } from './simulate-game.js';

export interface Tally {
  games: number;
  wins: Map<string, number>;
  draws: number;
  unfinished: number;
  errors: number;
  meanLength: number;
}

export function tally(outcomes: GameOutcome[], players: readonly string[]): Tally {
  const wins = new Map(players.map((p) => [p, 0]));
  let draws = 0;
  let unfinished = 0;
  let errors = 0;
  let moves = 0;
  for (const o of outcomes) {
    moves += o.length;
    if (o.error !== undefined) errors++;
    else if (o.winner !== null) wins.set(o.winner, (wins.get(o.winner) ?? 0) + 1);
    else if (o.draw) draws++;
    else unfinished++;
  }
  return { games: outcomes.length, wins, draws, unfinished, errors, meanLength: outcomes.length ? moves / outcomes.length : 0 };
}

/** The engine's result for a whole run as a tally (the players in the game's order). */
export function tallyOf(r: SimulateResult, players: readonly string[]): Tally {
  return { games: r.games, wins: new Map(players.map((p) => [p, r.wins[p] ?? 0])), draws: r.draws, unfinished: r.unfinished ?? 0, errors: r.errors, meanLength: r.meanLength };
}

export interface Bin {
  /** Lengths from `from` to `to`, both included. */
  from: number;
  to: number;
  count: number;
}

/** Game lengths in at most `most` bins of equal whole widths (of the games that did not fail: simulate counts no moves of those). */
export function lengthBins(outcomes: GameOutcome[], most = 12): Bin[] {
  const lengths = outcomes.filter((o) => o.error === undefined).map((o) => o.length);
  if (lengths.length === 0) return [];
  const lo = Math.min(...lengths);
  const hi = Math.max(...lengths);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / most));
  const bins: Bin[] = [];
  for (let from = lo; from <= hi; from += width) bins.push({ from, to: from + width - 1, count: 0 });
  for (const n of lengths) bins[Math.floor((n - lo) / width)]!.count++;
  return bins;
}

export interface OddGame {
  why: string;
  outcome: GameOutcome;
}

/** The longest and the shortest game (of those that did not fail), then the first draws, unfinished and failed games (a few each). */
export function oddGames(outcomes: GameOutcome[], each = 3): OddGame[] {
  const odd: OddGame[] = [];
  const played = outcomes.filter((o) => o.error === undefined);
  if (played.length > 0) {
    let longest = played[0]!;
    let shortest = played[0]!;
    for (const o of played) {
      if (o.length > longest.length) longest = o;
      if (o.length < shortest.length) shortest = o;
    }
    odd.push({ why: 'longest', outcome: longest });
    if (shortest !== longest) odd.push({ why: 'shortest', outcome: shortest });
  }
  // each game once: a draw that is also the longest is listed as the longest
  const some = (why: string, f: (o: GameOutcome) => boolean) => {
    for (const o of outcomes.filter((o) => f(o) && !odd.some((x) => x.outcome === o)).slice(0, each)) odd.push({ why, outcome: o });
  };
  some('draw', (o) => o.draw);
  some('unfinished', (o) => o.unfinished);
  some('engine error', (o) => o.error !== undefined);
  return odd;
}
