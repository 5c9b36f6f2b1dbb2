// The keys of every object in the definition language: the one table the loader checks
// against and the JSON Schema is tested against (languageKeys()).
#pragma once
#include <string>
#include <vector>

namespace rulestack {

struct KeySet {
  std::string context;  // "root", "action", "mutation:MoveZone", ...
  std::vector<std::string> allowed, required;
};

const std::vector<KeySet>& allKeySets();
const KeySet& keysOf(const std::string& context);

}  // namespace rulestack
