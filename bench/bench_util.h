// Shared by the native benches: CPU time, reading a file, compiling a definition.
#pragma once
#include <time.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "session_impl.h"

namespace bench {

// CPU time of this (single-threaded) process: the machine may be shared, and CPU time is far
// less disturbed by other processes than wall time.
inline double now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::shared_ptr<rulestack::Def> compile(const std::string& text) {
  std::vector<rulestack::DefError> errs;
  auto def = rulestack::compileDefinition(text, errs);
  if (!def) throw std::runtime_error("invalid definition: " + (errs.empty() ? "" : errs[0].path + ": " + errs[0].message));
  return def;
}

}  // namespace bench
