// Share links: the definition text in the page's address, `#def=<token>`, where the token is
// the UTF-8 text compressed with deflate-raw (the browser's CompressionStream) in base64url.
// The hash never reaches the server, so a link works on any static host and offline.

const PREFIX = 'def=';
/** The most a link may unpack to: a definition is text of some KB, not megabytes. */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/** A share link that cannot be read: the message says why. */
export class ShareLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareLinkError';
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(token: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new ShareLinkError('the link holds characters that base64url does not use (was it cut or changed?)');
  if (token.length % 4 === 1) throw new ShareLinkError('the link is cut short (its base64url text has a wrong length)');
  const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit = Infinity): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new ShareLinkError(`the definition in the link is larger than ${limit / 1024 / 1024} MiB`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The token of a definition text. */
export async function encodeDefinition(text: string): Promise<string> {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/** The definition text of a token; a ShareLinkError says why it cannot be read. */
export async function decodeDefinition(token: string): Promise<string> {
  if (token === '') throw new ShareLinkError('the link holds no definition (nothing after #def=)');
  const packed = fromBase64Url(token);
  let bytes: Uint8Array;
  try {
    bytes = await pipe(packed, new DecompressionStream('deflate-raw'), MAX_TEXT_BYTES);
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw new ShareLinkError('the link\u2019s data does not unpack (it is not deflate-raw data: was it cut or changed?)');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ShareLinkError('the link unpacks to something that is not UTF-8 text');
  }
}

/** The page's address with the definition in its hash (any query, e.g. ?botDelay=0, kept). */
export async function shareUrl(text: string, at: Location | URL = location): Promise<string> {
  const url = new URL(at.href);
  url.hash = PREFIX + (await encodeDefinition(text));
  return url.href;
}

/** The token of the address's share link, or null when the address is not one. */
export function shareToken(at: Location | URL = location): string | null {
  const hash = at.hash.replace(/^#/, '');
  return hash.startsWith(PREFIX) ? hash.slice(PREFIX.length) : null;
}

/** Takes the share link out of the address bar, so that a reload restores the page's own state. */
export function clearShareToken(): void {
  history.replaceState(history.state, '', location.pathname + location.search);
}
