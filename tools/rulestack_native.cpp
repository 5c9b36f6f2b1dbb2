// rulestack-native: the native build of the command line (DESIGN.md, "Command line"), with the
// same commands and exit codes as the node CLI (web/lib/cli.ts), for speed comparison.
// JSON input only: the engine has no YAML parser (convert .yaml files first, e.g. the JSON
// copies of examples/ that the build writes to build/examples-json/).
// Exit codes: 0 ok, 1 the check failed, 2 usage error or unreadable file, 3 internal error.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loader.h"
#include "rulestack/session.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3;

const char* const USAGE =
    "usage:\n"
    "  rulestack-native validate GAME\n"
    "  rulestack-native play GAME [--seed N] [--moves FILE] [--view PLAYER]\n"
    "  rulestack-native simulate GAME [--games N] [--bot random|mcts|easy|normal|hard] [--seed N] [--iterations N] [--max-moves N] [--batch N] [--json]\n"
    "  rulestack-native test SCENARIO|DIR... [--root DIR]\n"
    "  rulestack-native hashes GAME [--games N] [--seed N]\n"
    "  rulestack-native hash GAME SEED\n"
    "  rulestack-native --version | --help\n"
    "\n"
    "GAME and SCENARIO are JSON files: the native build has no YAML parser, so convert YAML\n"
    "first (the build writes JSON copies of examples/ to build/examples-json/). A scenario whose\n"
    "'game' names a .yaml/.yml file uses the .json file of the same name beside it; that file\n"
    "must be in the scenario's folder or below it (with --root DIR: under DIR).\n"
    "Exit codes: 0 ok, 1 failed (invalid game, illegal move, failing scenario), 2 usage error or\n"
    "unreadable file, 3 internal error.";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Exit {
  int code;
};

void out(const std::string& s) { std::cout << s << '\n'; }
void err(const std::string& s) { std::cerr << s << '\n'; }

// Every file the command reads (a game, a moves file, a scenario, a scenario's game) is a
// regular file of at most kMaxFileBytes, or stdin ("-") up to that size: never a directory,
// a device (/dev/zero), a FIFO, or anything that would not end.
constexpr size_t kMaxFileBytes = 16u << 20;
const char* const kMaxFileText = "16 MiB";

bool readAll(int fd, std::string& text, std::string& why) {
  text.clear();
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {  // a non-blocking stdin: wait for it
        ::usleep(1000);
        continue;
      }
      why = std::string("read failed: ") + std::strerror(errno);
      return false;
    }
    text.append(buf, (size_t)n);
    if (text.size() > kMaxFileBytes) {
      why = std::string("larger than ") + kMaxFileText + " (the most a command reads)";
      return false;
    }
  }
}

bool tryRead(const std::string& file, std::string& text, std::string& why) {
  if (file == "-") return readAll(0, text, why);
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) {
    why = errno == ENOENT || errno == ENOTDIR ? "no such file" : std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    why = "is a directory";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    why = "not a regular file (only regular files are read)";
    return false;
  }
  // O_NONBLOCK: should the file have become a FIFO since the stat, the open does not hang
  int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (!ok) why = "not a regular file (only regular files are read)";
  else if ((unsigned long long)st.st_size > kMaxFileBytes) {
    ok = false;
    why = std::string("larger than ") + kMaxFileText + " (the most a command reads)";
  } else {
    ok = readAll(fd, text, why);
  }
  ::close(fd);
  return ok;
}

std::string readText(const std::string& file) {
  std::string text, why;
  if (!tryRead(file, text, why)) throw ReadError("cannot read " + (file == "-" ? std::string("stdin") : file) + ": " + why);
  return text;
}

bool isYamlName(const std::string& file) {
  auto ext = fs::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  return ext == ".yaml" || ext == ".yml";
}

// ------------------------------------------------------------------ arguments

struct Args {
  std::vector<std::string> positionals;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
};

