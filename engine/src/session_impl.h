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
// runScenario without its guard (scenario.cpp, built without unwinding code): out of memory
// passes through it to runScenario (session.cpp), which says it as a failure of the run.
std::string runScenarioUnguarded(const std::string& scenarioText);
}  // namespace rulestack
