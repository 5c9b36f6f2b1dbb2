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

/** The game's `name:` read from its text (YAML, or JSON), or null: for labels and file names. */
export function definitionName(text: string): string | null {
  const m = /^name:\s*["']?(.+?)["']?\s*$/m.exec(text) ?? /"name"\s*:\s*"([^"]+)"/.exec(text);
  return m ? m[1]! : null;
}

export const examples: Example[] = Object.entries(files)
  .map(([p, text]) => {
    const file = p.slice(p.lastIndexOf('/') + 1);
    return { file, name: definitionName(text) ?? file, text };
  })
  .sort((a, b) => {
    const ia = ORDER.indexOf(a.file);
    const ib = ORDER.indexOf(b.file);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.file.localeCompare(b.file);
  });

/** The example this text is, unchanged, or undefined (a share link's or a game file's text may be one). */
export function exampleOf(text: string): Example | undefined {
  return examples.find((e) => e.text === text);
}