// Like node's parseArgs(strict): `--name value`, `--name=value`, boolean flags; unknown -> usage.
Args parseArgs(const std::vector<std::string>& args, const std::vector<std::string>& valued,
               const std::vector<std::string>& booleans) {
  Args a;
  auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& s = args[i];
    if (s.size() > 2 && s.rfind("--", 0) == 0) {
      std::string name = s.substr(2), value;
      bool inlineValue = false;
      auto eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inlineValue = true;
      }
      if (has(valued, name)) {
        if (!inlineValue) {
          if (i + 1 >= args.size()) throw UsageError("option '--" + name + " <value>' argument missing");
          value = args[++i];
        }
        a.values[name] = value;
      } else if (has(booleans, name) && !inlineValue) {
        a.flags[name] = true;
      } else {
        throw UsageError("unknown option '--" + name + "'");
      }
    } else if (s.size() > 1 && s[0] == '-' && s != "-") {
      throw UsageError("unknown option '" + s + "'");
    } else {
      a.positionals.push_back(s);
    }
  }
  return a;
}

// The ranges of the numeric options, as in the node CLI (web/lib/cli.ts).
constexpr long long kMaxSeed = 9007199254740991LL;  // 2^53 - 1
constexpr long long kMaxGames = 1000000, kMaxIterations = 100000, kMaxGameMoves = 100000;

// An integer option in [min, max]; a usage error that says so otherwise (never a wrapped value).
long long integer(const Args& a, const std::string& name, long long dflt, long long min, long long max) {
  auto it = a.values.find(name);
  if (it == a.values.end()) return dflt;
  std::string v = it->second;
  std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  size_t b = v.find_first_not_of(" \t"), e = v.find_last_not_of(" \t");
  std::string t = b == std::string::npos ? "" : v.substr(b, e - b + 1);
  bool ok = !t.empty();
  for (size_t i = 0; i < t.size() && ok; i++) ok = std::isdigit((unsigned char)t[i]) || (i == 0 && t[i] == '-' && t.size() > 1);
  if (!ok) throw UsageError("--" + name + " must be " + range + ", not \"" + v + "\"");
  errno = 0;
  long long n = std::strtoll(t.c_str(), nullptr, 10);
  if (errno != 0 || n < min || n > max) throw UsageError("--" + name + " must be " + range + ", not " + t);
  return n;
}

std::string oneFile(const Args& a, const char* what) {
  if (a.positionals.empty()) throw UsageError(std::string("missing ") + what);
  if (a.positionals.size() > 1) throw UsageError("unexpected argument: " + a.positionals[1]);
  return a.positionals[0];
}

// ------------------------------------------------------------------ games

json parseEngineJson(const std::string& text, const char* what) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(std::string("engine ") + what + " returned invalid JSON: " + text.substr(0, 200));
  return j;
}

std::string formatIssue(const std::string& file, const json& e) {
  std::string p = e.value("path", ""), m = e.value("message", "");
  return p.empty() ? file + ": " + m : file + ": " + p + ": " + m;
}

// Reads a game file and validates it; prints every error and exits 1 when it is not valid
// (with asJson, as the node command does: { "ok": false, "errors": [{ file, ... }] } on stdout).
std::string readGame(const std::string& file, bool asJson = false) {
  std::string text = readText(file);
  json errors = json::array();
  if (isYamlName(file)) {
    errors.push_back({{"path", ""}, {"message", "YAML is not supported by rulestack-native (no YAML parser in the engine): convert it to JSON"}});
  } else {
    json r = parseEngineJson(rulestack::validateDefinition(text), "validate");
    if (!r.contains("errors") || !r["errors"].is_array()) throw std::runtime_error("engine validate answered " + r.dump());
    if (r["errors"].empty()) return text;
    errors = r["errors"];
  }
  if (asJson) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (auto& e : errors) {
      nlohmann::ordered_json x = {{"file", file}};
      for (auto it = e.begin(); it != e.end(); ++it) x[it.key()] = it.value();
      list.push_back(x);
    }
    out(nlohmann::ordered_json{{"ok", false}, {"errors", list}}.dump());
  } else {
    for (auto& e : errors) err(formatIssue(file, e));
  }
  throw Exit{EXIT_FAILED};
}

// ------------------------------------------------------------------ commands

int cmdValidate(const std::vector<std::string>& args) {
  Args a = parseArgs(args, {}, {});
  std::string file = oneFile(a, "GAME");
  std::string text = readGame(file);
  // legal, but almost certainly not meant: said, and still exit 0
  json r = parseEngineJson(rulestack::validateDefinition(text), "validate");
  if (r.contains("warnings") && r["warnings"].is_array())
    for (auto& w : r["warnings"]) err("warning: " + formatIssue(file, w));
  out("ok");
  return EXIT_OK;
}

