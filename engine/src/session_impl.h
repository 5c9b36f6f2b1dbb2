// Shared by the facade and the scenario runner: compiling text and starting a game.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "rulestack/game.h"
#include "loader.h"

namespace rulestack {
std::shared_ptr<Def> compileDefinition(const std::string& text, std::vector<DefError>& errs);
// reuse: a game of the same definition to restart in place (simulations: its memory kept).
std::unique_ptr<Game> startGame(std::shared_ptr<const Def> def, uint64_t seed, std::vector<DefError>& errs,
                                bool logging = true, std::unique_ptr<Game> reuse = nullptr);
}  // namespace rulestack
