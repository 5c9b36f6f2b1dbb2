// engine/src/decimal.h against the C library it replaces: parseDecimal against strtod, and
// the JSON writer's doubles against printf("%.*e") + strtod (the engine's code before), on
// hand-picked edge cases and on random bit patterns and random decimal texts.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "decimal.h"
#include "json.h"

namespace {

uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// The engine's shortest digits before decimal.h: the fewest printf digits strtod reads back.
std::string referenceShortest(double v) {
  char buf[40];
  for (int prec = 1; prec <= 17; prec++) {
    std::snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
    if (prec == 17 || std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// shortestDecimal's digits and exponent in printf's d.ddde±XX form, for comparison.
std::string oursShortest(double v) {
  std::string digits;
  int n = rulestack::shortestDecimal(v, digits);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%se%+03d", (digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "")).c_str(), n - 1);
  return buf;
}

// printf's form with its trailing zeros of the digits removed (shortestDecimal keeps none).
std::string trimmed(std::string s) {
  size_t e = s.find('e');
  std::string m = s.substr(0, e), x = s.substr(e);
  if (m.find('.') != std::string::npos) {
    while (m.back() == '0') m.pop_back();
    if (m.back() == '.') m.pop_back();
  }
  return m + x;
}

void checkParse(const std::string& text) {
  INFO(text);
  REQUIRE(bitsOf(rulestack::parseDecimal(text.data(), text.size())) == bitsOf(std::strtod(text.c_str(), nullptr)));
}

void checkShortest(double v) {
  INFO(bitsOf(v));
  REQUIRE(oursShortest(v) == trimmed(referenceShortest(v)));
}

}  // namespace

TEST_CASE("parseDecimal reads decimal text as strtod does", "[decimal]") {
  for (const char* t : {"0.0", "-0.0", "0e5", "1.5", "-2.25", "0.1", "0.3", "1e22", "1e23", "9007199254740993.0",
                        "123456789012345678901234567890e-10", "1.7976931348623157e308", "1.7976931348623158e308",
                        "1.7976931348623159e308", "1e309", "2.2250738585072011e-308", "2.2250738585072014e-308",
                        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-324",
                        "1e-400", "0.000000000000000000000000000001e30", "1e+0", "1E-2", "12.5e-1", "1e99999999999",
                        "1e-99999999999", "0.5e-323", "7.2057594037927933e16", "8.98846567431158e307"})
    checkParse(t);
  // halfway between two doubles, exactly and a digit after (the long tail decides)
  std::string half = "9007199254740993";  // 2^53 + 1
  checkParse(half + ".0");
  checkParse(half + ".00000000000000000000000001");
  checkParse(half + "." + std::string(900, '0') + "1");  // the deciding digit past the 800 kept
  checkParse("1." + std::string(1000, '9'));
}

TEST_CASE("parseDecimal matches strtod on random decimal texts", "[decimal]") {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 20000; i++) {
    std::string t = (rng() & 1) ? "-" : "";
    int intDigits = (int)(rng() % 20), fracDigits = (int)(rng() % 25);
    t += std::to_string(rng() % 10);
    for (int k = 0; k < intDigits; k++) t += (char)('0' + rng() % 10);
    if (fracDigits) {
      t += '.';
      for (int k = 0; k < fracDigits; k++) t += (char)('0' + rng() % 10);
    }
    if (rng() % 3) t += "e" + std::to_string((int)(rng() % 700) - 350);
    checkParse(t);
  }
}

TEST_CASE("shortestDecimal finds printf's shortest round-trip digits", "[decimal]") {
  for (double v : {0.5, 3.0, 1e20, 0.1, 1.0 / 3, 2.0 / 3, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308,
                   9007199254740993.0, 123456789.0, 33.333333333333336, 1e-5, 1e15, 1e16, 1.8446744073709552e19})
    checkShortest(v);
  std::mt19937_64 rng(15);
  for (int i = 0; i < 3000; i++) {
    double v;
    uint64_t b = rng() & 0x7FFFFFFFFFFFFFFFull;
    std::memcpy(&v, &b, sizeof v);
    if (std::isfinite(v) && v > 0) checkShortest(v);
    checkShortest((double)(1 + rng() % 100000) / (double)(1 + rng() % 1000));  // means, as simulate writes
  }
}

// (nlohmann's Grisu2 digits are not always the shortest, e.g. 5.2495268171299607e-36 where
// 5.249526817129961e-36 reads back the same: the engine wrote printf's shortest before too.)
TEST_CASE("the JSON writer keeps nlohmann's double format", "[decimal]") {
  auto dump = [](double d) {
    std::string ours = rulestack::Json(d).dump();
    REQUIRE(ours == nlohmann::json(d).dump());
    return ours;
  };
  REQUIRE(dump(0.5) == "0.5");
  REQUIRE(dump(3.0) == "3.0");
  REQUIRE(dump(1e20) == "1e+20");
  REQUIRE(dump(-0.0) == "-0.0");
  REQUIRE(dump(1e14) == "100000000000000.0");
  REQUIRE(dump(1e15) == "1e+15");
  REQUIRE(dump(123456789012345.6) == "123456789012345.6");
  REQUIRE(dump(1e-5) == "1e-05");
  REQUIRE(dump(0.0001) == "0.0001");
  REQUIRE(dump(33.333333333333336) == "33.333333333333336");
  REQUIRE(dump(1.8446744073709552e19) == "1.8446744073709552e+19");
  REQUIRE(rulestack::Json::parse("[1.5e3,-9223372036854775808,18446744073709551615,18446744073709551616]").dump() ==
          "[1500.0,-9223372036854775808,18446744073709551615,1.8446744073709552e+19]");
}