// A seed as the engine reads it (JSON text): a number written as an integer is that integer,
// any other text is a string seed.
// A game's seed as the node command line takes it: an integer from 0 to 2^53 - 1 (default 0).
std::string seedText(const Args& a) { return std::to_string(integer(a, "seed", 0, 0, kMaxSeed)); }

int cmdPlay(const std::vector<std::string>& args) {
  Args a = parseArgs(args, {"seed", "moves", "view"}, {});
  std::string file = oneFile(a, "GAME");
  if (file == "-" && a.values.count("moves") && a.values["moves"] == "-")
    throw UsageError("stdin can give the game or the moves, not both: give one of them as a file");
  std::string moves = a.values.count("moves") ? readText(a.values["moves"]) : "";
  std::string def = readGame(file);
  rulestack::Session s;
  std::string loadErr = s.load(def, seedText(a));
  if (!loadErr.empty()) {
    const json r = parseEngineJson(loadErr, "load");  // (kept: a loop over a temporary's member dangles)
    for (auto& e : r["errors"]) err(formatIssue(file, e));
    return EXIT_FAILED;
  }
  if (a.values.count("view")) {  // (a usage error, before any move, as in node)
    std::string ids;
    bool found = false;
    const json all = parseEngineJson(s.view(""), "view");
    for (auto& p : all["players"]) {
      const std::string id = p["id"].get<std::string>();
      found = found || id == a.values["view"];
      ids += (ids.empty() ? "" : ", ") + id;
    }
    if (!found) throw UsageError("--view: no player \"" + a.values["view"] + "\" (players: " + ids + ")");
  }
  std::istringstream lines(moves);
  std::string raw;
  for (int n = 1; std::getline(lines, raw); n++) {
    size_t b = raw.find_first_not_of(" \t\r"), e = raw.find_last_not_of(" \t\r");
    std::string line = b == std::string::npos ? "" : raw.substr(b, e - b + 1);
    if (line.empty() || line[0] == '#' || line.rfind("//", 0) == 0) continue;
    std::string at = "line " + std::to_string(n) + ": ";
    json entry = json::parse(line, nullptr, false);
    if (entry.is_discarded()) {
      err(at + "malformed_move: not a JSON object: " + line.substr(0, 80));
      return EXIT_FAILED;
    }
    if (!entry.is_object()) {
      err(at + "malformed_move: expected {\"player\": ..., \"move\": {...}}");
      return EXIT_FAILED;
    }
    for (auto it = entry.begin(); it != entry.end(); ++it)  // (as the package's CLI)
      if (it.key() != "player" && it.key() != "move") {
        err(at + "malformed_move: unknown key '" + it.key().substr(0, 100) + "' (a line has \"player\" and \"move\", nothing else)");
        return EXIT_FAILED;
      }
    const json player = entry.value("player", json());
    if (!player.is_string() && !player.is_number()) {
      err(at + "malformed_move: \"player\" must be a player id");
      return EXIT_FAILED;
    }
    const json move = entry.value("move", json());
    if (!move.is_object()) {
      err(at + "malformed_move: \"move\" must be an object");
      return EXIT_FAILED;
    }
    std::string pid = player.is_string() ? player.get<std::string>() : player.dump();
    json r = parseEngineJson(s.apply(pid, move.dump()), "apply");
    if (!r.value("ok", false)) {
      err(at + r.value("reason", "illegal") + ": " + r.value("message", ""));
      return EXIT_FAILED;
    }
  }
  std::string view = s.view(a.values.count("view") ? a.values["view"] : "");
  out(parseEngineJson(view, "view").dump(2));
  return EXIT_OK;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

// Numbers as node's JSON.stringify writes them: a whole number without ".0".
void wholeAsIntegers(nlohmann::ordered_json& j) {
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740991.0) j = (long long)d;
  } else if (j.is_structured()) {
    for (auto& x : j) wholeAsIntegers(x);
  }
}

