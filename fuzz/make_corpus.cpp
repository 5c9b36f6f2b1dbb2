// Writes the seed corpus of every fuzz target, from the examples (build/examples-json):
//   <out>/definition/  every example game (and the scenarios' extra games)
//   <out>/expression/  every expression of the examples (strings holding a '$' reference)
//   <out>/move/        "<game>\n<player> <move>\n..." lines from random playouts (legal moves)
//   <out>/snapshot/    "<game>\n<snapshot>" taken during those playouts
//   <out>/scenario/    every scenario of examples/scenarios
//   <out>/rulestack.dict  a libFuzzer dictionary: the language's keys, the expressions' tokens
// Usage: make_corpus <examples-json dir> <out dir>
#include <filesystem>
#include <set>

#include "fuzz_common.h"
#include "json_io.h"
#include "rulestack/session.h"
#include "session_impl.h"

namespace fs = std::filesystem;
using nlohmann::json;

static void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << text;
}

static void strings(const json& j, std::set<std::string>& out) {
  if (j.is_string()) {
    if (j.get<std::string>().find('$') != std::string::npos) out.insert(j.get<std::string>());
  } else if (j.is_structured()) {
    for (auto& e : j) strings(e, out);
  }
}

static std::string dictEntry(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += (char)c;
    else if (c < 32 || c > 126) { char b[8]; std::snprintf(b, sizeof b, "\\x%02X", c); o += b; }
    else o += (char)c;
  }
  return o + "\"";
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_corpus <examples-json dir> <out dir>\n");
    return 2;
  }
  fs::path in = argv[1], out = argv[2];
  setenv("RULESTACK_EXAMPLES_JSON", argv[1], 1);
  std::set<std::string> exprs, dict;
  int counts[5] = {0, 0, 0, 0, 0};
  for (auto& ex : fuzz::examples()) {
    write(out / "definition" / (ex.name + ".json"), ex.text);
    counts[0]++;
    json doc = json::parse(ex.text);
    strings(doc, exprs);
    std::vector<rulestack::DefError> errs;
    auto def = rulestack::compileDefinition(ex.text, errs);
    if (!def) { std::fprintf(stderr, "make_corpus: %s does not compile\n", ex.name.c_str()); return 1; }
    for (int run = 0; run < 4; run++) {
      const int lengths[] = {1, 3, 10, 40};
      auto g = rulestack::startGame(def, 1, errs);  // as the move target's Session::load(text, "1")
      if (!g) { std::fprintf(stderr, "make_corpus: %s does not start\n", ex.name.c_str()); return 1; }
      fuzz::Lcg pick(reinterpret_cast<const uint8_t*>(ex.name.data()), ex.name.size());
      for (int i = 0; i <= run; i++) pick.below(7);
      std::string lines = ex.name + "\n";
      std::vector<rulestack::Move> moves;
      for (int n = 0; n < lengths[run] && !g->state().over(); n++) {
        int p = g->nextToAct();
        if (p < 0) break;
        g->legalMoves(p, moves);
        if (moves.empty()) break;
        const rulestack::Move m = moves[pick.below((uint32_t)moves.size())];
        lines += def->playerIds[p] + " " + rulestack::moveText(*g, m, p) + "\n";
        if (!g->apply(p, m, nullptr).empty()) break;
        if (n == lengths[run] / 2 || n == lengths[run] - 1) {
          write(out / "snapshot" / (ex.name + "-" + std::to_string(run) + "-" + std::to_string(n)),
                ex.name + "\n" + rulestack::snapshotText(*g));
          counts[3]++;
        }
      }
      write(out / "move" / (ex.name + "-" + std::to_string(run)), lines);
      counts[2]++;
    }
    auto g = rulestack::startGame(def, 1, errs);
    write(out / "snapshot" / (ex.name + "-start"), ex.name + "\n" + rulestack::snapshotText(*g));
    counts[3]++;
  }
  for (auto it = fs::recursive_directory_iterator(in / "scenarios"); it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    std::string text = fuzz::readFile(it->path().string());
    std::string rel = fs::relative(it->path(), in / "scenarios").generic_string();
    for (auto& c : rel) if (c == '/') c = '_';
    json doc = json::parse(text, nullptr, false);
    strings(doc, exprs);
    bool scenario = doc.is_object() && doc.contains("game") && doc.contains("steps");
    write(out / (scenario ? "scenario" : "definition") / rel, text);
    counts[scenario ? 4 : 0]++;
  }
  // at most ~120 expressions (evenly picked): every seed runs before fuzzing starts
  int i = 0;
  size_t every = exprs.size() / 120 + 1;
  for (auto& e : exprs)
    if (i++ % every == 0) {
      write(out / "expression" / ("e" + std::to_string(i)), e);
      counts[1]++;
    }
  // the dictionary: every key of the language, the tokens of the expressions
  json keys = json::parse(rulestack::languageKeys());
  for (auto& [ctx, k] : keys.items())
    for (auto& a : k["allowed"]) dict.insert("\"" + a.get<std::string>() + "\":");
  for (auto& e : exprs) {
    size_t p = 0;
    while (p < e.size()) {
      size_t q = p;
      if (e[p] == '$' || e[p] == '@' || std::isalpha((unsigned char)e[p]) || e[p] == '_') {
        q = p + 1;
        while (q < e.size() && (std::isalnum((unsigned char)e[q]) || e[q] == '_' || e[q] == '.' || e[q] == '@' || e[q] == '$')) q++;
      } else if (std::ispunct((unsigned char)e[p])) {
        q = p + 1;
        while (q < e.size() && q < p + 2 && std::strchr("=<>!&|", e[q])) q++;
      } else {
        p++;
        continue;
      }
      if (q - p > 1 || std::ispunct((unsigned char)e[p])) dict.insert(e.substr(p, q - p));
      p = q;
    }
  }
  std::string d;
  for (auto& t : dict) d += dictEntry(t) + "\n";
  write(out / "rulestack.dict", d);
  std::printf("make_corpus: %d definitions, %d expressions, %d move files, %d snapshots, %d scenarios, %zu dictionary entries in %s\n",
              counts[0], counts[1], counts[2], counts[3], counts[4], dict.size(), out.string().c_str());
  return 0;
}
