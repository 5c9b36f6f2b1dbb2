// What the page (main.ts) lets the keep-and-share modules (keep.ts, replay.ts) do: read and
// set the editor, the picker and the mode, load a definition and play a move exactly as the
// page's own buttons do (so the board, the moves and the log stay the page's).
import type { Game, Move, Seed } from 'rulestack';

export interface PlaygroundHost {
  /** The game on the page, or null. */
  game(): Game | null;
  /** The editor's text. */
  text(): string;
  /** Replaces the editor's text (nothing is loaded). */
  setText(text: string): void;
  /** The example the editor's text belongs to (the picker's value): '' for the custom definition. */
  file(): string;
  /** Selects this example (or '': the custom definition) in the picker without loading its text (an unknown file: no change). */
  setFile(file: string): void;
  /** The custom definition as it was opened (what its Revert goes back to), or null when there is none. */
  customText(): string | null;
  /**
   * Text from elsewhere (a share link, a game file) is about to go in the editor: the picker
   * selects the example it is unchanged (its file is returned), else the custom definition,
   * which becomes this text (null is returned). Nothing is loaded.
   */
  adopt(text: string): string | null;
  mode(): string;
  /** Sets the mode as the Mode menu does (the page re-renders; the bot may move). */
  setMode(mode: string): void;
  botStrength(): string;
  setBotStrength(strength: string): void;
  /** Puts the text in the editor and loads it with this seed (none: a fresh one); the new game, or null when it did not load (the page shows why). */
  start(text: string, seed?: Seed): Game | null;
  /**
   * The game was brought back by a reload: nobody is known to hold the device, so in hot-seat
   * a view with cards the spectator may not see waits behind the hand-over screen.
   */
  forgetHolder(): void;
  /** Plays a move as its button does: null, or the message of why it was refused. */
  play(player: string, move: Move): string | null;
  /** Whether the bot's seat waits for "Bot, move" (Stop was pressed, or the bot failed). */
  botStopped(): boolean;
  /** Leaves the bot to act waiting for "Bot, move", as Stop does (no search, no message): a kept game whose bot was stopped. */
  holdBot(): void;
}