int cmdSimulate(const std::vector<std::string>& args) {
  Args a = parseArgs(args, {"games", "bot", "seed", "iterations", "max-moves", "batch"}, {"json"});
  std::string file = oneFile(a, "GAME");
  long long total = integer(a, "games", 100, 1, kMaxGames);
  long long seed = integer(a, "seed", 0, 0, kMaxSeed - total + 1);
  std::string bot = a.values.count("bot") ? a.values["bot"] : "random";
  if (bot != "random" && bot != "mcts" && bot != "easy" && bot != "normal" && bot != "hard")
    throw UsageError("--bot must be random, mcts, easy, normal or hard, not \"" + bot + "\"");
  bool hasIterations = a.values.count("iterations") > 0;
  long long iterations = hasIterations ? integer(a, "iterations", 0, 1, kMaxIterations) : 0;
  if (hasIterations && bot == "random")
    throw UsageError("--iterations is an MCTS budget: give it with --bot mcts, or with a level to override its iterations");
  bool hasMaxMoves = a.values.count("max-moves") > 0;
  long long maxMoves = hasMaxMoves ? integer(a, "max-moves", 0, 1, kMaxGameMoves) : 0;
  long long batch = integer(a, "batch", 20, 1, kMaxGames);
  bool asJson = a.flags.count("json") > 0;
  std::string def = readGame(file, asJson);

  bool tty = !asJson && isatty(2);
  long long games = 0, moves = 0, draws = 0, unfinished = 0, errors = 0;
  double lengthSum = 0;
  long long nextTenth = 1;  // (in whole tenths: 0.1 added up drifts past 0.3)
  std::map<std::string, long long> wins;
  nlohmann::ordered_json errorDetails = nlohmann::ordered_json::array();  // as the node CLI's
  auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  while (games < total) {
    long long n = std::min(batch, total - games);
    json opts = {{"games", n}, {"bot", bot}, {"seed", seed + games}};
    if (hasIterations) opts["iterations"] = iterations;
    if (hasMaxMoves) opts["maxMoves"] = maxMoves;
    json r = parseEngineJson(rulestack::simulate(def, opts.dump()), "simulate");
    if (r.contains("errors") && r["errors"].is_array()) {
      for (auto& e : r["errors"]) err(formatIssue(file, e));
      return EXIT_FAILED;
    }
    if (!r.contains("games") || !r["games"].is_number() || !r.contains("moves") || !r["moves"].is_number())
      throw std::runtime_error("engine simulate returned an unexpected answer: " + r.dump().substr(0, 200));
    long long played = r["games"].get<long long>() > 0 ? r["games"].get<long long>() : n;
    if (r.contains("errorList") && r["errorList"].is_array())  // the first 20 of the call, numbered from 0 in it
      for (auto& e : r["errorList"])
        errorDetails.push_back({{"game", games + e.value("game", 0LL) + 1}, {"seed", (long long)e.value("seed", 0.0)}, {"message", e.value("message", "")}});
    games += played;
    moves += r["moves"].get<long long>();
    draws += r.value("draws", 0LL);
    unfinished += r.value("unfinished", 0LL);
    errors += r.value("errors", 0LL);
    lengthSum += (r.contains("meanLength") && r["meanLength"].is_number() ? r["meanLength"].get<double>()
                                                                             : (double)r["moves"].get<long long>() / std::max(1LL, played)) * played;
    if (r.contains("wins") && r["wins"].is_object())
      for (auto it = r["wins"].begin(); it != r["wins"].end(); ++it) wins[it.key()] += it.value().get<long long>();
    if (tty) {
      int width = 30, filled = (int)std::lround((double)games / total * width);
      double t = elapsed();
      std::fprintf(stderr, "\r[%s%s] %3d%% %lld/%lld games  %.1f games/s", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), (int)std::floor((double)games / total * 100), games, total,
                   t > 0 ? games / t : 0.0);
    } else if (!asJson && (games * 10 >= nextTenth * total || games >= total)) {
      err("simulate: " + std::to_string(games) + "/" + std::to_string(total) + " games");
      while (nextTenth * total <= games * 10) nextTenth++;
    }
  }
  double seconds = elapsed();
  if (tty) std::fprintf(stderr, "\r\x1b[2K");

  // player ids in natural order ("2" before "10")
  std::vector<std::string> players;
  for (auto& w : wins) players.push_back(w.first);
  std::sort(players.begin(), players.end(), [](const std::string& x, const std::string& y) {
    bool nx = !x.empty() && x.find_first_not_of("0123456789") == std::string::npos;
    bool ny = !y.empty() && y.find_first_not_of("0123456789") == std::string::npos;
    if (nx && ny && x.size() != y.size()) return x.size() < y.size();
    return x < y;
  });
  double gps = seconds > 0 ? games / seconds : 0, mps = seconds > 0 ? moves / seconds : 0;
  double meanLength = games > 0 ? lengthSum / games : 0, drawRate = games > 0 ? (double)draws / games : 0;
  if (asJson) {
    nlohmann::ordered_json w = nlohmann::ordered_json::object(), rates = nlohmann::ordered_json::object();
    for (auto& p : players) {
      w[p] = wins[p];
      rates[p] = games > 0 ? (double)wins[p] / games : 0.0;
    }
    nlohmann::ordered_json result = {{"ok", errors == 0}, {"games", games}, {"moves", moves}, {"bot", bot}, {"seed", seed}, {"seconds", seconds},
                   {"gamesPerSecond", gps}, {"movesPerSecond", mps}, {"meanLength", meanLength}, {"wins", w},
                   {"winRates", rates}, {"draws", draws}, {"drawRate", drawRate}, {"unfinished", unfinished},
                   {"errors", errors}, {"errorDetails", errorDetails}};
    if (hasIterations) result["iterations"] = iterations;
    if (hasMaxMoves) result["maxMoves"] = maxMoves;
    wholeAsIntegers(result);
    out(result.dump());
  } else {
    auto pct = [](double x) { return fixed(x * 100, 1) + "%"; };
    std::string rates;
    for (auto& p : players) rates += (rates.empty() ? "" : "  ") + p + ": " + pct(games ? (double)wins[p] / games : 0) + " (" + std::to_string(wins[p]) + ")";
    out("games        " + std::to_string(games) + " (" + bot + " bots, " +
        (hasIterations ? std::to_string(iterations) + " iterations, " : std::string()) + "seed " + std::to_string(seed) + ")");
    out("moves        " + std::to_string(moves));
    out("mean length  " + fixed(meanLength, 2) + " moves");
    out("time         " + fixed(seconds, 3) + " s");
    out("games/s      " + fixed(gps, 1));
    out("moves/s      " + std::to_string(std::llround(mps)));
    out("win rates    " + (rates.empty() ? std::string("-") : rates));
    out("draws        " + pct(drawRate) + " (" + std::to_string(draws) + ")");
    if (unfinished > 0) out("unfinished   " + pct((double)unfinished / games) + " (" + std::to_string(unfinished) + ")");
    if (errors > 0) out("errors       " + std::to_string(errors));
  }
  if (errors > 0) {
    if (!asJson) {
      for (auto& d : errorDetails)
        err("simulate: game " + d["game"].dump() + " (seed " + d["seed"].dump() + "): " + d["message"].get<std::string>());
      long long unlisted = errors - (long long)errorDetails.size();
      err("simulate: " + std::to_string(errors) + " game(s) ended in an engine error" +
          (unlisted > 0 ? " (" + std::to_string(unlisted) + " not listed: the engine lists the first 20 of each call; a smaller --batch lists more)" : ""));
    }
    return EXIT_FAILED;
  }
  return EXIT_OK;
}

