// Keep and share: the page's state survives a reload (persist.ts), "Share link" puts the
// definition in a link (share.ts), "Export game" downloads the game as a file and "Import
// game" replays one (record.ts, replay.ts). The page tells it of every game it loads
// (gameLoaded); the moves are followed from the game's own events.
import type { Game } from 'rulestack';
import './shell.css';
import type { PlaygroundHost } from './host.js';
import { notify } from './notices.js';
import { loadState, saveState, type KeptState } from './persist.js';
import { describeMove, download, makeRecord, movesText, MoveTrail, parseRecord, recordFileName } from './record.js';
import { Replay } from './replay.js';
import { clearShareToken, decodeDefinition, shareToken, shareUrl } from './share.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export class Keep {
  #game: Game | null = null;
  #trail: MoveTrail | null = null;
  /** The text the game on the page was loaded from (the editor may have changed since). */
  #loadedText = '';
  #replay: Replay | null = null;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** No saving while the kept state is being brought back (it would keep half of it). */
  #restoring = false;

  constructor(private readonly host: PlaygroundHost) {}

  wire(): void {
    $('share').addEventListener('click', () => void this.share());
    $('export').addEventListener('click', () => this.exportGame());
    const file = $<HTMLInputElement>('import-file');
    $('import').addEventListener('click', () => file.click());
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      file.value = ''; // the same file may be chosen again
      if (f) void this.importFile(f);
    });
    $('replay-start').addEventListener('click', () => this.#replay?.toStart());
    $('replay-step').addEventListener('click', () => this.#replay?.step());
    $('replay-all').addEventListener('click', () => this.#replay?.playAll());
    $('replay-close').addEventListener('click', () => {
      this.#replay?.close();
      this.#replay = null;
      $('import').focus(); // the bar's buttons are gone: back to the button that opened it
    });
    // edits, the seed box, the menus: keep them a moment later; and always when the page goes
    document.addEventListener('input', () => this.saveSoon());
    document.addEventListener('change', () => this.saveSoon());
    addEventListener('pagehide', () => this.save());
    // a share link pasted into the address of the open page changes only its hash
    addEventListener('hashchange', () => void this.openShareLink('The game on the page stays.'));
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.save();
    });
  }

  /** The page loaded a game from this text: follow its moves. */
  gameLoaded(game: Game, text: string): void {
    this.#trail?.detach();
    this.#game = game;
    this.#loadedText = text;
    this.#trail = new MoveTrail(game, () => {
      this.save();
      this.#replay?.update();
    });
    this.save();
    this.#replay?.update();
  }

  #moves() {
    return this.#trail?.moves ?? [];
  }

  saveSoon(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.save(), 250);
  }

  save(): void {
    clearTimeout(this.#saveTimer);
    if (this.#restoring) return;
    const g = this.host.game();
    const game = g && g === this.#game && !g.disposed && g.seed !== null ? { definition: this.#loadedText, seed: g.seed, moves: this.#moves(), botStopped: this.host.botStopped() } : null;
    const state: KeptState = { file: this.host.file(), custom: this.host.customText(), text: this.host.text(), mode: this.host.mode(), botStrength: this.host.botStrength(), game };
    saveState(state);
  }

  /**
   * At start-up: a share link's definition, else the kept state (the game replayed to where it
   * was). True when a game was started here (else the page loads its default).
   */
  async restore(): Promise<boolean> {
    if (await this.openShareLink('The page shows what it kept instead.')) return true;
    const kept = loadState();
    if (kept === null) return false;
    if ('error' in kept) {
      notify('kept', 'warn', `The page's kept state could not be read and was ignored (${kept.error}).`);
      return false;
    }
    this.#restoring = true;
    try {
      return this.#bringBack(kept.state);
    } finally {
      this.#restoring = false;
      this.save();
    }
  }

  /**
   * Loads the definition of the address's share link (at start-up, or pasted into the address
   * of the open page). False when the address is none, or a broken one (`otherwise` says
   * what the page shows then).
   */
  async openShareLink(otherwise: string): Promise<boolean> {
    const token = shareToken();
    if (token === null) return false;
    clearShareToken(); // a reload then restores the page's own state, edits included
    try {
      const text = await decodeDefinition(token);
      const example = this.host.adopt(text);
      this.host.start(text);
      notify('share', 'info', `Loaded the definition of the share link${example ? ` (${example})` : ''}.`);
      return true;
    } catch (e) {
      notify('share', 'error', `This share link cannot be read: ${e instanceof Error ? e.message : String(e)}. ${otherwise}`);
      return false;
    }
  }

  #bringBack(s: KeptState): boolean {
    if (s.custom !== null) this.host.adopt(s.custom); // the custom entry, and what its Revert goes back to
    this.host.setFile(s.file);
    this.host.setBotStrength(s.botStrength);
    this.host.setMode(s.mode);
    if (!s.game) {
      this.host.setText(s.text);
      return false;
    }
    const game = this.host.start(s.game.definition, s.game.seed);
    if (!game) notify('kept', 'warn', 'The kept game\u2019s definition no longer loads (the errors are listed under the editor).');
    else {
      // who had the device is not known: in hot-seat a hidden hand waits for the hand-over (before any move is replayed)
      this.host.forgetHolder();
      for (let i = 0; i < s.game.moves.length; i++) {
        const { player, move } = s.game.moves[i]!;
        const why = this.host.play(player, move);
        if (why !== null) {
          notify('kept', 'warn', `The kept game could not be replayed past ${describeMove(s.game.moves, i)}: ${why}. It is shown up to there.`);
          break;
        }
      }
      // (the moves are replayed first: the bot asked at the end is the one that was stopped)
      if (s.game.botStopped) this.host.holdBot();
    }
    if (s.text !== s.game.definition) this.host.setText(s.text);
    return true;
  }

  async share(): Promise<void> {
    const url = await shareUrl(this.host.text());
    const box = document.createElement('input');
    box.id = 'share-url';
    box.type = 'text'; // a text field as the others are: 44 px tall on a phone (style.css)
    box.readOnly = true;
    box.value = url;
    box.setAttribute('aria-label', 'Share link');
    box.addEventListener('focus', () => box.select());
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // no clipboard permission: the box is there to copy from
    }
    notify('share', 'info', copied ? 'Share link (copied): it opens the playground with this definition.' : 'Share link: copy it from the box; it opens the playground with this definition.', box);
    box.focus();
  }

  exportGame(): void {
    const g = this.host.game();
    if (!g || g !== this.#game || g.seed === null) {
      notify('export', 'error', 'Export game: no game is loaded (load a definition first).');
      return;
    }
    const record = makeRecord(this.#loadedText, g.seed, this.#moves(), g.stateHash());
    download(recordFileName(this.#loadedText), `${JSON.stringify(record, null, 2)}\n`);
  }

  async importFile(file: File): Promise<void> {
    let record;
    try {
      record = parseRecord(await file.text());
    } catch (e) {
      notify('import', 'error', `Import ${file.name}: ${e instanceof Error ? e.message : String(e)}. Nothing was loaded.`);
      return;
    }
    notify('import', 'info', `Imported ${file.name}: ${movesText(record.moves.length)}. Step through them with the replay bar.`);
    this.#replay?.close();
    this.#replay = new Replay(this.host, record, file.name, () => this.#moves());
    if (!this.#replay.toStart()) this.#replay = null;
  }
}
