// Provenance-carrying text: appending merges adjacent segments of one source span so a
// long run of page text stays one segment. Only segments copied byte for byte merge, so
// every byte of a merged segment keeps its exact source offset.
#include "expand/piece.hpp"

#include <algorithm>

namespace wikic::expand {

namespace {
bool is_php_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' || c == '\x0B'; }

// The part of segment `s` inside bytes [b, e) of its piece, renumbered from b; false
// when nothing of it is left. The source span is clipped by the same amounts when it
// maps byte for byte.
bool clip(const Segment& s, std::uint32_t b, std::uint32_t e, Segment& out) {
  std::uint32_t nb = std::max(s.begin, b), ne = std::min(s.end, e);
  if (nb >= ne) return false;
  Origin o = s.origin;
  if (o.span.size() == s.end - s.begin) {
    o.span.begin += nb - s.begin;
    o.span.end -= s.end - ne;
  }
  out = {nb - b, ne - b, o};
  return true;
}
}  // namespace

std::string_view php_trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_php_space(s[b])) ++b;
  while (e > b && is_php_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

void Piece::append(std::string_view t, const Origin& origin) {
  if (t.empty()) return;
  auto begin = static_cast<std::uint32_t>(text.size());
  text.append(t);
  auto end = static_cast<std::uint32_t>(text.size());
  if (!segments.empty()) {
    Segment& last = segments.back();
    // A call's output (a semantic marker, a magic word's value) ends where the call
    // ends in the source, so the text after the call would otherwise extend it.
    if (last.end == begin && last.origin.source == origin.source && last.origin.chain == origin.chain &&
        last.origin.span.end == origin.span.begin && origin.span.size() == t.size() &&
        last.origin.span.size() == last.end - last.begin) {
      last.end = end;
      last.origin.span.end = origin.span.end;
      return;
    }
  }
  // Most pieces (a parameter value, a title) end up with a few segments: one
  // allocation for four instead of growing 1, 2, 4.
  if (segments.capacity() == 0) segments.reserve(4);
  segments.push_back({begin, end, origin});
}

void Piece::append(const Piece& other) {
  auto shift = static_cast<std::uint32_t>(text.size());
  text.append(other.text);
  for (const auto& s : other.segments) segments.push_back({s.begin + shift, s.end + shift, s.origin});
}

Piece Piece::trimmed() const& {
  std::string_view t = php_trim(text);
  auto b = static_cast<std::uint32_t>(t.data() - text.data());
  auto e = static_cast<std::uint32_t>(b + t.size());
  if (b == 0 && e == text.size()) return *this;
  Piece out;
  out.text.assign(t);
  Segment kept;
  for (const auto& s : segments)
    if (clip(s, b, e, kept)) out.segments.push_back(kept);
  return out;
}

Piece Piece::trimmed() && {
  std::string_view t = php_trim(text);
  auto b = static_cast<std::uint32_t>(t.data() - text.data());
  auto e = static_cast<std::uint32_t>(b + t.size());
  if (b == 0 && e == text.size()) return std::move(*this);
  // As the const version, writing the clipped segments over the old ones (k <= j).
  std::size_t k = 0;
  for (std::size_t j = 0; j < segments.size(); ++j) {
    const Segment s = segments[j];
    if (clip(s, b, e, segments[k])) ++k;
  }
  segments.resize(k);
  text.erase(e);
  text.erase(0, b);
  return std::move(*this);
}

const Origin* Piece::origin_at(std::size_t offset) const {
  if (segments.empty()) return nullptr;
  auto it = std::upper_bound(segments.begin(), segments.end(), offset,
                             [](std::size_t off, const Segment& s) { return off < s.end; });
  if (it == segments.end()) return &segments.back().origin;
  return &it->origin;
}

Origin byte_origin(const std::vector<Segment>& segments, std::size_t offset) {
  if (segments.empty()) return {};
  auto it = std::upper_bound(segments.begin(), segments.end(), offset,
                             [](std::size_t off, const Segment& s) { return off < s.end; });
  if (it == segments.end()) --it;
  Origin o = it->origin;
  if (offset >= it->begin && o.span.size() == it->end - it->begin) o.span.begin += static_cast<std::uint32_t>(offset - it->begin);
  return o;
}

}  // namespace wikic::expand
