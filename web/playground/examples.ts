// The shipped example games (examples/*.yaml), bundled as text by Vite.
const files = import.meta.glob('../../examples/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface Example {
  /** File name, e.g. "tictactoe.yaml". */
  file: string;
  /** The game's `name:` (read from the text for the picker only). */
  name: string;
  text: string;
}

const ORDER = ['tictactoe.yaml', 'duel.yaml', 'crazy-eights.yaml', 'nexus.yaml'];

export const examples: Example[] = Object.entries(files)
  .map(([p, text]) => {
    const file = p.slice(p.lastIndexOf('/') + 1);
    const m = /^name:\s*["']?(.+?)["']?\s*$/m.exec(text);
    return { file, name: m ? m[1]! : file, text };
  })
  .sort((a, b) => {
    const ia = ORDER.indexOf(a.file);
    const ib = ORDER.indexOf(b.file);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.file.localeCompare(b.file);
  });
