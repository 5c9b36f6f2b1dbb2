// Smoke test of the engine facade: the build, the link and the test runner work, natively
// and as wasm under node. Real engine tests live beside this file.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "rulestack/session.h"

TEST_CASE("version is a non-empty string", "[smoke]") {
  REQUIRE(std::string(rulestack::version()).size() > 0);
}

TEST_CASE("validateDefinition rejects text that is not JSON", "[smoke]") {
  std::string result = rulestack::validateDefinition("nonsense");
  REQUIRE(result.find("\"errors\"") != std::string::npos);
  REQUIRE(result.find("\"errors\":[]") == std::string::npos);
}

TEST_CASE("a session that failed to load is not loaded", "[smoke]") {
  rulestack::Session session;
  REQUIRE_FALSE(session.loaded());
  REQUIRE_FALSE(session.load("nonsense", "1").empty());
  REQUIRE_FALSE(session.loaded());
}

TEST_CASE("C++ exceptions are caught (natively and in wasm)", "[smoke]") {
  REQUIRE_THROWS_AS(nlohmann::json::parse("nonsense"), nlohmann::json::parse_error);
}