// Each random game's final state hash, one per line (game i uses seed + i, as in simulate).
int cmdHashes(const std::vector<std::string>& args) {
  Args a = parseArgs(args, {"games", "seed"}, {});
  std::string file = oneFile(a, "GAME");
  long long total = integer(a, "games", 100, 1, kMaxGames);
  long long seed = integer(a, "seed", 0, 0, kMaxSeed - total + 1);
  std::string def = readGame(file);
  json r = parseEngineJson(rulestack::simulate(def, json{{"games", total}, {"seed", seed}, {"hashes", true}}.dump()), "simulate");
  if (!r.contains("hashes") || !r["hashes"].is_array())
    throw std::runtime_error("engine simulate returned no hashes: " + r.dump().substr(0, 200));
  std::string text;
  for (auto& h : r["hashes"]) text += h.get<std::string>() + '\n';
  std::cout << text;
  if (r.value("errors", 0LL) > 0) {
    err("hashes: " + std::to_string(r.value("errors", 0LL)) + " game(s) ended in an engine error");
    return EXIT_FAILED;
  }
  return EXIT_OK;
}

int cmdHash(const std::vector<std::string>& args) {
  if (args.size() != 2) throw UsageError("hash takes GAME SEED");
  Args a;
  a.values["seed"] = args[1];
  std::string def = readGame(args[0]);
  rulestack::Session s;
  std::string e = s.load(def, seedText(a));
  if (!e.empty()) {
    const json r = parseEngineJson(e, "load");
    for (auto& x : r["errors"]) err(formatIssue(args[0], x));
    return EXIT_FAILED;
  }
  out(s.stateHash());
  return EXIT_OK;
}

