// rulestack-native: the native build of the command line (see DESIGN.md, "Command line").
//   rulestack-native validate GAME       exit 0, or print the errors and exit 1
//   rulestack-native hash GAME SEED      print the state hash of a new game (16 hex digits)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rulestack/session.h"

namespace {

int usage() {
  std::cerr << "usage: rulestack-native validate GAME\n"
               "       rulestack-native hash GAME SEED\n"
               "       rulestack-native version\n";
  return 2;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": cannot open\n";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// Prints {"errors":[{path,message}]} as one "FILE:PATH: MESSAGE" line each; true if none.
bool reportErrors(const std::string& file, const std::string& result) {
  auto j = nlohmann::json::parse(result, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("errors") || !j["errors"].is_array()) {
    std::cerr << file << ": unexpected engine answer: " << result << "\n";
    return false;
  }
  for (const auto& e : j["errors"]) {
    std::cerr << file << ":" << e.value("path", "") << ": " << e.value("message", "") << "\n";
  }
  return j["errors"].empty();
}

int cmdValidate(const std::string& file) {
  std::string text;
  if (!readFile(file, text)) return 1;
  if (!reportErrors(file, rulestack::validateDefinition(text))) return 1;
  std::cout << file << ": ok\n";
  return 0;
}

int cmdHash(const std::string& file, const std::string& seedText) {
  std::string text;
  if (!readFile(file, text)) return 1;
  char* end = nullptr;
  double seed = std::strtod(seedText.c_str(), &end);
  if (end == seedText.c_str() || *end != '\0') {
    std::cerr << "not a number: " << seedText << "\n";
    return 2;
  }
  rulestack::Session session;
  std::string errors = session.load(text, seed);
  if (!errors.empty()) {
    reportErrors(file, errors);
    return 1;
  }
  std::cout << session.stateHash() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "validate" && argc == 3) return cmdValidate(argv[2]);
  if (cmd == "hash" && argc == 4) return cmdHash(argv[2], argv[3]);
  if (cmd == "version" && argc == 2) {
    std::cout << rulestack::version() << "\n";
    return 0;
  }
  return usage();
}
