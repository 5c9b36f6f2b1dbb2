// Loading a definition: JSON in, a compiled Def out, or every error with its location.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "json.h"

#include "rulestack/def.h"

namespace rulestack {

struct DefError {
  std::string path;     // JSON pointer
  std::string message;
};

// Parses JSON text with size and nesting limits; on failure returns false and one error.
// (In session.cpp: the loader's files are built without unwinding code, and this one catches.)
bool parseJsonText(const std::string& text, Json& out, DefError& err);
// Whether a JSON text nests objects/arrays deeper than maxDepth (checked before parsing any
// text from outside: a hostile text must not exhaust the stack).
bool nestedDeeper(const std::string& text, int maxDepth);
constexpr int kMaxInputDepth = 200;

// Compiles a definition. Returns null and fills errors when it is not valid.
std::shared_ptr<Def> loadDefinition(const Json& j, std::vector<DefError>& errors);

// Compiles mutations / expressions against a loaded definition (scenarios' `do` and
// `expect` steps). Errors get paths under `path`.
bool compileMutations(Def& def, const Json& j, const std::string& path,
                      std::vector<Mutation>& out, std::vector<DefError>& errors);
bool compileCondition(Def& def, const Json& j, const std::string& path, Expr& out,
                      std::vector<DefError>& errors);

std::string jsonPointerEscape(const std::string& key);

}  // namespace rulestack
