#include "keys.h"

#include <stdexcept>

namespace rulestack {

namespace {
const std::vector<std::string> kMutationCommon = {"operation", "condition", "for_each", "description"};

KeySet mutation(const std::string& op, std::vector<std::string> extra, std::vector<std::string> required) {
  std::vector<std::string> all = kMutationCommon;
  all.insert(all.end(), extra.begin(), extra.end());
  return KeySet{"mutation:" + op, all, required};
}

std::vector<KeySet> build() {
  std::vector<KeySet> k = {
      {"root", {"name", "players", "settings", "zones", "entities", "setup", "flow", "actions", "triggered_actions",
                "end_conditions", "description", "$schema"}, {"name", "players", "flow"}},
      {"players", {"count", "ids", "properties", "per_turn"}, {}},
      {"settings", {"resolution", "auto_pass", "cancel_zone", "discard_zone", "max_events"}, {}},
      {"zone", {"name", "per_player", "visibility", "ordered", "active", "actions", "description"}, {"name"}},
      {"entity", {"id", "type", "tags", "properties", "actions", "reactions", "triggered_actions", "effects", "text",
                  "description", "name"}, {"id"}},
      {"action", {"name", "source", "requires_target", "condition", "cost", "x", "modes", "play", "queue", "properties",
                  "reactions", "mutations", "description", "text"}, {"name"}},
      {"x", {"min", "max"}, {"max"}},
      {"mode", {"name", "requires_target", "mutations", "description"}, {"mutations"}},
      {"target", {"from", "filter", "count", "min", "max"}, {"from"}},
      {"reaction", {"name", "trigger", "condition", "mutations", "queue", "optional", "description"}, {"trigger"}},
      {"triggered_action", {"name", "trigger", "condition", "optional", "player", "requires_target", "queue", "mutations",
                            "description"}, {"name", "trigger"}},
      {"effect", {"applies_to", "filter", "property", "add", "set", "while", "description"}, {"applies_to", "property"}},
      {"flow", {"turn_order", "first_player", "phases"}, {"phases"}},
      {"phase", {"name", "on_enter", "mutations", "valid_actions", "pass", "description"}, {"name"}},
      {"end_condition", {"when", "winner", "draw", "description"}, {"when"}},
  };
  for (const char* op : {"=", "+", "-", "*", "/", "SetProperty"})
    k.push_back(mutation(op, {"target", "property", "value"}, {"target", "value"}));
  k.push_back(mutation("MoveZone", {"target", "destination", "position"}, {"target", "destination"}));
  for (const char* op : {"Destroy", "Cancel", "Shuffle", "Win", "Lose"}) k.push_back(mutation(op, {"target"}, {"target"}));
  k.push_back(mutation("RequireDiscard", {"target", "count", "from", "destination"}, {"target"}));
  k.push_back(mutation("Promote", {"target", "template"}, {"target", "template"}));
  k.push_back(mutation("DrawCard", {"target", "count", "from", "destination"}, {"target"}));
  k.push_back(mutation("Create", {"template", "destination", "count", "owner", "id"}, {"template", "destination"}));
  k.push_back(mutation("Damage", {"target", "value", "property"}, {"target", "value"}));
  k.push_back(mutation("Attach", {"target", "host"}, {"target", "host"}));
  k.push_back(mutation("EndTurn", {}, {}));
  k.push_back(mutation("Draw", {}, {}));
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
