// Seeds: what a game is dealt from. An integer seed (any 64-bit signed value: -5 and 5 are
// different games) is the RNG's seed itself, so distinct integers never collide; a string is
// hashed to 64 bits (apart from the integers: "5" is not 5). Anything else (1.9, 2^64, true)
// is refused with a message, so no two spellings silently play the same game.
#pragma once
#include <cstdint>
#include <string>

#include "json.h"

namespace rulestack {

bool parseSeed(const Json& j, uint64_t& out, std::string& error);

}  // namespace rulestack