struct ScenarioLine {
  bool ok;
  std::string line;
};

// Whether `p` (an existing file) is in the directory `dir` or below it, symbolic links
// resolved (a link inside the folder that points out of it is outside).
bool inside(const fs::path& dir, const fs::path& p) {
  std::error_code ec;
  fs::path d = fs::canonical(dir, ec);
  if (ec) return false;
  fs::path f = fs::canonical(p, ec);
  if (ec) return false;
  auto di = d.begin(), fi = f.begin();
  for (; di != d.end(); ++di, ++fi)
    if (fi == f.end() || *di != *fi) return false;
  return fi != f.end();
}

// A path as the node command shows it: relative to the working folder when it is in it or below
// it ("." for the folder itself), else absolute.
std::string shownPath(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec).lexically_normal();
  if (abs.has_relative_path() && abs.filename().empty()) abs = abs.parent_path();  // ("dir/..": no "/" at the end)
  const std::string rel = abs.lexically_relative(fs::current_path(ec)).generic_string();
  return rel.empty() || rel == ".." || rel.rfind("../", 0) == 0 ? abs.string() : rel;
}

// root: the folder a scenario's game must be in ("" = the scenario's own folder).
ScenarioLine runOneScenario(const std::string& file, const std::string& root) {
  std::string name = file;
  auto fail = [&](const std::string& msg) { return ScenarioLine{false, "FAIL " + name + ": " + msg}; };
  std::string text, why;
  if (!tryRead(file, text, why)) return fail("cannot read " + file + ": " + why);
  if (isYamlName(file)) return fail("YAML is not supported by rulestack-native: convert the scenario to JSON");
  if (rulestack::nestedDeeper(text, rulestack::kMaxInputDepth)) return fail(file + ": nested too deep");
  json sc = json::parse(text, nullptr, false);
  if (sc.is_discarded() || !sc.is_object()) return fail(file + ": not a JSON object");
  if (sc.contains("name") && sc["name"].is_string() && !sc["name"].get<std::string>().empty()) name = sc["name"];
  std::string gameFile = file, gameText;
  if (sc.contains("game") && sc["game"].is_string()) {
    fs::path p = fs::path(file).parent_path() / sc["game"].get<std::string>();
    if (isYamlName(p.string())) {
      fs::path j = p;
      j.replace_extension(".json");
      std::error_code ec;
      if (!fs::exists(j, ec)) return fail("game: " + p.string() + ": YAML is not supported by rulestack-native and there is no " + j.filename().string() + " beside it");
      p = j;
    }
    gameFile = shownPath(p);
    fs::path dir = fs::path(file).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    if (!root.empty()) dir = root;
    if (fs::exists(p, ec) && !inside(dir, p)) {
      const std::string dirShown = shownPath(dir);
      return fail(root.empty() ? "game: " + gameFile + " is outside the scenario's folder " + dirShown +
                                     " (a scenario's game must be in its folder or below it; --root DIR allows the games under DIR)"
                               : "game: " + gameFile + " is outside --root " + dirShown);
    }
    if (!tryRead(gameFile, gameText, why)) return fail("game: cannot read " + gameFile + ": " + why);
    json g = json::parse(gameText, nullptr, false);
    if (g.is_discarded()) return fail("game: " + gameFile + ": JSON syntax error");
    sc["game"] = g;
  } else if (sc.contains("game") && sc["game"].is_object()) {
    gameText = sc["game"].dump();
  } else {
    return fail("\"game\" must be a path or an inline definition");
  }
  json v = parseEngineJson(rulestack::validateDefinition(gameText), "validate");
  if (v.contains("errors") && v["errors"].is_array() && !v["errors"].empty()) {
    std::string more = v["errors"].size() > 1 ? " (+" + std::to_string(v["errors"].size() - 1) + " more)" : "";
    return fail("game: " + formatIssue(gameFile, v["errors"][0]) + more);
  }
  json r = parseEngineJson(rulestack::runScenario(sc.dump()), "runScenario");
  if (r.value("ok", false)) return {true, "PASS " + name};
  if (!r.contains("failures") || !r["failures"].is_array() || r["failures"].empty()) return fail("failed");
  const json& f = r["failures"][0];
  std::string more = r["failures"].size() > 1 ? " (+" + std::to_string(r["failures"].size() - 1) + " more)" : "";
  // (a failure of the whole scenario names no step, as in node)
  const bool step = f.contains("step") && f["step"].is_number_integer() && f["step"].get<long long>() >= 0;
  return fail((step ? "step " + f["step"].dump() + ": " : "") + f.value("message", "") + more);
}

