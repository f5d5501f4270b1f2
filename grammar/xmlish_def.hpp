// Definitions of the xmlish tag rules. Whitespace is PCRE's \s set spelled out, because
// X3's ascii/standard classes assert or depend on the locale for bytes >= 0x80, which
// UTF-8 text is full of.
#pragma once
#include "grammar/xmlish.hpp"

namespace wikic::grammar {

namespace xmlish_detail {
const auto pcre_space = x3::char_(" \t\n\r\f\v");
const auto name_char = ~x3::char_(" \t\n\r\f\v/>");
const auto close_name_char = ~x3::char_(" \t\n\r\f\v>");
}  // namespace xmlish_detail

const XmlishOpenRule xmlish_open_rule = "xmlish_open";
const XmlishCloseRule xmlish_close_rule = "xmlish_close";

const auto xmlish_open_rule_def =
    x3::raw[-x3::lit('/') >> +xmlish_detail::name_char] >>
    &(xmlish_detail::pcre_space | x3::lit("/>") | x3::lit('>'));

const auto xmlish_close_rule_def =
    x3::lit("</") >> x3::raw[+xmlish_detail::close_name_char] >> x3::omit[*xmlish_detail::pcre_space] >> x3::lit('>');

BOOST_SPIRIT_DEFINE(xmlish_open_rule, xmlish_close_rule)

}  // namespace wikic::grammar
