// YAML (yaml-cpp Emitter) and XML (pugixml) writers of the page manifest.
#include "emit/manifest.hpp"

#include <pugixml.hpp>
#include <sstream>
#include <yaml-cpp/yaml.h>

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

// Every string is double-quoted: a YAML 1.1 reader would take the language code `no`
// for false, the schema version 0.11 for a number and a timestamp for a date.
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
  out << YAML::Key << "pages" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : pages_) {
    out << YAML::BeginMap;
    out << YAML::Key << "title" << YAML::Value << YAML::DoubleQuoted << p.title;
    out << YAML::Key << "ns" << YAML::Value << p.ns;
    out << YAML::Key << "id" << YAML::Value << p.id;
    out << YAML::Key << "language" << YAML::Value << YAML::DoubleQuoted << p.language;
    if (!p.redirect.empty()) out << YAML::Key << "redirect" << YAML::Value << YAML::DoubleQuoted << p.redirect;
    out << YAML::Key << "revision" << YAML::Value << p.revision;
    out << YAML::Key << "parent" << YAML::Value << p.parent;
    out << YAML::Key << "timestamp" << YAML::Value << YAML::DoubleQuoted << p.timestamp;
    out << YAML::Key << "contributor" << YAML::Value << YAML::DoubleQuoted << p.contributor;
    out << YAML::Key << "model" << YAML::Value << YAML::DoubleQuoted << p.model;
    out << YAML::Key << "format" << YAML::Value << YAML::DoubleQuoted << p.format;
    out << YAML::Key << "bytes" << YAML::Value << p.bytes;
    out << YAML::Key << "sha1" << YAML::Value << YAML::DoubleQuoted << p.sha1;
    out << YAML::Key << "sha1-computed" << YAML::Value << p.sha1_computed;
    out << YAML::Key << "revisions-in-input" << YAML::Value << p.revisions_in_input;
    out << YAML::Key << "source" << YAML::Value << YAML::DoubleQuoted
        << p.file + ":" + std::to_string(p.at.line) + ":" + std::to_string(p.at.column);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
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
