// Shared by the libFuzzer targets: the example games (build/examples-json/*.json, read once at
// start-up), the "<example name>\n<body>" input form of the move and snapshot targets, and a
// structure-aware mutator for JSON inputs (half the time it edits the parsed JSON tree: a value
// replaced by a boundary value or by another node of the same document, a key or element
// deleted or duplicated, a string's bytes mutated; the other half libFuzzer's own byte mutator).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace fuzz {

using nlohmann::json;

struct Example {
  std::string name;  // file name without .json
  std::string text;  // the definition, JSON text
};

inline std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The example games: $RULESTACK_EXAMPLES_JSON, else the directory compiled in.
inline const std::vector<Example>& examples() {
  static std::vector<Example> all = [] {
    namespace fs = std::filesystem;
    const char* env = std::getenv("RULESTACK_EXAMPLES_JSON");
    std::string dir = env && *env ? env : RULESTACK_EXAMPLES_JSON;
    std::vector<Example> out;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().extension() == ".json")
        out.push_back({e.path().stem().string(), readFile(e.path().string())});
    std::sort(out.begin(), out.end(), [](const Example& a, const Example& b) { return a.name < b.name; });
    if (out.empty()) {
      std::fprintf(stderr, "fuzz: no example games in %s (run `node scripts/build.mjs native`)\n", dir.c_str());
      std::abort();
    }
    return out;
  }();
  return all;
}

// "<example name>\n<body>": the example of that name (else one picked by the name's bytes)
// and the body.
inline size_t splitExample(const uint8_t* data, size_t size, std::string& body) {
  const auto& ex = examples();
  const char* s = reinterpret_cast<const char*>(data);
  const char* nl = static_cast<const char*>(std::memchr(s, '\n', size));
  std::string name = nl ? std::string(s, nl) : std::string();
  body = nl ? std::string(nl + 1, s + size) : std::string(s, size);
  for (size_t i = 0; i < ex.size(); i++)
    if (ex[i].name == name) return i;
  size_t h = 0;
  for (char c : name) h = h * 31 + (unsigned char)c;
  return h % ex.size();
}

// ---------------------------------------------------------------------------- JSON mutator
namespace detail {

inline void collect(json& j, std::vector<json*>& nodes, std::vector<std::string>& keys, int depth = 0) {
  if (nodes.size() > 20000 || depth > 200) return;
  nodes.push_back(&j);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (keys.size() < 2000) keys.push_back(it.key());
      collect(it.value(), nodes, keys, depth + 1);
    }
  } else if (j.is_array()) {
    for (auto& e : j) collect(e, nodes, keys, depth + 1);
  }
}

inline json boundary(std::mt19937& rng) {
  static const json values[] = {
      0, 1, -1, 2, 3, 20, 100, 255, 1000, 20000, 65536, 2147483647, -2147483648LL, 2147483648LL,
      4294967296LL, 9007199254740993LL, -9007199254740993LL, (long long)INT64_MAX, (long long)INT64_MIN,
      (unsigned long long)UINT64_MAX, 0.5, -0.0, 1e308, -1e308, 1e-320, true, false, nullptr, "", "0", "1",
      "-1", "x", "$", "$player.current", "$entity.self", "$zone.@Hand", "$queue.top", "$item", "$target",
      json::array(), json::object(), json::array({nullptr}), json::array({0, 1}), std::string(300, 'a')};
  return values[rng() % (sizeof values / sizeof values[0])];
}

}  // namespace detail

// Mutates `text` as JSON; false when it does not parse (the caller then mutates bytes).
inline bool mutateJsonText(std::string& text, std::mt19937& rng) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return false;
  std::vector<json*> nodes;
  std::vector<std::string> keys;
  detail::collect(doc, nodes, keys);
  int rounds = 1 + (rng() % 3 == 0 ? rng() % 4 : 0);
  for (int r = 0; r < rounds; r++) {
    if (r > 0) {  // the tree changed: collect again
      nodes.clear();
      keys.clear();
      detail::collect(doc, nodes, keys);
    }
    json& n = *nodes[rng() % nodes.size()];
    json& other = *nodes[rng() % nodes.size()];
    switch (rng() % 9) {
      case 0:
        n = detail::boundary(rng);
        break;
      case 1:
        if (&n != &other) n = json(other);  // transplant a copy (also of an ancestor)
        break;
      case 2:  // delete a key / an element
        if (n.is_object() && !n.empty()) {
          auto it = n.begin();
          std::advance(it, rng() % n.size());
          n.erase(it);
        } else if (n.is_array() && !n.empty()) {
          n.erase(n.begin() + rng() % n.size());
        }
        break;
      case 3:  // add a key (of this document) / an element
        if (n.is_object() && !keys.empty()) n[keys[rng() % keys.size()]] = json(other);
        else if (n.is_array()) n.insert(n.begin() + (n.empty() ? 0 : rng() % (n.size() + 1)), json(other));
        break;
      case 4:  // duplicate or swap elements
        if (n.is_array() && n.size() >= 2) {
          size_t a = rng() % n.size(), b = rng() % n.size();
          if (rng() % 2) std::swap(n[a], n[b]);
          else n.push_back(json(n[a]));
        }
        break;
      case 5:
      case 6: {  // a string's bytes (an expression, a name, an id)
        if (!n.is_string()) break;
        std::string s = n.get<std::string>();
        size_t max = s.size() + 64;
        s.resize(max);
        size_t len = LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(&s[0]), max - 64, max);
        s.resize(len);
        n = s;
        break;
      }
      case 7:  // a number nudged
        if (n.is_number_integer()) {
          long long v = n.get<long long>(), d = (long long)(rng() % 5) - 2;
          n = (d > 0 && v > INT64_MAX - d) || (d < 0 && v < INT64_MIN - d) ? v : v + d;
        } else if (n.is_number()) n = -n.get<double>();
        else n = detail::boundary(rng);
        break;
      case 8:  // a key renamed to another key of the document
        if (n.is_object() && !n.empty() && !keys.empty()) {
          auto it = n.begin();
          std::advance(it, rng() % n.size());
          json v = it.value();
          n.erase(it);
          n[keys[rng() % keys.size()]] = v;
        }
        break;
    }
  }
  text = doc.dump(rng() % 4 == 0 ? 1 : -1, ' ', false, json::error_handler_t::replace);
  return true;
}

// The custom mutator of a JSON target. prefixLine: the input starts with "<name>\n" (kept).
inline size_t mutate(uint8_t* data, size_t size, size_t maxSize, unsigned seed, bool prefixLine) {
  std::mt19937 rng(seed);
  if (rng() % 2 == 0 || size == 0) return LLVMFuzzerMutate(data, size, maxSize);
  std::string all(reinterpret_cast<char*>(data), size);
  std::string prefix, body = all;
  if (prefixLine) {
    size_t nl = all.find('\n');
    if (nl != std::string::npos) {
      prefix = all.substr(0, nl + 1);
      body = all.substr(nl + 1);
    }
  }
  if (!mutateJsonText(body, rng)) return LLVMFuzzerMutate(data, size, maxSize);
  std::string out = prefix + body;
  if (out.size() > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

// A deterministic picker seeded by the input.
struct Lcg {
  uint64_t s;
  explicit Lcg(const uint8_t* d, size_t n) : s(1469598103934665603ull) {
    for (size_t i = 0; i < n; i++) s = (s ^ d[i]) * 1099511628211ull;
  }
  uint32_t below(uint32_t n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return n ? (uint32_t)((s >> 33) % n) : 0;
  }
};

// An oracle failed: print and abort (libFuzzer saves the input).
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz oracle failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace fuzz
