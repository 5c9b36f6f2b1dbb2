// Decimal text <-> double, exactly, with no libc: strtod and printf pull musl's long-double
// code into the wasm module (about 25 KB). Both are correctly rounded (ties to even), the
// way strtod and printf("%.*e") round, with a small big-integer arithmetic of our own (cold
// code: only numbers with a fraction or an exponent come here).
#pragma once
#include <cstddef>
#include <string>

namespace rulestack {

// The double nearest to the decimal number in text (JSON number syntax, already checked:
// -?digits[.digits][(e|E)[+-]digits]), ties to even; ±infinity beyond the double range,
// ±0 below it. As strtod(text) does.
double parseDecimal(const char* text, size_t length);

// The shortest decimal digits that read back as v (finite, > 0): the fewest significant
// digits, from 1 to 17, whose correctly rounded value parses back to v, as
// printf("%.*e") + strtod would find them. digits: no trailing zeros; v = 0.digits × 10^return.
int shortestDecimal(double v, std::string& digits);

}  // namespace rulestack
