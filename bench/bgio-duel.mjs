// The Duel (/work/shared/reference/duel-rules.md, a copy of the rules is quoted in
// bench/README.md) ported to boardgame.io 0.50, for the benchmark: the same game, written the
// way a boardgame.io author would (G mutated through immer, priority as activePlayers),
// with ai.enumerate in the order the rules require: playCard(type) once per distinct playable
// card type in the order Bolt, Heal, Counter; then pass (response window) or finishTurn (main).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// CJS entry points: boardgame.io 0.50 has no "exports" map, so ESM cannot import its subpaths.
const { InitializeGame, CreateGameReducer, ProcessGameConfig } = require('boardgame.io/internal');
const { MCTSBot } = require('boardgame.io/ai');
const { INVALID_MOVE } = require('boardgame.io/core');

export const BGIO_VERSION = require('boardgame.io/package.json').version;

const COST = { Bolt: 1, Heal: 1, Counter: 2 };
const TYPES = ['Bolt', 'Heal', 'Counter'];
const other = (p) => (p === '0' ? '1' : '0');

function deck() {
  const d = [];
  for (let i = 0; i < 14; i++) d.push('Bolt');
  for (let i = 0; i < 3; i++) d.push('Heal');
  for (let i = 0; i < 3; i++) d.push('Counter');
  return d;
}

function newPlayer(random) {
  const cards = random.Shuffle(deck());
  return { life: 20, energy: 0, maxEnergy: 0, hand: cards.slice(0, 5), deck: cards.slice(5) };
}

/** The acting player: the one with priority (activePlayers), else the turn player. */
function acting(ctx) {
  return ctx.activePlayers ? Object.keys(ctx.activePlayers)[0] : ctx.currentPlayer;
}

function givePriority(G, events, player) {
  G.priority = player;
  events.setActivePlayers({ value: { [player]: null } });
}

/** Resolves the whole stack (last in, first out), then checks life. */
function resolveStack(G) {
  while (G.stack.length > 0) {
    const item = G.stack.pop();
    if (item.card === 'Counter') {
      if (G.stack.length > 0) G.stack.pop(); // the card beneath is removed without effect
    } else if (item.card === 'Bolt') {
      G.players[other(item.player)].life -= 2;
    } else {
      G.players[item.player].life += 2;
    }
  }
  const a = G.players['0'].life <= 0, b = G.players['1'].life <= 0;
  if (a && b) G.result = { draw: true };
  else if (a) G.result = { winner: '1' };
  else if (b) G.result = { winner: '0' };
}

export const DuelGame = {
  name: 'duel',
  disableUndo: true,
  setup: ({ random }) => ({
    players: { 0: newPlayer(random), 1: newPlayer(random) },
    stack: [],
    priority: '0',
    lastWasPass: false,
    result: null,
  }),
  turn: {
    onBegin: ({ G, ctx, events }) => {
      const p = G.players[ctx.currentPlayer];
      p.maxEnergy = Math.min(p.maxEnergy + 1, 5);
      p.energy = p.maxEnergy;
      if (p.deck.length > 0) p.hand.push(p.deck.shift());
      G.priority = ctx.currentPlayer;
      G.lastWasPass = false;
    },
  },
  moves: {
    playCard: ({ G, ctx, events, playerID }, type) => {
      if (playerID !== acting(ctx)) return INVALID_MOVE;
      const p = G.players[playerID];
      const i = p.hand.indexOf(type);
      if (i < 0 || p.energy < COST[type]) return INVALID_MOVE;
      if (G.stack.length === 0 && (type === 'Counter' || playerID !== ctx.currentPlayer)) return INVALID_MOVE;
      p.hand.splice(i, 1);
      p.energy -= COST[type];
      G.stack.push({ card: type, player: playerID });
      G.lastWasPass = false;
      givePriority(G, events, other(playerID));
    },
    pass: ({ G, ctx, events, playerID }) => {
      if (G.stack.length === 0 || playerID !== acting(ctx)) return INVALID_MOVE;
      if (G.lastWasPass) {
        G.lastWasPass = false;
        resolveStack(G);
        givePriority(G, events, ctx.currentPlayer); // back to the turn player's main phase
      } else {
        G.lastWasPass = true;
        givePriority(G, events, other(playerID));
      }
    },
    finishTurn: ({ G, ctx, events, playerID }) => {
      if (G.stack.length > 0 || playerID !== ctx.currentPlayer) return INVALID_MOVE;
      if (ctx.turn >= 30) {
        const me = G.players[playerID].life, them = G.players[other(playerID)].life;
        G.result = me === them ? { draw: true } : { winner: me > them ? playerID : other(playerID) };
        return;
      }
      events.endTurn();
    },
  },
  endIf: ({ G }) => G.result ?? undefined,
  ai: {
    enumerate: (G, ctx, playerID) => {
      const moves = [];
      const p = G.players[playerID];
      const response = G.stack.length > 0;
      for (const type of TYPES) {
        if (type === 'Counter' && !response) continue;
        if (p.energy >= COST[type] && p.hand.includes(type)) moves.push({ move: 'playCard', args: [type] });
      }
      moves.push(response ? { move: 'pass' } : { move: 'finishTurn' });
      return moves;
    },
  },
};

// ------------------------------------------------------------------ playouts

/** mulberry32: the playouts' move choices (the game's own randomness is bgio's seeded alea). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GAME = ProcessGameConfig({ ...DuelGame });
const REDUCER = CreateGameReducer({ game: GAME });

export function initialState(seed) {
  GAME.seed = String(seed); // read by the random plugin when the game is initialized
  return InitializeGame({ game: GAME, numPlayers: 2 });
}

/**
 * Plays `games` uniformly random games through the game reducer (the path boardgame.io's own
 * Simulate and bots use). Returns { games, moves, wins: {0,1}, draws, lifeEnds }.
 */
export function randomGames(games, seed) {
  const random = rng(seed);
  const out = { games, moves: 0, wins: { 0: 0, 1: 0 }, draws: 0, unfinished: 0 };
  for (let g = 0; g < games; g++) {
    let state = initialState(seed * 100003 + g);
    for (let n = 0; state.ctx.gameover === undefined && n < 10000; n++) {
      const player = acting(state.ctx);
      const moves = GAME.ai.enumerate(state.G, state.ctx, player);
      const m = moves[Math.floor(random() * moves.length)];
      state = REDUCER(state, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: player } });
      out.moves++;
    }
    const over = state.ctx.gameover;
    if (!over) out.unfinished++;
    else if (over.draw) out.draws++;
    else out.wins[over.winner]++;
  }
  return out;
}

/**
 * boardgame.io's MCTSBot with full playouts (playoutDepth: to the end of the game) choosing
 * one move from a state `plies` random moves into a game. Returns the iterations run.
 */
export async function mctsChoose(iterations, seed, plies = 0) {
  let state = initialState(seed);
  const random = rng(seed);
  for (let i = 0; i < plies && state.ctx.gameover === undefined; i++) {
    const player = acting(state.ctx);
    const moves = GAME.ai.enumerate(state.G, state.ctx, player);
    const m = moves[Math.floor(random() * moves.length)];
    state = REDUCER(state, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: player } });
  }
  const bot = new MCTSBot({
    game: GAME,
    enumerate: GAME.ai.enumerate,
    seed: String(seed),
    iterations: () => iterations,
    playoutDepth: () => 100000,
  });
  const { action } = await bot.play(state, acting(state.ctx));
  if (!action) throw new Error('MCTSBot found no move');
  return iterations;
}
