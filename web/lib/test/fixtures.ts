// Test games written in the rulestack language (docs/language.md).

/** Tic-tac-toe: nine cells on a shared Board; each player counts marks per line. */
export const TIC_TAC_TOE_YAML = `name: TicTacToe
players:
  count: 2
  properties: { row0: 0, row1: 0, row2: 0, col0: 0, col1: 0, col2: 0, diag: 0, anti: 0 }
zones:
  - name: Board
entities:
  - { id: C0, type: cell, properties: { mark: null, pos: 0 } }
  - { id: C1, type: cell, properties: { mark: null, pos: 1 } }
  - { id: C2, type: cell, properties: { mark: null, pos: 2 } }
  - { id: C3, type: cell, properties: { mark: null, pos: 3 } }
  - { id: C4, type: cell, properties: { mark: null, pos: 4 } }
  - { id: C5, type: cell, properties: { mark: null, pos: 5 } }
  - { id: C6, type: cell, properties: { mark: null, pos: 6 } }
  - { id: C7, type: cell, properties: { mark: null, pos: 7 } }
  - { id: C8, type: cell, properties: { mark: null, pos: 8 } }
setup:
  - { operation: Create, template: C0, destination: $zone.@Board, id: c0 }
  - { operation: Create, template: C1, destination: $zone.@Board, id: c1 }
  - { operation: Create, template: C2, destination: $zone.@Board, id: c2 }
  - { operation: Create, template: C3, destination: $zone.@Board, id: c3 }
  - { operation: Create, template: C4, destination: $zone.@Board, id: c4 }
  - { operation: Create, template: C5, destination: $zone.@Board, id: c5 }
  - { operation: Create, template: C6, destination: $zone.@Board, id: c6 }
  - { operation: Create, template: C7, destination: $zone.@Board, id: c7 }
  - { operation: Create, template: C8, destination: $zone.@Board, id: c8 }
flow:
  phases:
    - name: Main
      valid_actions: [Place]
      pass: false
actions:
  - name: Place
    condition: $player.current == $player.active
    requires_target: { from: $zone.@Board, filter: $candidate.mark == null }
    queue: false
    mutations:
      - { target: $target, property: mark, operation: '=', value: $player.current }
      - { target: $player.current, property: row0, operation: '+', value: 1, condition: $target.pos / 3 == 0 }
      - { target: $player.current, property: row1, operation: '+', value: 1, condition: $target.pos / 3 == 1 }
      - { target: $player.current, property: row2, operation: '+', value: 1, condition: $target.pos / 3 == 2 }
      - { target: $player.current, property: col0, operation: '+', value: 1, condition: $target.pos % 3 == 0 }
      - { target: $player.current, property: col1, operation: '+', value: 1, condition: $target.pos % 3 == 1 }
      - { target: $player.current, property: col2, operation: '+', value: 1, condition: $target.pos % 3 == 2 }
      - { target: $player.current, property: diag, operation: '+', value: 1, condition: $target.pos % 4 == 0 }
      - { target: $player.current, property: anti, operation: '+', value: 1, condition: $target.pos == 2 or $target.pos == 4 or $target.pos == 6 }
      - { operation: EndTurn }
end_conditions:
  - when: >
      $player.current.row0 == 3 or $player.current.row1 == 3 or $player.current.row2 == 3 or
      $player.current.col0 == 3 or $player.current.col1 == 3 or $player.current.col2 == 3 or
      $player.current.diag == 3 or $player.current.anti == 3
    winner: $player.current
  - when: $entity.cell.where($candidate.mark == null).size == 0
    draw: true
`;

/** An invalid definition: the error positions are known (line 5: an unknown operation;
 * line 7: an unknown top-level key). */
export const BAD_DEFINITION_YAML = `name: Broken
players: { count: 2 }
zones: [ { name: Board } ]
flow: { phases: [ { name: Main, valid_actions: [Noop] } ] }
actions: [ { name: Noop, mutations: [ { operation: Explode, target: $player.current } ] } ]
setup: []
flwo: oops
`;

/** A YAML syntax error on line 3 (a flow sequence that never closes). */
export const SYNTAX_ERROR_YAML = `name: Broken
players: { count: 2 }
zones: [ { name: Board }
flow: {}
`;

/** Moves that make player "0" win on the top row: 0 takes c0, c1, c2; 1 takes c3, c4. */
/** Loads, with one warning: a property read (\`ready\`, line 5) that nothing gives a default. */
export const WARNING_YAML = `name: W
players: { count: 2 }
actions:
  - name: Go
    condition: $player.current.ready == null
    mutations: [ { operation: '=', target: $player.current, property: ready, value: true } ]
flow: { phases: [ { name: Main, valid_actions: [Go] } ] }
end_conditions: []
`;

export const WINNING_MOVES: Array<{ player: string; move: { action: string; targets: string[] } }> = [
  { player: '0', move: { action: 'Place', targets: ['c0'] } },
  { player: '1', move: { action: 'Place', targets: ['c3'] } },
  { player: '0', move: { action: 'Place', targets: ['c1'] } },
  { player: '1', move: { action: 'Place', targets: ['c4'] } },
  { player: '0', move: { action: 'Place', targets: ['c2'] } },
];

/** A game whose only action fails at run time (a MoveZone to a number). */
export const RUNTIME_ERROR_YAML = `name: Err
players: { count: 2 }
zones: [ { name: Board } ]
entities: [ { id: Card, type: card } ]
setup: [ { operation: Create, template: Card, destination: $zone.@Board } ]
flow: { phases: [ { name: Main, valid_actions: [Hit] } ] }
actions:
  - name: Hit
    queue: false
    mutations:
      - { target: $entity.card, operation: MoveZone, destination: $player.current.zone }
`;

/** Each move is Hit (fails at run time, as above) or Finish (the mover wins): some games fail. */
export const SOMETIMES_ERROR_YAML = `name: Sometimes
players: { count: 2 }
zones: [ { name: Board } ]
entities: [ { id: Card, type: card } ]
setup: [ { operation: Create, template: Card, destination: $zone.@Board } ]
flow: { phases: [ { name: Main, valid_actions: [Hit, Finish] } ] }
actions:
  - name: Hit
    queue: false
    mutations:
      - { target: $entity.card, operation: MoveZone, destination: $player.current.zone }
  - name: Finish
    queue: false
    mutations:
      - { operation: Win, target: $player.current }
`;
