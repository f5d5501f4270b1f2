// htmlspecialchars() with ENT_QUOTES or ENT_COMPAT.
#include "support/html.hpp"

namespace wikic::support {

void append_html_escaped(std::string& out, std::string_view s, bool single_quotes) {
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'':
      if (single_quotes) out += "&#039;";
      else out += c;
      break;
    default: out += c;
    }
  }
}

}  // namespace wikic::support
