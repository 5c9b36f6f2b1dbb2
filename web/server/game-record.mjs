// A game record: the header a room starts from and the moves applied since. Replaying it
// with the package gives the same game (the engine is deterministic for a definition and a
// seed), which is how a room is resumed and how tests check one.
import { createHash } from 'node:crypto';
import { exampleDefinition, requestError } from './options.mjs';

/** sha256 (hex) of the definition as the engine loaded it (game.definitionJson). */
export function definitionHash(definitionJson) {
  return createHash('sha256').update(definitionJson).digest('hex');
}

/**
 * The header of a new game's record. A custom definition is stored as the engine's JSON of
 * it; an example only by name (and the hash, checked when it is resumed). seatKeys: the
 * hashes of the seats' keys (seat-keys.mjs), which a resumed room's seats are taken back with.
 */
export function recordHeader(game, parsed, players, seatKeys) {
  return {
    version: 1,
    game: parsed.source.game ?? null,
    definition: parsed.source.game ? null : game.definitionJson,
    definitionHash: definitionHash(game.definitionJson),
    seed: game.seed,
    // a seed the creator gave: they can work out the hidden cards (the others are told so)
    seedChosen: parsed.seed !== undefined,
    players,
    bots: parsed.bots,
    botsForEmptySeats: parsed.botsForEmptySeats,
    decisionSeconds: parsed.decisionSeconds,
    graceSeconds: parsed.graceSeconds,
    botDelayMs: parsed.botDelayMs,
    listed: parsed.listed,
    seatKeys,
  };
}

/** A new game in the state the record reaches: its definition, seed, then every move. */
export function replayRecord(rs, { header, moves }, logLimit = undefined) {
  const game = rs.createGame(header.game ? exampleDefinition(header.game) : header.definition, { seed: header.seed, logLimit });
  const hash = definitionHash(game.definitionJson);
  if (hash !== header.definitionHash) {
    game.dispose();
    throw requestError(`the record's definition hash ${header.definitionHash} is not the definition's (${hash}): the game changed since the record was made`);
  }
  moves.forEach((m, i) => {
    try {
      game.apply(m.player, m.move);
    } catch (e) {
      game.dispose();
      throw requestError(`move ${i + 1} of the record is refused on replay (${e.reason ?? ''}: ${e.message})`);
    }
  });
  return game;
}
