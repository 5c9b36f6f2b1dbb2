// rulestack — a declarative rules engine for turn-based card and board games.
export { loadEngine, Rulestack } from './engine.js';
export type { LoadOptions, DefinitionInput, CreateGameOptions, ValidateOptions } from './engine.js';
export { Game, Bot } from './game.js';
export type { GameEventMap, GameEventName, GameLog, MoveRecord } from './game.js';
export { DefinitionError, EngineCrashedError, IllegalMoveError, SnapshotError } from './errors.js';
export type { DefinitionIssue } from './errors.js';
export { parseDefinition, loadYaml, yamlLoaded } from './definition.js';
export type { DefinitionFormat, ParsedDefinition, Position } from './definition.js';
export type * from './types.js';