// Whether a .json file found in a directory is a scenario: it has a top-level "steps" or "game"
// key (the games beside the scenarios are skipped; a file that cannot be read or parsed is
// taken, so that its run reports why). The node command's rule.
bool isScenarioFile(const std::string& path) {
  std::string text, why;
  if (!tryRead(path, text, why)) return true;
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return true;  // (its run says why)
  return j.is_object() && (j.contains("steps") || j.contains("game"));  // top-level keys only
}

// A directory stands for every .json scenario under it (sorted); YAML files are skipped there.
std::vector<std::string> expandScenarioArgs(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (auto& a : args) {
    std::error_code ec;
    if (!fs::is_directory(a, ec)) {
      files.push_back(a);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(a, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      auto ext = it->path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
      if (ext == ".json" && isScenarioFile(it->path().string())) found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int cmdTest(const std::vector<std::string>& args) {
  Args a = parseArgs(args, {"root"}, {});
  if (a.positionals.empty()) throw UsageError("missing SCENARIO");
  std::string root = a.values.count("root") ? a.values["root"] : "";
  std::error_code rec;
  if (a.values.count("root") && (root.empty() || !fs::is_directory(root, rec))) throw UsageError("--root " + root + ": no such folder");
  int failed = 0;
  const std::vector<std::string> files = expandScenarioArgs(a.positionals);
  if (files.empty()) {
    err("test: no scenario in " + a.positionals[0] + " (a scenario is a .json file with \"steps\" or \"game\")");
    return EXIT_FAILED;
  }
  for (auto& file : files) {
    ScenarioLine r = runOneScenario(file, root);
    out(r.line);
    if (!r.ok) failed++;
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

int run(const std::vector<std::string>& argv) {
  if (argv.empty()) throw UsageError("missing command");
  const std::string& cmd = argv[0];
  std::vector<std::string> rest(argv.begin() + 1, argv.end());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    out(USAGE);
    return EXIT_OK;
  }
  if (cmd == "--version" || cmd == "-v" || cmd == "version") {
    out(rulestack::version());
    return EXIT_OK;
  }
  using Fn = int (*)(const std::vector<std::string>&);
  static const std::map<std::string, Fn> commands = {
      {"validate", cmdValidate}, {"play", cmdPlay}, {"simulate", cmdSimulate},
      {"test", cmdTest},         {"hashes", cmdHashes}, {"hash", cmdHash}};
  auto it = commands.find(cmd);
  if (it == commands.end()) throw UsageError("unknown command: " + cmd);
  for (auto& r : rest)
    if (r == "--help" || r == "-h") {
      out(USAGE);
      return EXIT_OK;
    }
  return it->second(rest);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::ios::sync_with_stdio(false);
  int code;
  try {
    code = run(args);
  } catch (const Exit& e) {
    code = e.code;
  } catch (const UsageError& e) {
    err(std::string("rulestack-native: ") + e.what());
    err(USAGE);
    code = EXIT_USAGE;
  } catch (const ReadError& e) {
    err(std::string("rulestack-native: ") + e.what());
    code = EXIT_USAGE;
  } catch (const std::exception& e) {
    err(std::string("rulestack-native: internal error: ") + e.what());
    code = EXIT_INTERNAL;
  }
  std::cout.flush();
  return code;
}
