// FIPS 180-4 SHA-1, plus MediaWiki's base-36 rendering of the digest.
#include "support/sha1.hpp"

#include <algorithm>
#include <cstring>

namespace wikic::support {

namespace {
std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

void compress(std::uint32_t h[5], const unsigned char* block) {
  std::uint32_t w[80];
  for (int i = 0; i < 16; ++i)
    w[i] = std::uint32_t(block[4 * i]) << 24 | std::uint32_t(block[4 * i + 1]) << 16 |
           std::uint32_t(block[4 * i + 2]) << 8 | std::uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int i = 0; i < 80; ++i) {
    std::uint32_t f, k;
    if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
    else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
    else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
    else { f = b ^ c ^ d; k = 0xCA62C1D6; }
    std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
    e = d; d = c; c = rotl(b, 30); b = a; a = t;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}
}  // namespace

std::array<std::uint8_t, 20> sha1(std::string_view data) {
  std::uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  auto p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t n = data.size();
  std::size_t full = n / 64 * 64;
  for (std::size_t i = 0; i < full; i += 64) compress(h, p + i);
  unsigned char tail[128] = {};
  std::size_t rest = n - full;
  std::memcpy(tail, p + full, rest);
  tail[rest] = 0x80;
  std::size_t len = rest + 1 + 8 <= 64 ? 64 : 128;
  std::uint64_t bits = std::uint64_t(n) * 8;
  for (int i = 0; i < 8; ++i) tail[len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  for (std::size_t i = 0; i < len; i += 64) compress(h, tail + i);
  std::array<std::uint8_t, 20> out{};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * j));
  return out;
}

std::string sha1_hex(std::string_view data) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (auto b : sha1(data)) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string sha1_base36(std::string_view data) {
  // Long division of the 160-bit big-endian number by 36, most significant byte first.
  auto digest = sha1(data);
  std::array<std::uint8_t, 20> num = digest;
  std::string out;
  auto is_zero = [&] { return std::all_of(num.begin(), num.end(), [](auto b) { return b == 0; }); };
  while (!is_zero()) {
    unsigned rem = 0;
    for (auto& b : num) {
      unsigned cur = rem * 256 + b;
      b = static_cast<std::uint8_t>(cur / 36);
      rem = cur % 36;
    }
    out += "0123456789abcdefghijklmnopqrstuvwxyz"[rem];
  }
  while (out.size() < 31) out += '0';
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace wikic::support
