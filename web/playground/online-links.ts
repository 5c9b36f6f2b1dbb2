// Where "Play online" connects and what its links say: the server's URL (a `?server=`
// parameter, else this page's host on the server's default port) and a room's player and
// spectator links (`?server=…&room=…`, `&seat=spectator`), which open the page and join.

/** The port `npm run server` listens on by default (web/server/main.mjs). */
export const DEFAULT_SERVER_PORT = 2567;

/** What the page's address asks of "Play online": a server, a room to join and as whom. */
export interface OnlineParams {
  server: string | null;
  room: string | null;
  spectator: boolean;
}

export function onlineParams(search: string): OnlineParams {
  const p = new URLSearchParams(search);
  return { server: p.get('server'), room: p.get('room'), spectator: p.get('seat') === 'spectator' };
}

/** The same host as the page, on the server's port, ws:// or wss:// as the page is http or https. */
export function defaultServer(loc: { protocol: string; hostname: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.hostname || 'localhost'}:${DEFAULT_SERVER_PORT}`;
}

/** The server URL typed in, checked: ws://, wss://, http:// or https:// with a host; else an Error that says what is expected. */
export function checkServer(text: string): string {
  const t = text.trim();
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    throw new Error(`the server address '${t}' is not a URL: give one such as ws://localhost:${DEFAULT_SERVER_PORT}`);
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol) || !url.host) {
    throw new Error(`the server address '${t}' must start with ws://, wss://, http:// or https:// and name a host`);
  }
  return t.replace(/\/+$/, '');
}

/** The link that opens this page and joins the room: as a player (the first free seat) or as a spectator. */
export function roomLink(page: string, server: string, room: string, spectator: boolean): string {
  const url = new URL(page);
  url.hash = '';
  url.search = '';
  url.searchParams.set('server', server);
  url.searchParams.set('room', room);
  if (spectator) url.searchParams.set('seat', 'spectator');
  return url.href;
}
