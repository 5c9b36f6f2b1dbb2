#include "decimal.h"

#include <cstdint>
#include <cstring>

namespace rulestack {

namespace {

// A non-negative integer of up to 160 32-bit limbs (5120 bits; the largest needed is about
// 3800: 801 digits shifted by 1074 bits, or 10^1124).
struct Big {
  uint32_t w[160];
  int n = 0;  // limbs in use; w[n-1] != 0

  explicit Big(uint32_t v = 0) {
    if (v) w[n++] = v;
  }
  void mulAdd(uint32_t m, uint32_t a) {
    uint64_t c = a;
    for (int i = 0; i < n; i++) {
      c += (uint64_t)w[i] * m;
      w[i] = (uint32_t)c;
      c >>= 32;
    }
    if (c) w[n++] = (uint32_t)c;
  }
  void mulPow(uint32_t base, uint32_t bigStep, int stepExp, int k) {  // *= base^k
    for (; k >= stepExp; k -= stepExp) mulAdd(bigStep, 0);
    uint32_t m = 1;
    while (k-- > 0) m *= base;
    mulAdd(m, 0);
  }
  void mulPow10(int k) { mulPow(10, 1000000000u, 9, k); }
  void mulPow5(int k) { mulPow(5, 1220703125u, 13, k); }
  void shl(int bits) {
    if (!n || !bits) return;
    int limbs = bits / 32, b = bits % 32;
    w[n] = 0;
    for (int i = n; i >= 0; i--) {
      uint32_t hi = b ? w[i] << b : w[i];
      uint32_t lo = (b && i > 0) ? w[i - 1] >> (32 - b) : 0;
      w[i + limbs] = hi | lo;
    }
    for (int i = 0; i < limbs; i++) w[i] = 0;
    n += limbs + 1;
    trim();
  }
  void shr1() {
    for (int i = 0; i < n; i++) w[i] = (w[i] >> 1) | (i + 1 < n ? w[i + 1] << 31 : 0);
    trim();
  }
  uint32_t divSmall(uint32_t d) {  // returns the remainder
    uint64_t r = 0;
    for (int i = n - 1; i >= 0; i--) {
      uint64_t cur = (r << 32) | w[i];
      w[i] = (uint32_t)(cur / d);
      r = cur % d;
    }
    trim();
    return (uint32_t)r;
  }
  int bitLength() const {
    if (!n) return 0;
    int b = 0;
    for (uint32_t top = w[n - 1]; top; top >>= 1) b++;
    return (n - 1) * 32 + b;
  }
  void trim() {
    while (n && !w[n - 1]) n--;
  }
};

int compare(const Big& a, const Big& b) {
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  for (int i = a.n - 1; i >= 0; i--)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  return 0;
}

void subtract(Big& a, const Big& b) {  // a -= b, a >= b
  int64_t borrow = 0;
  for (int i = 0; i < a.n; i++) {
    int64_t d = (int64_t)a.w[i] - (i < b.n ? b.w[i] : 0) - borrow;
    borrow = d < 0;
    a.w[i] = (uint32_t)(d + (borrow << 32));
  }
  a.trim();
}

// floor(a / b) when it is below 2^54; a becomes the remainder.
uint64_t divide(Big& a, const Big& b) {
  Big bk = b;
  bk.shl(53);
  uint64_t q = 0;
  for (int k = 53; k >= 0; k--, bk.shr1()) {
    if (compare(a, bk) >= 0) {
      subtract(a, bk);
      q |= (uint64_t)1 << k;
    }
  }
  return q;
}

double fromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

constexpr uint64_t kHidden = (uint64_t)1 << 52;
constexpr int kMaxDigits = 800;  // more never change the rounding (a halfway point has at most 767)

// The double nearest to 0.digits × 10^dp (digits: '1'-'9' first, at most kMaxDigits + 1).
double nearest(const std::string& digits, int dp) {
  const int nd = (int)digits.size(), e10 = dp - nd;  // value = D × 10^e10
  if (dp > 309) return fromBits(0x7FFull << 52);      // >= 10^309: infinity
  if (dp < -323) return 0.0;                           // < 10^-324: below half the least subnormal
  if (nd <= 15 && e10 >= -22 && e10 <= 22) {           // D and 10^|e10| exact: one rounding
    static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t d = 0;
    for (char c : digits) d = d * 10 + (uint64_t)(c - '0');
    return e10 >= 0 ? (double)d * kPow10[e10] : (double)d / kPow10[-e10];
  }
  Big num, den(1);
  for (char c : digits) num.mulAdd(10, (uint32_t)(c - '0'));
  if (e10 >= 0) num.mulPow10(e10);
  else den.mulPow10(-e10);
  // q = floor(value × 2^s) in [2^52, 2^53), s at most 1074 (then q may be smaller: a subnormal)
  int s = 53 - (num.bitLength() - den.bitLength());  // value × 2^s in [2^52, 2^54)
  if (s > 1074) s = 1074;
  for (;;) {
    Big a = num, b = den;
    if (s >= 0) a.shl(s);
    else b.shl(-s);
    uint64_t q = divide(a, b);
    if (q >= 2 * kHidden) {
      s--;
      continue;
    }
    a.shl(1);  // round half to even on the remainder
    int c = compare(a, b);
    if (c > 0 || (c == 0 && (q & 1))) q++;
    if (q == 2 * kHidden) q = kHidden, s--;
    if (q < kHidden) return fromBits(q);  // subnormal (s == 1074)
    int biased = 1075 - s;
    if (biased >= 0x7FF) return fromBits(0x7FFull << 52);
    return fromBits(((uint64_t)biased << 52) | (q - kHidden));
  }
}

}  // namespace

double parseDecimal(const char* p, size_t length) {
  const char* end = p + length;
  bool negative = p != end && *p == '-';
  if (negative) p++;
  std::string digits;
  int dp = 0;  // decimal point position relative to digits
  bool dropped = false, fraction = false;
  for (; p != end && ((*p >= '0' && *p <= '9') || *p == '.'); p++) {
    if (*p == '.') {
      fraction = true;
    } else if (digits.empty() && *p == '0') {
      if (fraction) dp--;  // a leading zero after the point
    } else {
      if ((int)digits.size() < kMaxDigits) digits += *p;
      else dropped |= *p != '0';
      if (!fraction) dp++;
    }
  }
  if (p != end) {  // the exponent
    p++;
    bool minus = *p == '-';
    if (*p == '-' || *p == '+') p++;
    long e = 0;
    for (; p != end; p++)
      if (e < 100000) e = e * 10 + (*p - '0');
    dp += (int)(minus ? -e : e);
  }
  if (dropped) digits += '1';  // strictly between the kept digits and the next: the same rounding
  double v = digits.empty() ? 0.0 : nearest(digits, dp);
  return negative ? -v : v;
}

int shortestDecimal(double v, std::string& out) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = (int)(bits >> 52) & 0x7FF;
  const uint64_t m = biased ? (bits & (kHidden - 1)) | kHidden : bits & (kHidden - 1);
  const int e2 = biased ? biased - 1075 : -1074;  // v = m × 2^e2
  // Every digit of v exactly: v = N × 10^e10
  Big big((uint32_t)(m >> 32));
  big.shl(32);
  big.mulAdd(1, (uint32_t)m);
  int e10 = 0;
  if (e2 >= 0) big.shl(e2);
  else big.mulPow5(-e2), e10 = e2;
  std::string exact;
  while (big.n) {
    uint32_t chunk = big.divSmall(1000000000u);
    for (int i = 0; i < 9; i++, chunk /= 10) exact += (char)('0' + chunk % 10);
  }
  while (exact.size() > 1 && exact.back() == '0') exact.pop_back();  // (reversed: leading zeros)
  std::string all(exact.rbegin(), exact.rend());
  const int n = (int)all.size() + e10;  // v = 0.all × 10^n
  for (int prec = 1;; prec++) {
    int dp = n;
    out.assign(all, 0, (size_t)prec);
    if (prec < (int)all.size()) {  // round half to even, as printf("%.*e")
      char next = all[(size_t)prec];
      bool rest = all.find_first_not_of('0', (size_t)prec + 1) != std::string::npos;
      if (next > '5' || (next == '5' && (rest || ((out.back() - '0') & 1)))) {
        int i = prec - 1;
        for (; i >= 0 && out[(size_t)i] == '9'; i--) out[(size_t)i] = '0';
        if (i >= 0) out[(size_t)i]++;
        else out.insert(out.begin(), '1'), out.pop_back(), dp++;
      }
    }
    while (out.size() > 1 && out.back() == '0') out.pop_back();
    if (prec == 17 || nearest(out, dp) == v) return dp;
  }
}

}  // namespace rulestack
