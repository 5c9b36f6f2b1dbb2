// The Resolution panel (issue 14): a step-through of what the resolution machine ran for a
// move (game.setTrace / game.steps()). Steps name every card, hidden ones too, so main.ts
// offers the panel only under "debug: show every view". Step reveals the next step, All
// every step, Reset none; a move keeps its reveal position until another move is shown.
import type { GameEvent, ResolutionStep } from 'rulestack';
import { h } from './render.js';

/** What the action of each queue item is ("q3" → "Bolt"), from events that name both. */
export function itemActions(events: readonly GameEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const ev of events) {
    const e = ev as { item?: unknown; action?: unknown };
    if (typeof e.item === 'string' && typeof e.action === 'string') names.set(e.item, e.action);
  }
  return names;
}

/** An event in a few words: its type and what it is about ("DamageTaken Goblin#2"). */
function eventWords(ev: GameEvent): string {
  const e = ev as { type?: unknown; entity?: unknown; phase?: unknown; item?: unknown };
  return [e.type, e.entity ?? e.phase ?? e.item].filter((w) => typeof w === 'string').join(' ');
}

/** One step as a line: "execute q3 Bolt", "event DamageTaken Goblin#2 (before)", "mutation action Bolt #0". */
export function stepLine(s: ResolutionStep, actions: ReadonlyMap<string, string>): string {
  const words: string[] = [s.step];
  if (s.item !== undefined) words.push(s.item, ...(actions.has(s.item) ? [actions.get(s.item)!] : []));
  if (s.list !== undefined) words.push(s.list);
  if (s.index !== undefined) words.push(`#${s.index}`);
  if (s.event) words.push(eventWords(s.event));
  // an event's stage is a word (before, apply, after, done); an item's is the machine's own counter
  if (s.step === 'event' && typeof s.stage === 'string') words.push(`(${s.stage})`);
  return words.join(' ');
}

/** What the panel shows: the steps of one move (undefined: it was made untraced), with its title. */
export interface MoveTrace {
  title: string;
  steps: ResolutionStep[] | undefined;
  /** The game's events so far, to name queue items (called only when the steps change). */
  events: () => readonly GameEvent[];
}

export class ResolutionPanel {
  #shown: ResolutionStep[] | undefined | null = null;
  #lines: string[] = [];
  #stages: Array<string | number | undefined> = [];
  #depths: number[] = [];
  #revealed = 0;
  readonly #root: HTMLElement;
  readonly #title: HTMLElement;
  readonly #list: HTMLElement;
  readonly #pos: HTMLElement;
  readonly #step: HTMLButtonElement;
  readonly #all: HTMLButtonElement;
  readonly #reset: HTMLButtonElement;

  constructor(root: HTMLElement) {
    const q = <T extends HTMLElement>(sel: string) => root.querySelector(sel) as T;
    this.#root = root;
    this.#title = q('.resolution-move');
    this.#list = q('.resolution-steps');
    this.#pos = q('.resolution-pos');
    this.#step = q('.resolution-step');
    this.#all = q('.resolution-all');
    this.#reset = q('.resolution-reset');
    this.#press(this.#step, () => this.#revealed + 1);
    this.#press(this.#all, () => this.#lines.length);
    this.#press(this.#reset, () => 0);
  }

  /** Shows the move's steps (null: no move yet), or hides the panel (debug off). */
  show(on: boolean, trace: MoveTrace | null): void {
    this.#root.hidden = !on;
    if (!on) return;
    const steps = trace === null ? null : trace.steps;
    if (steps === this.#shown && trace !== null) return; // a re-render keeps the reveal position
    this.#shown = steps;
    const actions = steps ? itemActions(trace!.events()) : new Map<string, string>();
    this.#lines = (steps ?? []).map((s) => stepLine(s, actions));
    this.#stages = (steps ?? []).map((s) => s.stage);
    this.#depths = (steps ?? []).map((s) => s.depth);
    this.#title.textContent =
      trace === null ? 'No move yet.'
      : trace.steps === undefined ? `${trace.title}: not traced (debug was off when it was made).`
      : trace.steps.length === 0 ? `${trace.title}: this move set off no steps.`
      : `${trace.title}: ${trace.steps.length} steps.`;
    this.#reveal(0);
  }

  #reveal(n: number): void {
    this.#revealed = Math.max(0, Math.min(n, this.#lines.length));
    const items = this.#lines.slice(0, this.#revealed).map((line, i) =>
      h(
        'li',
        {
          class: i === this.#revealed - 1 ? 'current' : undefined,
          'aria-current': i === this.#revealed - 1 ? 'step' : undefined,
          style: `--depth: ${Math.max(0, this.#depths[i]! - 1)}`,
          title: this.#stages[i] !== undefined ? `depth ${this.#depths[i]}, stage ${this.#stages[i]}` : `depth ${this.#depths[i]}`,
        },
        line,
      ),
    );
    this.#list.replaceChildren(...items);
    const none = this.#lines.length === 0;
    this.#step.disabled = none || this.#revealed >= this.#lines.length;
    this.#all.disabled = none || this.#revealed >= this.#lines.length;
    this.#reset.disabled = this.#revealed === 0;
    this.#pos.textContent = none ? '' : `${this.#revealed} of ${this.#lines.length} shown`;
  }

  /** A control reveals up to its count; a control it disabled hands the focus on (Step or Reset), so the keyboard stays here. */
  #press(button: HTMLButtonElement, count: () => number): void {
    button.addEventListener('click', () => {
      this.#reveal(count());
      if (button.disabled) (this.#step.disabled ? this.#reset : this.#step).focus();
    });
  }
}
