#include "keys.h"

#include <stdexcept>

#include "names.h"

namespace rulestack {

namespace {
// One line per object: "context: allowed keys | required keys". Kept as text (not a table
// of initializer lists) because that compiles to a fraction of the code in wasm.
const char* const kTable = R"(
root: name players settings zones entities setup flow actions reactions triggered_actions end_conditions description $schema | name players flow
players: count ids properties per_turn |
settings: resolution auto_pass cancel_zone discard_zone max_events |
zone: name per_player visibility ordered active actions description | name
entity: id type tags face_down properties actions reactions triggered_actions effects text description name | id
action: name source requires_target condition cost x modes play queue properties reactions mutations description text | name
x: min max | max
mode: name requires_target mutations description | mutations
target: from filter count min max | from
reaction: name trigger condition requires_target mutations queue optional description | trigger
triggered_action: name trigger condition optional player requires_target queue mutations description | name trigger
effect: applies_to filter property add set while description | applies_to property
flow: turn_order first_player phases | phases
phase: name on_enter mutations valid_actions pass description | name
end_condition: when winner draw description | when
mutation:= target property value | target value
mutation:+ target property value | target value
mutation:- target property value | target value
mutation:* target property value | target value
mutation:/ target property value | target value
mutation:SetProperty target property value | target value
mutation:MoveZone target destination position | target destination
mutation:Destroy target | target
mutation:Cancel target | target
mutation:Shuffle target | target
mutation:Win target | target
mutation:Lose target | target
mutation:RequireDiscard target count from destination | target
mutation:Promote target template | target template
mutation:DrawCard target count from destination | target
mutation:Create template destination count owner id | template destination
mutation:Damage target value property | target value
mutation:Attach target host | target host
mutation:Give target owner | target owner
mutation:EndTurn |
mutation:Draw |
)";


std::vector<KeySet> build() {
  std::vector<KeySet> k;
  std::string table = kTable;
  size_t pos = 0;
  while (pos < table.size()) {
    size_t nl = table.find('\n', pos);
    if (nl == std::string::npos) nl = table.size();
    std::string line = table.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    // "mutation:X" contexts have no ':' separator of their own: the name ends at the first space
    bool mutation = line.rfind("mutation:", 0) == 0;
    size_t colon = mutation ? line.find(' ') : line.find(':');
    if (colon == std::string::npos) colon = line.find(' ');
    KeySet ks;
    ks.context = line.substr(0, colon);
    size_t bar = line.find('|');
    std::string allowed = line.substr(colon + 1, bar - colon - 1);
    ks.allowed = words(allowed);
    ks.required = words(line.substr(bar + 1));
    if (mutation) {
      ks.allowed.insert(ks.allowed.begin(), {"operation", "condition", "for_each", "description"});
    }
    k.push_back(std::move(ks));
  }
  return k;
}
}  // namespace

const std::vector<KeySet>& allKeySets() {
  static const std::vector<KeySet> k = build();
  return k;
}

const KeySet& keysOf(const std::string& context) {
  for (const KeySet& k : allKeySets())
    if (k.context == context) return k;
  throw std::logic_error("no key set " + context);
}

}  // namespace rulestack
