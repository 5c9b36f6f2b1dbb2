// What keeps the page usable without a mouse or without sight: a live region that says what
// was played, and a focus that never falls back to <body> when a move's button goes away.

/** Says a line in the live region (#announce, polite): what the opponent or the bot just did. */
export function announce(text: string): void {
  const el = document.getElementById('announce');
  if (!el) return;
  el.textContent = text;
}

/** Gives the focus back to `el` if it is still on the page and enabled; false when it cannot. */
export function refocus(el: Element | null): boolean {
  if (!(el instanceof HTMLElement) || el === document.body || !el.isConnected || (el as HTMLButtonElement).disabled) return false;
  el.focus();
  return true;
}

/**
 * After a move the button that was clicked is gone; the focus goes to the first legal move
 * of the new position (or the button that asks a stopped bot to move), else to the moves panel
 * itself (which says who is thinking or that the game is over). A focus elsewhere (the editor, a menu, Undo while it can still undo) is left where it is.
 */
export function settleFocus(moves: HTMLElement): void {
  const active = document.activeElement;
  const lost =
    active === null || active === document.body || !active.isConnected || (active as HTMLButtonElement).disabled === true || active === moves || moves.contains(active);
  if (!lost) return;
  const first = moves.querySelector<HTMLElement>('button.move, button.handover-ask, button.bot-go');
  if (first) first.focus();
  else if (document.getElementById('handover')?.hidden === false) document.getElementById('handover-confirm')?.focus();
  else moves.focus();
}
