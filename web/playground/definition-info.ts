// What the page reads from the definition itself, because a view does not carry it: a
// template's rules text and tags, and the names of an action's modes (a view or a move gives
// a mode by its index). The definition is public (every player has the rules), so showing
// its text never reveals a hidden card: the page only shows the text of a template the view
// already names.

interface ModeDef {
  name?: unknown;
}
interface ActionDef {
  name?: unknown;
  modes?: ModeDef[];
}
interface TemplateDef {
  id?: unknown;
  type?: unknown;
  text?: unknown;
  tags?: unknown;
  actions?: ActionDef[];
}
interface DefinitionJson {
  entities?: TemplateDef[];
  actions?: ActionDef[];
}

export interface TemplateInfo {
  text?: string;
  tags: string[];
}

/** "OverclockModule" → "Overclock Module", "tic_tac" → "tic tac": a name people read, with spaces to wrap at. */
export function humanize(name: string): string {
  return name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

/** The template an entity id names: "Bolt#3" → "Bolt"; a handle ("?3fa9c2d1") or a plain id → null. */
export function templateOfId(id: string): string | null {
  const i = id.indexOf('#');
  return i > 0 && !id.startsWith('?') ? id.slice(0, i) : null;
}

export class DefinitionInfo {
  readonly #templates = new Map<string, TemplateInfo>();
  /** Modes by action name: of the template's own actions ("Bolt/Cast") and of the top-level ones ("/Cast"). */
  readonly #modes = new Map<string, string[]>();

  constructor(definitionJson: string) {
    let d: DefinitionJson = {};
    try {
      d = JSON.parse(definitionJson) as DefinitionJson;
    } catch {
      // the engine accepted it, so this does not happen; an empty one shows no text
    }
    const modeNames = (a: ActionDef) => (Array.isArray(a.modes) ? a.modes.map((m, i) => (typeof m?.name === 'string' ? m.name : `mode ${i + 1}`)) : []);
    for (const a of d.actions ?? []) if (typeof a?.name === 'string') this.#modes.set(`/${a.name}`, modeNames(a));
    for (const t of d.entities ?? []) {
      if (typeof t?.id !== 'string') continue;
      this.#templates.set(t.id, {
        text: typeof t.text === 'string' ? t.text : undefined,
        tags: Array.isArray(t.tags) ? t.tags.filter((x): x is string => typeof x === 'string') : [],
      });
      for (const a of t.actions ?? []) if (typeof a?.name === 'string') this.#modes.set(`${t.id}/${a.name}`, modeNames(a));
    }
  }

  template(id: string | undefined | null): TemplateInfo | undefined {
    return id ? this.#templates.get(id) : undefined;
  }

  /** The name of mode `index` of an action (the source's template's own action first, then the game's). */
  modeName(action: string, sourceTemplate: string | null | undefined, index: number): string {
    const modes = (sourceTemplate ? this.#modes.get(`${sourceTemplate}/${action}`) : undefined) ?? this.#modes.get(`/${action}`);
    return modes?.[index] ?? `mode ${index + 1}`;
  }
}
