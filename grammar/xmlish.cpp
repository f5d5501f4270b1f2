// The one translation unit that instantiates the xmlish tag rules for `const char*`
// input without a skipper, the only way the preprocessor calls them.
#include "grammar/xmlish_def.hpp"

namespace wikic::grammar {

BOOST_SPIRIT_INSTANTIATE(XmlishOpenRule, Iterator, x3::unused_type)
BOOST_SPIRIT_INSTANTIATE(XmlishCloseRule, Iterator, x3::unused_type)

const XmlishOpenRule& xmlish_open() { return xmlish_open_rule; }
const XmlishCloseRule& xmlish_close() { return xmlish_close_rule; }

}  // namespace wikic::grammar
