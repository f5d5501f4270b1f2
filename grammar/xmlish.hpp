// Declarations of the X3 rules for the XML-like tags the preprocessor recognises:
// the name token after '<' and a closing tag `</name >`. Callers parse with
// x3::parse(first, last, rule, range) and get the matched name as a byte range.
#pragma once
#include <boost/range/iterator_range.hpp>
#include <boost/spirit/home/x3.hpp>

namespace wikic::grammar {
namespace x3 = boost::spirit::x3;

using Iterator = const char*;
using NameRange = boost::iterator_range<Iterator>;

struct XmlishOpenClass;
struct XmlishCloseClass;

/// After '<': an optional '/', then a run of name characters, which must be followed by
/// whitespace, '>' or "/>" (the `(name)(?:\s|\/>|>)` of Preprocessor_Hash's element regex).
using XmlishOpenRule = x3::rule<XmlishOpenClass, NameRange>;
/// `</name\s*>`; the attribute is the name, compared by the caller (names are runtime data).
using XmlishCloseRule = x3::rule<XmlishCloseClass, NameRange>;

BOOST_SPIRIT_DECLARE(XmlishOpenRule, XmlishCloseRule)

const XmlishOpenRule& xmlish_open();
const XmlishCloseRule& xmlish_close();

}  // namespace wikic::grammar
