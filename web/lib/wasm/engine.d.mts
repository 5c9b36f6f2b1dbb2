// Hand-written types for the embind module built from wasm/bindings.cpp
// (emscripten 3.1.6 cannot emit them). Mirrors engine/include/rulestack/session.h:
// every call takes and returns JSON text; nothing throws on bad input.

/** Every embind class instance owns C++ memory: call delete() exactly once. */
export interface EmbindObject {
  delete(): void;
  isDeleted(): boolean;
}

/** rulestack::Session — one game. */
export interface Session extends EmbindObject {
  /**
   * "" on success, else `{"errors":[{"path","message"}]}`. seedJson: the seed as JSON text (an
   * integer or a string), or `{"seed": <seed>, "logLimit": N}`.
   */
  load(definitionJson: string, seedJson: string): string;
  loaded(): boolean;
  /**
   * A player's view as JSON ("" = spectator): its UTF-8 bytes, a Uint8Array over the module's
   * memory, good until the next call into the module (decode it at once: game.ts's `viewText`).
   */
  viewBytes(player: string): Uint8Array;
  /** JSON array of fully specified moves. */
  legalMoves(player: string): string;
  /** `{"ok":true,"events":[...]}` or `{"ok":false,"reason":"...","message":"..."}`. */
  apply(player: string, moveJson: string): string;
  /** When on, apply's result also has "steps" (the resolution machine's steps). */
  setTrace(on: boolean): void;
  undo(): boolean;
  /** JSON array of the events kept, or `{"dropped": N, "events": [...]}` once older ones were dropped. */
  log(): string;
  logFor(player: string): string;
  /** 16 lowercase hex digits. */
  stateHash(): string;
  /** JSON object. */
  snapshot(): string;
  /** "" or `{"errors":[...]}`. */
  restore(definitionJson: string, snapshotJson: string): string;
  /** A move as JSON; options `{"kind":"random"|"mcts","seed":N,"iterations":N}`. */
  botChoose(player: string, optionsJson: string): string;
}

export interface SessionConstructor {
  new (): Session;
}

export interface EngineModule {
  Session: SessionConstructor;
  /** `{"errors":[...]}` — empty array = valid. */
  validateDefinition(definitionJson: string): string;
  /** `{"ok":bool,"steps":N,"failures":[{"step":i,"message":"..."}]}`. */
  runScenario(scenarioJson: string): string;
  /** `{"games","moves","wins":{id:N},"draws","meanLength","errors"}`. */
  simulate(definitionJson: string, optionsJson: string): string;
  languageKeys(): string;
  version(): string;
}

export interface EngineModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, scriptDirectory: string) => string;
  print?: (s: string) => void;
  printErr?: (s: string) => void;
}

declare function createEngineModule(options?: EngineModuleOptions): Promise<EngineModule>;
export default createEngineModule;
