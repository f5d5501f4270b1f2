// YAML (yaml-cpp's Emitter for the inputs, emit's own printer in its layout for the
// pages) and XML (pugixml) writers of the page manifest.
#include "emit/manifest.hpp"

#include <charconv>
#include <pugixml.hpp>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "emit/printing.hpp"

namespace wikic::emit {

void Manifest::add(const ingest::SiteInfo& site, const ingest::Page& page, support::DiagnosticSink& sink) {
  if (inputs_.empty() || inputs_.back().file != page.source.file)
    inputs_.push_back({page.source.file, site.sitename, site.dbname, site.base, site.generator,
                       site.language, site.schema_version});
  auto [seen, fresh] = by_title_.emplace(page.title, pages_.size());
  if (!fresh) {
    const ManifestPage& same = pages_[seen->second];
    sink.warning(page.source.file, page.source.page_at,
                 "page '" + page.title + "' was already read from " + same.file + ":" +
                     std::to_string(same.at.line) + ":" + std::to_string(same.at.column));
  }
  const auto& rev = page.revision;
  pages_.push_back({page.title, page.ns, page.id, page.language, page.redirect, rev.id, rev.parent_id,
                    rev.timestamp, rev.contributor.username.empty() ? rev.contributor.ip : rev.contributor.username,
                    rev.model, rev.format, rev.text.size(), rev.sha1, rev.sha1_computed,
                    page.revisions_in_input, page.source.file, page.source.page_at});
}

namespace {

using printing::Key;
using printing::Sink;
using printing::operator""_key;

// "key: " of an entry of `pages:`, its first key after the item's dash.
void key(Sink& out, const Key& k, bool first = false) {
  char* at = printing::put(out.reserve_more(0), first ? "\n  - " : "\n    ");
  out.commit(printing::put(printing::put(at, k.yaml), ": "));
}

void string_field(Sink& out, const Key& k, std::string_view s) {
  key(out, k);
  printing::yaml_string(out, s);
}

// Integers as the Emitter writes them (through an ostream): in full.
template <class Integer>
void integer_field(Sink& out, const Key& k, Integer v) {
  key(out, k);
  char* at = out.reserve_more(0);
  out.commit(std::to_chars(at, at + Sink::slack, v).ptr);
}

// The `pages:` sequence as yaml-cpp's Emitter wrote it (block map per page, "- " two
// columns in, keys four), written here because the Emitter spent ~0.3M instructions on
// each page's entry (its plain-scalar checks); emit_test compares it with the Emitter.
void write_pages(Sink& out, const std::vector<ManifestPage>& pages) {
  out.reserve_more(0);
  out.put("\npages:");
  for (const auto& p : pages) {
    key(out, "title"_key, true);
    printing::yaml_string(out, p.title);
    integer_field(out, "ns"_key, p.ns);
    integer_field(out, "id"_key, p.id);
    string_field(out, "language"_key, p.language);
    if (!p.redirect.empty()) string_field(out, "redirect"_key, p.redirect);
    integer_field(out, "revision"_key, p.revision);
    integer_field(out, "parent"_key, p.parent);
    string_field(out, "timestamp"_key, p.timestamp);
    string_field(out, "contributor"_key, p.contributor);
    string_field(out, "model"_key, p.model);
    string_field(out, "format"_key, p.format);
    integer_field(out, "bytes"_key, p.bytes);
    string_field(out, "sha1"_key, p.sha1);
    key(out, "sha1-computed"_key);
    out.commit(printing::put(out.reserve_more(0), p.sha1_computed ? "true" : "false"));
    integer_field(out, "revisions-in-input"_key, p.revisions_in_input);
    string_field(out, "source"_key, p.file + ":" + std::to_string(p.at.line) + ":" + std::to_string(p.at.column));
  }
}

}  // namespace

// Every string is double-quoted: a YAML 1.1 reader would take the language code `no`
// for false, the schema version 0.11 for a number and a timestamp for a date. yaml-cpp
// writes the inputs (their `file` is quoted only where the Emitter finds it needs to
// be); the pages follow in the same layout.
std::string Manifest::to_yaml() const {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::BeginMap;
  out << YAML::Key << "wikic-pages" << YAML::Value << manifest_schema_version;
  out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const auto& in : inputs_) {
    out << YAML::BeginMap << YAML::Key << "file" << YAML::Value << in.file;
    out << YAML::Key << "sitename" << YAML::Value << YAML::DoubleQuoted << in.sitename;
    out << YAML::Key << "dbname" << YAML::Value << YAML::DoubleQuoted << in.dbname;
    out << YAML::Key << "base" << YAML::Value << YAML::DoubleQuoted << in.base;
    out << YAML::Key << "generator" << YAML::Value << YAML::DoubleQuoted << in.generator;
    out << YAML::Key << "language" << YAML::Value << YAML::DoubleQuoted << in.language;
    out << YAML::Key << "schema-version" << YAML::Value << YAML::DoubleQuoted << in.schema_version;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (pages_.empty()) {
    out << YAML::Key << "pages" << YAML::Value << YAML::BeginSeq << YAML::EndSeq << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
  }
  // The Emitter has written all it was given: the next key would start with a line break.
  Sink pages;
  write_pages(pages, pages_);
  std::string text(out.c_str());
  text += pages.text();
  text += '\n';
  return text;
}

std::string Manifest::to_xml() const {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = doc.append_child("wikic-pages");
  root.append_attribute("version") = manifest_schema_version;
  for (const auto& in : inputs_) {
    auto e = root.append_child("input");
    e.append_attribute("file") = in.file.c_str();
    e.append_attribute("sitename") = in.sitename.c_str();
    e.append_attribute("dbname") = in.dbname.c_str();
    e.append_attribute("base") = in.base.c_str();
    e.append_attribute("generator") = in.generator.c_str();
    e.append_attribute("language") = in.language.c_str();
    e.append_attribute("schema-version") = in.schema_version.c_str();
  }
  for (const auto& p : pages_) {
    auto e = root.append_child("page");
    e.append_attribute("title") = p.title.c_str();
    e.append_attribute("ns") = p.ns;
    e.append_attribute("id") = static_cast<unsigned long long>(p.id);
    e.append_attribute("language") = p.language.c_str();
    if (!p.redirect.empty()) e.append_attribute("redirect") = p.redirect.c_str();
    e.append_attribute("revision") = static_cast<unsigned long long>(p.revision);
    e.append_attribute("parent") = static_cast<unsigned long long>(p.parent);
    e.append_attribute("timestamp") = p.timestamp.c_str();
    e.append_attribute("contributor") = p.contributor.c_str();
    e.append_attribute("model") = p.model.c_str();
    e.append_attribute("format") = p.format.c_str();
    e.append_attribute("bytes") = static_cast<unsigned long long>(p.bytes);
    e.append_attribute("sha1") = p.sha1.c_str();
    e.append_attribute("sha1-computed") = p.sha1_computed;
    e.append_attribute("revisions-in-input") = static_cast<unsigned long long>(p.revisions_in_input);
    e.append_attribute("source") =
        (p.file + ":" + std::to_string(p.at.line) + ":" + std::to_string(p.at.column)).c_str();
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

}  // namespace wikic::emit
