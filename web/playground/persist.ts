// What the page keeps across a reload, in localStorage: the editor's text, the example it
// belongs to, the mode and bot strength, and the game in progress as a record (the definition
// it was loaded from, its seed, its moves), which replays it exactly, and whether its bot was
// stopped. One key per page path,
// so two playgrounds on one host keep apart. A stored value that cannot be read is ignored,
// with a reason the page shows; storage that refuses (private mode, full) only stops keeping.
import { checkMoves, checkSeed, RecordError, seedFromJson, seedToJson, type RecordedMove, type SeedJson } from './record.js';
import type { Seed } from 'rulestack';

const VERSION = 1;

export interface KeptGame {
  definition: string;
  seed: Seed;
  moves: RecordedMove[];
  /** The bot to act was stopped (Stop, or a bot error): its seat waits for "Bot, move". */
  botStopped: boolean;
}

export interface KeptState {
  /** The example the editor's text belongs to (the picker's value): '' for the custom definition. */
  file: string;
  /** The custom definition (a share link's, an imported game's) as it was opened, or null. */
  custom: string | null;
  /** The editor's text, edited or not, loaded or not. */
  text: string;
  mode: string;
  botStrength: string;
  game: KeptGame | null;
}

const key = () => `rulestack-playground:${location.pathname}`;

interface Stored {
  v: number;
  file: string;
  /** (Absent in what an older page kept.) */
  custom?: string | null;
  text: string;
  mode: string;
  botStrength: string;
  /** (botStopped: absent in what an older page kept.) */
  game: { definition: string; seed: SeedJson; moves: RecordedMove[]; botStopped?: boolean } | null;
}

export function saveState(s: KeptState): void {
  const stored: Stored = {
    v: VERSION,
    file: s.file,
    custom: s.custom,
    text: s.text,
    mode: s.mode,
    botStrength: s.botStrength,
    game: s.game && { definition: s.game.definition, seed: seedToJson(s.game.seed), moves: s.game.moves, botStopped: s.game.botStopped },
  };
  try {
    localStorage.setItem(key(), JSON.stringify(stored));
  } catch (e) {
    console.warn('rulestack playground: cannot keep the page state in localStorage', e);
  }
}

/** The kept state: null when there is none, { error } when what is stored will not do. */
export function loadState(): { state: KeptState } | { error: string } | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(key());
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    return { state: parseStored(raw) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function forgetState(): void {
  try {
    localStorage.removeItem(key());
  } catch {
    // nothing kept, nothing to forget
  }
}

const str = (o: Record<string, unknown>, k: string): string => {
  if (typeof o[k] !== 'string') throw new RecordError(k, 'must be a string');
  return o[k] as string;
};

function parseStored(raw: string): KeptState {
  let d: unknown;
  try {
    d = JSON.parse(raw);
  } catch {
    throw new RecordError('', 'not JSON');
  }
  if (typeof d !== 'object' || d === null || Array.isArray(d)) throw new RecordError('', 'not an object');
  const o = d as Record<string, unknown>;
  if (o.v !== VERSION) throw new RecordError('v', `must be ${VERSION}`);
  let game: KeptGame | null = null;
  if (o.game !== null) {
    if (typeof o.game !== 'object' || o.game === undefined || Array.isArray(o.game)) throw new RecordError('game', 'must be an object or null');
    const g = o.game as Record<string, unknown>;
    if (g.botStopped !== undefined && typeof g.botStopped !== 'boolean') throw new RecordError('game.botStopped', 'must be a boolean');
    game = { definition: str(g, 'definition'), seed: seedFromJson(checkSeed(g.seed, 'game.seed')), moves: checkMoves(g.moves, 'game.moves'), botStopped: g.botStopped === true };
  }
  if (o.custom !== undefined && o.custom !== null && typeof o.custom !== 'string') throw new RecordError('custom', 'must be a string or null');
  return { file: str(o, 'file'), custom: (o.custom as string | null | undefined) ?? null, text: str(o, 'text'), mode: str(o, 'mode'), botStrength: str(o, 'botStrength'), game };
}
