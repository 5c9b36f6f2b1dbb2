// "Play online" (issue 17): the loaded definition played through a rulestack server
// (web/server/, `npm run server`) with the package's client, imported as a user imports it
// ('rulestack/client'). The room holds the game; this page holds only what the room sent
// this seat (or the spectator), and draws it with render.ts as a local game is drawn.
// A room's creator gets a player link and a spectator link; opening one joins the room.
import { IllegalMoveError } from 'rulestack';
import type { GameEvent, GameView, Move } from 'rulestack';
// the client (with @colyseus/sdk) is loaded when a room is first joined: not in the first script
import type { ListedRoom, OnlineGame, RoomUpdate, RoomWatch } from 'rulestack/client';
const client = () => import('rulestack/client');
import { h, moveEntities, moveErrorText, moveLabel, Names, renderBoard, renderEvents, renderPrompt, renderSummary, resultText, useDefinition } from './render.js';
import { checkServer, defaultServer, onlineParams, roomLink } from './online-links.js';
import { refocus } from './a11y.js';
import './online.css';

export interface OnlineHost {
  /** The loaded game's definition (the engine's JSON of it), or null when none loaded. */
  definition(): string | null;
}

/** One group of the log: the events one update brought, and what caused them. */
interface LogGroup {
  title: string;
  mover: string | null;
  passed: boolean;
  events: GameEvent[];
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const baseName = new Names(null).player;
/** sessionStorage key of a seat's reconnection token, so a reload takes the seat back. */
const tokenKey = (room: string) => `rulestack-online:${room}`;

export function initOnline(host: OnlineHost): void {
  const panel = $('online');
  const localPanel = panel.previousElementSibling as HTMLElement; // the local game panel
  const params = onlineParams(location.search);

  const server = h('input', { id: 'online-server', type: 'text', spellcheck: 'false', autocomplete: 'off', size: '28', title: 'The rulestack server (npm run server); ?server= in the address sets it' }) as HTMLInputElement;
  server.value = params.server ?? defaultServer(location);
  const seed = h('input', { id: 'online-seed', type: 'text', placeholder: 'server draws', autocomplete: 'off', spellcheck: 'false', size: '10', title: 'Empty: the server draws a seed nobody knows. A seed given here lets whoever knows it work out the deal' }) as HTMLInputElement;
  const listed = h('input', { id: 'online-listed', type: 'checkbox', title: "Anyone who opens Play online on this server sees the room under Open rooms, and may join or watch it; else only a link finds it" }) as HTMLInputElement;
  const listedLabel = h('label', null, listed, ' List it in the lobby');
  const create = h('button', { id: 'online-create', class: 'primary', type: 'button', title: 'Create a room on the server for the loaded definition and take its first seat' }, 'Create room') as HTMLButtonElement;
  const refresh = h('button', { id: 'online-refresh', type: 'button', title: "List again the rooms of this server's lobby" }, 'Refresh') as HTMLButtonElement;
  const lobbyList = h('ul', { id: 'online-rooms', class: 'online-rooms' });
  const lobby = h('section', { id: 'online-lobby', class: 'online-lobby', 'aria-label': 'Open rooms' }, h('h2', null, 'Open rooms ', refresh), lobbyList);
  const leaveBtn = h('button', { id: 'online-leave', type: 'button', title: 'Leave the room (your seat is freed) and go back to the local game' }, 'Back to local game') as HTMLButtonElement;
  const status = h('p', { id: 'online-status', class: 'online-status', role: 'status', 'aria-live': 'polite' });
  const message = h('div', { id: 'online-message', class: 'message', role: 'alert' });
  message.hidden = true;
  const links = h('div', { id: 'online-links', class: 'online-links' });
  links.hidden = true;
  const summary = h('div', { id: 'online-summary', class: 'summary' });
  const board = h('div', { id: 'online-board', class: 'board' });
  const moves = h('div', { id: 'online-moves', role: 'group', tabindex: '-1', 'aria-label': 'Legal moves' });
  const log = h('div', { id: 'online-log', class: 'log' });
  const logReader = h('span', { class: 'hint', id: 'online-log-reader' }, 'newest first');
  const seedLabel = h('label', null, 'Seed ', seed);
  // in the page only while it is open: its board and moves have the local panel's classes and ids
  const content = [
    h('div', { class: 'toolbar' }, h('label', null, 'Server ', server), seedLabel, listedLabel, create, leaveBtn),
    status,
    message,
    lobby,
    links,
    summary,
    h(
      'div',
      { class: 'game-columns' },
      board,
      h('aside', { class: 'side' }, h('section', { class: 'moves-panel' }, h('h2', null, 'Moves'), moves), h('section', { class: 'log-panel' }, h('h2', null, 'Event log ', logReader), log)),
    ),
  ];

  let game: OnlineGame | null = null;
  let groups: LogGroup[] = [];
  let lastView: GameView | null = null;
  /** The move of ours the room is answering (its buttons wait meanwhile). */
  let sent: Move | null = null;

  const name = (id: string) => baseName(id) + (game?.seat === id ? ' (you)' : '');

  function show(text: string, kind: 'error' | 'info' = 'error'): void {
    message.textContent = text;
    message.className = `message ${kind}`;
    message.hidden = false;
  }
  function clear(): void {
    message.hidden = true;
    message.textContent = '';
  }

  function open(): void {
    if (panel.childElementCount === 0) panel.append(...content);
    localPanel.hidden = true;
    panel.hidden = false;
  }

  async function close(): Promise<void> {
    stopLobby();
    const g = game;
    game = null;
    if (g) {
      sessionStorage.removeItem(tokenKey(g.roomId));
      await g.leave().catch(() => undefined);
    }
    history.replaceState(null, '', location.pathname);
    useDefinition(host.definition() ?? '{}'); // the local game's names again
    render(); // empties the panel: its board's ids are the local board's
    status.textContent = '';
    clear();
    panel.hidden = true;
    panel.replaceChildren();
    localPanel.hidden = false;
    if (hidEditor) showEditor(true);
    $('play-online').focus();
  }

  /** Why a connection failed, in words that say what to check (the client's error keeps the server's or network's answer as its cause). */
  function connectError(e: unknown, what: string): string {
    const said = (x: unknown) => (x && typeof x === 'object' && 'message' in x ? String((x as { message: unknown }).message) : String(x));
    const cause = e instanceof Error && e.cause !== undefined ? e.cause : e;
    const text = said(cause);
    const unreachable = cause instanceof TypeError || /fetch|network|ECONNREFUSED|\[object (Progress)?Event\]/i.test(text) || text === '';
    if (unreachable) return `${what}: cannot reach the server at ${server.value} (is \`npm run server\` running there?)${text ? ` — ${text}` : ''}`;
    return `${what}: ${text}`;
  }

  /** Takes in a joined seat (or spectator): wires its updates and draws it. */
  function attach(g: OnlineGame): void {
    game = g;
    groups = [];
    lastView = null;
    sent = null;
    useDefinition(g.definitionJson); // the room's: names and rules text for a joiner too
    if (g.seat !== null) {
      sessionStorage.setItem(tokenKey(g.roomId), g.reconnectionToken);
      // each reconnection after a drop gives a new token: the old one would not rejoin after a reload
      g.on('reconnect', (token) => sessionStorage.setItem(tokenKey(g.roomId), token));
    }
    const serverUrl = server.value;
    const playerLink = roomLink(location.href, serverUrl, g.roomId, false);
    const spectatorLink = roomLink(location.href, serverUrl, g.roomId, true);
    history.replaceState(null, '', g.seat === null ? spectatorLink : playerLink); // a reload rejoins
    links.replaceChildren(linkRow('online-player-link', 'Player link', playerLink, 'Send it to the other player: it opens this page and takes the free seat'), linkRow('online-spectator-link', 'Spectator link', spectatorLink, 'Whoever opens it watches: the spectator view, no hand shown'));
    links.hidden = false;
    setInRoom(true);
    takeEvents(g.log(), null);
    g.on('update', (u) => {
      if (game !== g) return;
      takeEvents(u.events.slice(Math.max(0, groupsLength() - u.from)), u);
      render();
    });
    g.on('timeout', (t) => {
      if (game === g) show(`${name(t.player)} ran out of time: the room ${t.passed ? 'passed for them' : 'moved for them'}.`, 'info');
    });
    g.on('leave', (code) => {
      if (game !== g) return;
      const over = g.view().result !== null;
      show(over ? `The game is over; the room closed the connection (code ${code}).` : `The connection to the room was closed (code ${code}): the room is gone, or the server stopped. Reload this page to try to take the seat back.`, over ? 'info' : 'error');
      render();
    });
    render();
  }

  /** How many events the groups hold (the log index the next update's fresh events start at). */
  function groupsLength(): number {
    return groups.reduce((n, g) => n + g.events.length, 0) + (game?.log().dropped ?? 0);
  }

  /** Files an update's new events as one log group: the setup, our move, or another player's. */
  function takeEvents(events: GameEvent[], u: RoomUpdate | null): void {
    const before = lastView;
    if (u) lastView = u.view;
    else lastView = game!.view();
    if (events.length === 0) return;
    if (!before) {
      groups.push({ title: 'setup', mover: null, passed: false, events });
      return;
    }
    const mine = u?.ack !== undefined && sent !== null;
    const mover = mine ? game!.seat : before.toAct.length === 1 ? before.toAct[0]! : null;
    const move = mine ? sent : null;
    if (mine) sent = null;
    const title = move ? `${name(mover!)}: ${moveLabel(move, before)}` : mover ? `${name(mover)} moved` : 'a move';
    groups.push({ title, mover, passed: move?.action === 'pass' || (!move && events.some((e) => e.type === 'Pass' && e.player === mover)), events });
  }

  function linkRow(id: string, label: string, url: string, title: string): HTMLElement {
    const input = h('input', { id, type: 'text', readonly: '', value: url, title, 'aria-label': label }) as HTMLInputElement;
    const copy = h('button', { type: 'button', class: 'copy', 'data-copies': id }, 'Copy') as HTMLButtonElement;
    copy.addEventListener('click', async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = 'Copied';
      } catch {
        copy.textContent = 'Select and copy (Ctrl+C)'; // no clipboard permission: the text is selected
      }
    });
    return h('div', { class: 'link-row' }, h('label', { for: id }, label), input, copy);
  }

  /** In a room the server is fixed and there is nothing to create or join. */
  function setInRoom(inRoom: boolean): void {
    if (inRoom) stopLobby(); // (nothing to join meanwhile)
    server.disabled = inRoom;
    create.hidden = seedLabel.hidden = listedLabel.hidden = lobby.hidden = inRoom;
    create.disabled = false;
  }

  /** The lobby being watched while no room is joined: its list kept up to date (watchRooms). */
  let lobbyWatch: RoomWatch | null = null;
  let lobbyTicket = 0; // (a newer watch, or none, makes an older one's answers stale)

  function stopLobby(): void {
    lobbyTicket++;
    void lobbyWatch?.close();
    lobbyWatch = null;
    refresh.disabled = false;
  }

  /** The lobby's rooms (those created listed), each to join or to watch, as they come and go. */
  async function watchLobby(): Promise<void> {
    stopLobby();
    const ticket = lobbyTicket;
    const current = () => ticket === lobbyTicket && !game;
    let url: string;
    try {
      url = checkServer(server.value);
    } catch (e) {
      lobbyList.replaceChildren(h('li', { class: 'hint' }, `Cannot list the rooms: ${(e as Error).message}`));
      return;
    }
    lobbyList.replaceChildren(h('li', { class: 'hint' }, 'Listing…'));
    refresh.disabled = true;
    try {
      const { watchRooms } = await client();
      const watch = await watchRooms(url, (rooms) => current() && showRooms(rooms), {
        onClose: (e) => {
          if (!current()) return;
          lobbyWatch = null;
          lobbyList.replaceChildren(h('li', { class: 'hint' }, `The server's lobby closed the connection (${e.message.replace(/^.*\((\d+)\)$/, 'code $1')}): Refresh lists the rooms again.`));
        },
      });
      if (current()) lobbyWatch = watch;
      else void watch.close();
    } catch (e) {
      if (current()) lobbyList.replaceChildren(h('li', { class: 'hint' }, connectError(e, 'Cannot list the rooms')));
    } finally {
      if (ticket === lobbyTicket) refresh.disabled = false;
    }
  }

  function showRooms(rooms: ListedRoom[]): void {
    // the button that has the focus gets it back in the new list (a keyboard user is not thrown out of it by another room's change)
    const focused = document.activeElement instanceof HTMLElement && lobbyList.contains(document.activeElement) ? document.activeElement : null;
    const again = focused ? `button[data-room="${CSS.escape(focused.dataset.room ?? '')}"]${focused.textContent === 'Watch' ? ':not(.primary)' : '.primary'}` : null;
    renderRooms(rooms);
    if (again) (lobbyList.querySelector<HTMLElement>(again) ?? lobbyList.querySelector<HTMLElement>('button:not(:disabled)'))?.focus();
  }

  function renderRooms(rooms: ListedRoom[]): void {
    if (rooms.length === 0) {
      lobbyList.replaceChildren(h('li', { class: 'hint' }, 'No listed room on this server: create one with “List it in the lobby”, or open a link you were sent.'));
      return;
    }
    lobbyList.replaceChildren(
      ...rooms.map((r) => {
        const what = r.name ?? r.game ?? 'a game';
        const seats = r.openSeats.length === 0 ? 'no open seat' : `open: ${r.openSeats.map(baseName).join(', ')}`;
        const joinBtn = h('button', { type: 'button', class: 'primary', 'data-room': r.roomId, title: `Take ${r.openSeats.length ? baseName(r.openSeats[0]!) + "'s seat" : 'a seat'} in room ${r.roomId}` }, 'Join') as HTMLButtonElement;
        joinBtn.disabled = r.openSeats.length === 0;
        joinBtn.addEventListener('click', () => void joinRoom(r.roomId, false));
        const watchBtn = h('button', { type: 'button', 'data-room': r.roomId, title: `Watch room ${r.roomId}: the spectator view` }, 'Watch') as HTMLButtonElement;
        watchBtn.addEventListener('click', () => void joinRoom(r.roomId, true));
        return h('li', { class: 'online-room', 'data-room': r.roomId }, h('span', null, `${what} — ${seats} — ${r.clients} connected`, r.seedChosen ? ' (seed chosen by its creator)' : ''), joinBtn, watchBtn);
      }),
    );
  }

  function render(): void {
    const g = game;
    if (!g) {
      summary.replaceChildren();
      board.replaceChildren();
      moves.replaceChildren();
      log.replaceChildren();
      links.hidden = true;
      setInRoom(false);
      return;
    }
    const view = g.view();
    const who = g.seat === null ? 'spectator' : name(g.seat);
    status.textContent = `Room ${g.roomId} on ${server.value} — you are ${g.seat === null ? 'a spectator' : baseName(g.seat)}.` +
      (g.seedChosen ? ' Its creator chose the seed, so they can work out the hidden cards.' : '') + (view.result ? '' : waitingText(view));
    summary.replaceChildren(renderSummary(view, name, who));
    board.replaceChildren(renderBoard(view, name, `online:${g.seat ?? ''}`));
    renderMoves(g, view);
    logReader.textContent = `as ${who === 'spectator' ? 'the spectator' : who} sees it, newest first`;
    log.replaceChildren(
      ...groups
        .map((grp, i) => h('details', { class: 'log-group', open: i >= groups.length - 3 ? '' : undefined }, h('summary', null, h('span', { class: 'n' }, `#${i}`), ` ${grp.title}`, h('span', { class: 'hint' }, ` ${grp.events.length} events`)), renderEvents(grp.events, grp.mover, grp.passed, name)))
        .reverse(),
    );
  }

  function waitingText(view: GameView): string {
    if (game?.seat === null) return '';
    return view.toAct.includes(game!.seat!) ? ' Your move.' : ` Waiting for ${view.toAct.map(name).join(', ') || 'the other players'}.`;
  }

  function renderMoves(g: OnlineGame, view: GameView): void {
    moves.replaceChildren();
    if (view.result) {
      moves.append(h('p', { class: 'over' }, `Game over: ${resultText(view.result, name)}.`));
      return;
    }
    const prompt = renderPrompt(view, name);
    if (prompt) moves.append(prompt);
    if (g.seat === null) {
      moves.append(h('p', { class: 'hint' }, `Watching: ${view.toAct.map(name).join(', ') || 'nobody'} to act.`));
      return;
    }
    const legal = g.legalMoves();
    if (legal.length === 0) {
      moves.append(h('p', { class: 'hint' }, view.toAct.includes(g.seat) ? 'no legal move' : `Waiting for ${view.toAct.map(name).join(', ') || 'the other players'}.`));
      return;
    }
    const list = h('div', { class: 'move-list' });
    for (const move of legal) {
      const kind = move.action === 'pass' ? 'pass' : typeof move.decision === 'string' ? (move.accept === false ? 'decline' : 'decision') : 'action';
      const btn = h('button', { type: 'button', class: `move ${kind}`, 'data-player': g.seat, 'data-move': JSON.stringify(move) }, moveLabel(move, view)) as HTMLButtonElement;
      btn.disabled = sent !== null;
      btn.addEventListener('click', () => void play(g, move));
      const ids = moveEntities(move);
      for (const on of ['mouseenter', 'focus']) btn.addEventListener(on, () => highlight(ids, true));
      for (const off of ['mouseleave', 'blur']) btn.addEventListener(off, () => highlight(ids, false));
      list.append(btn);
    }
    moves.append(h('div', { class: 'move-group', 'data-player': g.seat }, h('h3', null, name(g.seat)), list));
  }

  function highlight(ids: string[], on: boolean): void {
    for (const id of ids) for (const el of board.querySelectorAll(`[data-entity="${CSS.escape(id)}"]`)) el.classList.toggle('hl', on);
  }

  async function play(g: OnlineGame, move: Move): Promise<void> {
    clear();
    sent = move;
    for (const b of moves.querySelectorAll<HTMLButtonElement>('button.move')) b.disabled = true;
    try {
      await g.apply(g.seat!, move);
    } catch (e) {
      sent = null;
      if (e instanceof IllegalMoveError) show(`The room refused the move: ${moveErrorText(e.reason, e.message).text}`);
      else show(`The move was not made: ${e instanceof Error ? e.message : String(e)}`);
      render();
    }
    (moves.querySelector<HTMLElement>('button.move') ?? moves).focus();
  }

  async function connect(what: string, task: () => Promise<OnlineGame>): Promise<void> {
    clear();
    open();
    let url: string;
    try {
      url = checkServer(server.value);
    } catch (e) {
      show(`${what}: ${(e as Error).message}`);
      return;
    }
    server.value = url;
    status.textContent = `${what}: connecting to ${url}…`;
    const from = document.activeElement; // Create room, or a room's Join
    create.disabled = true;
    try {
      attach(await task());
    } catch (e) {
      status.textContent = 'Not connected.';
      create.disabled = false;
      show(connectError(e, what));
      // the focus fell to <body> as Create room was disabled: back on the control that asked, if it is still there
      if (document.activeElement === null || document.activeElement === document.body) refocus(from);
    }
  }

  function createRoom(): Promise<void> {
    return connect('Cannot create the room', async () => {
      const definitionJson = host.definition();
      if (definitionJson === null) throw new Error('no definition is loaded: load one (it must load without errors) first');
      const s = seed.value.trim();
      const seedOption = s === '' ? {} : { seed: /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : s };
      const { join } = await client();
      return join(server.value, { definition: definitionJson, ...seedOption, listed: listed.checked });
    });
  }

  /** Whether this panel hid the editor (a joiner's editor holds another definition than the room's). */
  let hidEditor = false;
  function showEditor(show: boolean): void {
    const hidden = $('layout').classList.contains('no-editor');
    if (hidden === !show) return;
    $('toggle-editor').click(); // as the button does it (its label and state follow)
    hidEditor = !show;
  }

  /** Opens a room's link: takes the seat back if this tab held one (a reload), else joins. */
  function joinRoom(room: string, spectator: boolean): Promise<void> {
    showEditor(false);
    return connect(`Cannot join room ${room}`, async () => {
      const { join, rejoin } = await client();
      const token = spectator ? null : sessionStorage.getItem(tokenKey(room));
      if (token) {
        try {
          return await rejoin(server.value, token);
        } catch {
          sessionStorage.removeItem(tokenKey(room)); // the seat was let go: join as anyone would
        }
      }
      return join(server.value, room, spectator ? { seat: 'spectator' } : {});
    });
  }

  $('play-online').addEventListener('click', () => {
    clear();
    if (!game) status.textContent = 'Create a room for the loaded definition, then send the player link to the other player; or join an open room.';
    open();
    render();
    if (!game) void watchLobby();
    create.focus();
  });
  create.addEventListener('click', () => void createRoom());
  refresh.addEventListener('click', () => void watchLobby());
  // another server: its lobby
  server.addEventListener('change', () => {
    if (!game && !panel.hidden) void watchLobby();
  });
  leaveBtn.addEventListener('click', () => void close());
  if (params.room) void joinRoom(params.room, params.spectator);
}
