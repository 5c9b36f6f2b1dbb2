// Each viewer's log from its first event (a player's, or the spectator's: null), for the
// clients that need events the live game no longer keeps (it keeps only its last ones: log(p)
// costs time in proportion to what it returns, and is called for each seat after every move).
// A viewer's log is replayed from the record once, when first needed, then extended after
// every move with the move's events, so that sending it again costs a copy: a replay compiles
// the definition and plays every move, on the thread every room runs on.
//
// A move's events come from the live game's log. A move with more events than that keeps
// (a loop in a definition) takes them from the wide game: a replay kept in step with the live
// one, made at the first such move, whose log keeps twice the most events a move has had for
// a viewer (made again, larger, when a move passes that: a few times at most in a room).
import { replayRecord } from './game-record.mjs';

/** The most events kept of a viewer's log by default (a local game's default logLimit): a client that asks for older ones is told they were dropped. */
export const HISTORY_LIMIT = 100_000;
const MAX_LOG_LIMIT = 10_000_000; // (the engine's largest logLimit)

export class LogHistory {
  #rs;
  #record;
  #limit;
  #logs = new Map(); // viewer → { dropped, events }
  #wide = null;

  /** `record()`: the room's record now ({ header, moves }), the state the live game is in; `limit`: the most events kept of each log. */
  constructor(rs, record, limit = HISTORY_LIMIT) {
    this.#rs = rs;
    this.#record = record;
    this.#limit = limit;
  }

  /**
   * The viewer's events from log index `from`: { from, dropped, events } (`from` raised to the
   * first event kept, and `dropped` how many are not). A viewer not kept yet is replayed, with
   * `others` (the viewers of the clients now, who may need theirs soon) in the same replay.
   */
  since(viewer, from, others = []) {
    if (!this.#logs.has(viewer)) this.#replay([viewer, ...others].filter((v, i, all) => !this.#logs.has(v) && all.indexOf(v) === i));
    const { dropped, events } = this.#logs.get(viewer);
    const start = Math.max(from, dropped);
    return { from: start, dropped, events: events.slice(start - dropped) };
  }

  /** A move was made and recorded: each viewer kept takes its events (liveLog(viewer): the live game's log now). */
  moved({ player, move }, liveLog) {
    try {
      this.#wide?.apply(player, move);
    } catch {
      this.#dropWide(); // (made again if needed)
    }
    const behind = [];
    for (const [viewer, kept] of this.#logs) {
      const log = liveLog(viewer);
      const have = kept.dropped + kept.events.length;
      if (log.dropped <= have) this.#append(kept, log, have);
      else behind.push([viewer, kept, log.dropped + log.length - have]);
    }
    if (behind.length === 0) return;
    try {
      const most = Math.max(...behind.map(([, , missing]) => missing));
      if (!this.#wide || this.#wide.logLimit < most) {
        const limit = Math.min(MAX_LOG_LIMIT, Math.max(2 * most, 2 * (this.#wide?.logLimit ?? 0)));
        this.#dropWide();
        this.#wide = replayRecord(this.#rs, this.#record(), limit);
      }
      for (const [viewer, kept] of behind) this.#append(kept, this.#wide.log(viewer), kept.dropped + kept.events.length);
    } catch (e) {
      // (not expected: the record replays to the live game) those viewers are replayed when next needed
      console.error('rulestack room: a log could not be extended:', e);
      for (const [viewer] of behind) this.#logs.delete(viewer);
    }
  }

  dispose() {
    this.#dropWide();
    this.#logs.clear();
  }

  #replay(viewers) {
    const game = replayRecord(this.#rs, this.#record(), this.#limit);
    try {
      for (const v of viewers) {
        const log = game.log(v);
        this.#logs.set(v, { dropped: log.dropped, events: [...log] });
      }
    } finally {
      game.dispose();
    }
  }

  /** The events of `log` past the `have` kept, added to them; the oldest cut past the limit (a quarter more first: cut in batches). */
  #append(kept, log, have) {
    if (log.dropped > have) throw new Error(`the log kept ends at event ${have}, but the game's starts at ${log.dropped}`);
    for (let i = have - log.dropped; i < log.length; i++) kept.events.push(log[i]);
    if (kept.events.length > this.#limit * 1.25) {
      const cut = kept.events.length - this.#limit;
      kept.events.splice(0, cut);
      kept.dropped += cut;
    }
  }

  #dropWide() {
    this.#wide?.dispose();
    this.#wide = null;
  }
}

