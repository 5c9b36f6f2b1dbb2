// Notices of the page shell (#notices, above the panels): a restored or refused state, a share
// link, an import's error. They stay until closed (a game load does not clear them, unlike the
// game panel's message), and a new one of the same topic replaces the old.
import { refocus, settleFocus } from './a11y.js';

export type NoticeKind = 'error' | 'warn' | 'info';

const box = () => document.getElementById('notices')!;

/** Shows a notice; `extra` (e.g. a link box) goes after the text. Returns its element. */
export function notify(topic: string, kind: NoticeKind, text: string, extra?: HTMLElement): HTMLElement {
  dismiss(topic);
  const el = document.createElement('div');
  el.className = `notice ${kind}`;
  el.dataset.topic = topic;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const msg = document.createElement('span');
  msg.className = 'notice-text';
  msg.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'notice-close';
  close.title = 'Close';
  close.setAttribute('aria-label', 'Close this notice');
  close.textContent = '×';
  // the control that had the focus when the notice came (Share link…) gets it back when it is closed
  const opener = document.activeElement;
  close.addEventListener('click', () => {
    const keyed = el.contains(document.activeElement);
    el.remove();
    if (keyed && !refocus(opener)) settleFocus(document.getElementById('moves')!);
  });
  el.append(msg);
  if (extra) el.append(extra);
  el.append(close);
  box().append(el);
  return el;
}

export function dismiss(topic: string): void {
  for (const el of box().querySelectorAll<HTMLElement>('.notice')) if (el.dataset.topic === topic) el.remove();
}
