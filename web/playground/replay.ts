// Replaying an imported game file (record.ts) move by move: the replay bar's Back to start,
// Step and Play all. Each move is played as its button would play it (host.play), so the
// board, the moves and the log are the page's own. An illegal move stops the replay and says
// which move it was; playing or undoing by hand leaves the recorded line, and the bar says so.
import type { Game } from 'rulestack';
import type { PlaygroundHost } from './host.js';
import { notify, dismiss } from './notices.js';
import { describeMove, movesText, seedFromJson, type GameRecord, type RecordedMove } from './record.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const same = (a: RecordedMove, b: RecordedMove) => a.player === b.player && JSON.stringify(a.move) === JSON.stringify(b.move);

export class Replay {
  /** How many of the record's moves the game has had played. */
  #at = 0;
  /** The move that was refused: the replay cannot go past it. */
  #stuck: number | null = null;
  /** The game toStart loaded: another one (the Load button, the picker) is off the line. */
  #game: Game | null = null;
  readonly #bar = $('replay-bar');
  readonly #title = $('replay-title');
  readonly #pos = $('replay-pos');
  readonly #start = $<HTMLButtonElement>('replay-start');
  readonly #step = $<HTMLButtonElement>('replay-step');
  readonly #all = $<HTMLButtonElement>('replay-all');

  constructor(
    private readonly host: PlaygroundHost,
    readonly record: GameRecord,
    private readonly name: string,
    /** The moves the page's game has had so far (the keep module's trail). */
    private readonly movesNow: () => readonly RecordedMove[],
  ) {}

  /** Loads the record's definition and seed: the game before its first move. False when it does not load. */
  toStart(): boolean {
    dismiss('replay');
    this.#at = 0;
    this.#stuck = null;
    // no bot plays into a replay: the record holds every player's moves
    if (this.host.mode() !== 'hotseat') this.host.setMode('hotseat');
    this.host.adopt(this.record.definition); // the picker names the file's example, or shows it as custom
    const game = this.host.start(this.record.definition, seedFromJson(this.record.seed));
    this.#game = game;
    if (!game) {
      notify('replay', 'error', `Import ${this.name}: its definition does not load (the errors are listed under the editor).`);
      this.close();
      return false;
    }
    this.#title.textContent = `Replay of ${this.name}`;
    this.#bar.hidden = false;
    this.update();
    return true;
  }

  /** Whether the game still is the record's line, at a move of it. */
  onLine(): boolean {
    const now = this.movesNow();
    return this.#game !== null && this.host.game() === this.#game && now.length === this.#at && now.every((m, i) => same(m, this.record.moves[i]!));
  }

  /** Plays the next recorded move. False at the end, off the line, or when the move is refused (the notice says which). */
  step(): boolean {
    const keyed = this.#bar.contains(document.activeElement); // Step or Play all has the focus
    try {
      return this.#playNext();
    } finally {
      if (keyed) this.#keepFocus();
    }
  }

  #playNext(): boolean {
    const moves = this.record.moves;
    if (this.#at >= moves.length || this.#stuck !== null || !this.onLine()) {
      this.update();
      return false;
    }
    const i = this.#at;
    // counted before it is played: the update the move's event brings finds the game on the
    // line, so Step stays enabled and the page leaves the focus on it (Enter, Enter steps on)
    this.#at = i + 1;
    const why = this.host.play(moves[i]!.player, moves[i]!.move);
    if (why !== null) {
      this.#at = i;
      this.#stuck = i;
      notify('replay', 'error', `Import ${this.name}: ${describeMove(moves, i)} is illegal here: ${why}. The game shown is the one before it.`);
      this.update();
      return false;
    }
    if (this.#at === moves.length) this.finished();
    this.update();
    return true;
  }

  playAll(): void {
    while (this.step());
  }

  /** The bar had the focus: at the end of the record (Step disabled, or the page took the focus to the moves) it goes to Back to start, not into the game. */
  #keepFocus(): void {
    const active = document.activeElement;
    if (!this.#bar.contains(active) || (active as HTMLButtonElement).disabled) this.#start.focus();
  }

  /** Every move replayed: the state must be the one the file recorded. */
  private finished(): void {
    const hash = this.host.game()?.stateHash();
    const want = this.record.stateHash;
    if (want === undefined || hash === want) {
      notify('replay', 'info', `Import ${this.name}: all ${movesText(this.record.moves.length)} replayed${want ? `, state ${hash} as recorded` : ''}.`);
    } else {
      notify('replay', 'warn', `Import ${this.name}: all moves replayed, but the state is ${hash} where the file recorded ${want} (another engine version or definition reading?).`);
    }
  }

  /** The bar's position text and buttons, from where the game is now. */
  update(): void {
    const n = this.record.moves.length;
    const on = this.onLine();
    // off the line, the move the replay's game is at (an Undo takes one back); another game's count says nothing
    const at = this.#game !== null && this.host.game() === this.#game ? this.movesNow().length : this.#at;
    this.#pos.textContent = on ? `move ${at} of ${n}` : `move ${at} of ${n} — the game has left the recorded moves (Back to start replays them again)`;
    this.#pos.dataset.at = String(at);
    this.#start.disabled = false;
    this.#step.disabled = !on || this.#at >= n || this.#stuck !== null;
    this.#all.disabled = this.#step.disabled;
  }

  close(): void {
    this.#bar.hidden = true;
  }
}
