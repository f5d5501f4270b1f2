// Writers of the translation report. The document is built once as ordered JSON and
// printed as JSON (nlohmann), YAML (yaml-cpp; strings double-quoted so unit ids like
// "12" stay strings) and XML (pugixml; arrays repeat a singular element). The dashboard
// is self-contained HTML: inline CSS, inline SVG bars, one small inline script that
// filters the tables (and records script errors for the headless-browser test).
#include "l10n/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "ingest/languages.hpp"
#include "support/html.hpp"

namespace wikic::l10n {
namespace {

using Json = nlohmann::ordered_json;

Json counts_json(const Completeness& c) {
  Json j;
  j["total"] = c.total;
  j["translated"] = c.translated;
  j["fuzzy"] = c.fuzzy;
  j["untranslated"] = c.untranslated;
  j["outdated_unmarked"] = c.outdated_unmarked;
  j["percent_complete"] = c.percent_complete();
  j["percent_translate_bar"] = c.percent_translate_bar();
  return j;
}

Json finding_json(const Finding& f) {
  Json j;
  j["unit"] = f.unit;
  j["kind"] = f.kind;
  j["severity"] = to_string(f.severity);
  j["page"] = f.page;
  j["lines"] = f.lines;
  if (!f.leak_lines.empty()) j["leak_lines"] = f.leak_lines;
  j["message"] = f.message;
  return j;
}

Json entry_json(const PageLanguage& e) {
  Json j;
  j["page"] = e.page;
  j["translation_page"] = e.translation_page;
  j["unit_pages"] = e.unit_pages;
  Json counts = counts_json(e.counts);
  for (auto& [k, v] : counts.items()) j[k] = v;
  Json by_status = Json::object();
  for (Status s : {Status::translated, Status::fuzzy, Status::untranslated}) {
    Json ids = Json::array();
    for (const auto& u : e.units)
      if (u.status == s) ids.push_back(u.id);
    by_status[to_string(s)] = std::move(ids);
  }
  j["units"] = std::move(by_status);
  Json units = Json::array();
  for (const auto& u : e.units) {
    Json x;
    x["id"] = u.id;
    x["status"] = to_string(u.status);
    x["evidence"] = u.evidence;
    if (u.line) x["line"] = u.line;
    if (u.last_line) x["last_line"] = u.last_line;
    if (u.outdated_unmarked) x["outdated_unmarked"] = true;
    units.push_back(std::move(x));
  }
  j["unit_status"] = std::move(units);
  Json findings = Json::array();
  for (const auto& f : e.findings) findings.push_back(finding_json(f));
  j["findings"] = std::move(findings);
  j["leak_lines"] = e.leak_lines;
  Json rules;
  rules["compared"] = e.rules_compared;
  rules["translation_from"] = e.rules_from;
  rules["source_rules"] = e.source_rules;
  rules["translation_rules"] = e.translation_rules;
  Json diffs = Json::array();
  for (const auto& d : e.rule_differences) {
    Json x;
    x["kind"] = d.kind;
    x["rule"] = d.rule;
    x["description"] = d.description;
    if (!d.translation_rule.empty()) x["translation_rule"] = d.translation_rule;
    if (!d.matched_by.empty()) x["matched_by"] = d.matched_by;
    if (!d.source_value.empty() || !d.translation_value.empty()) {
      x["source"] = d.source_value;
      x["translation"] = d.translation_value;
    }
    diffs.push_back(std::move(x));
  }
  rules["differences"] = std::move(diffs);
  j["rules"] = std::move(rules);
  return j;
}

Completeness sum(const Report& r, const std::string& lang) {
  Completeness c;
  for (const auto& e : r.entries)
    if (e.language == lang) {
      c.total += e.counts.total;
      c.translated += e.counts.translated;
      c.fuzzy += e.counts.fuzzy;
      c.untranslated += e.counts.untranslated;
      c.outdated_unmarked += e.counts.outdated_unmarked;
    }
  return c;
}

Json language_json(const Report& r, const std::string& lang) {
  Json j;
  j["language"] = lang;
  j["name"] = std::string(ingest::language_name(lang));
  j["source_language"] = r.source_language;
  j["totals"] = counts_json(sum(r, lang));
  Json pages = Json::array();
  for (const auto& e : r.entries)
    if (e.language == lang) pages.push_back(entry_json(e));
  j["pages"] = std::move(pages);
  return j;
}

Json summary_json(const Report& r) {
  Json j;
  j["source_language"] = r.source_language;
  Json langs = Json::array();
  for (const auto& lang : r.languages) {
    Json x;
    x["language"] = lang;
    Json totals = counts_json(sum(r, lang));
    for (auto& [k, v] : totals.items()) x[k] = v;
    Json pages = Json::array();
    for (const auto& e : r.entries)
      if (e.language == lang) {
        Json p;
        p["page"] = e.page;
        Json counts = counts_json(e.counts);
        for (auto& [k, v] : counts.items()) p[k] = v;
        std::size_t errors = 0;
        for (const auto& f : e.findings) errors += f.severity == Severity::error;
        p["findings"] = e.findings.size();
        p["errors"] = errors;
        p["rule_differences"] = e.rule_differences.size();
        pages.push_back(std::move(p));
      }
    x["pages"] = std::move(pages);
    langs.push_back(std::move(x));
  }
  j["languages"] = std::move(langs);
  Json sources = Json::array();
  for (const auto& s : r.sources) {
    Json x;
    x["page"] = s.page;
    x["revision"] = s.revision;
    x["timestamp"] = s.timestamp;
    Json defs = Json::array();
    for (const auto& [id, sha] : s.definitions) defs.push_back(Json{{"unit", id}, {"sha1", sha}});
    x["definitions"] = std::move(defs);
    Json findings = Json::array();
    for (const auto& f : s.findings) findings.push_back(finding_json(f));
    x["findings"] = std::move(findings);
    sources.push_back(std::move(x));
  }
  j["sources"] = std::move(sources);
  return j;
}

void emit_yaml(YAML::Emitter& out, const Json& j) {
  if (j.is_object()) {
    out << YAML::BeginMap;
    for (auto it = j.begin(); it != j.end(); ++it) {
      out << YAML::Key << it.key() << YAML::Value;
      emit_yaml(out, it.value());
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    bool scalars = std::all_of(j.begin(), j.end(), [](const Json& x) { return x.is_primitive(); });
    out << (scalars && !j.empty() ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& x : j) emit_yaml(out, x);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    out << YAML::DoubleQuoted << j.get<std::string>();
  } else {
    out << j.dump();
  }
}

std::string to_yaml(const Json& j) {
  YAML::Emitter out;
  emit_yaml(out, j);
  return std::string(out.c_str()) + "\n";
}

std::string singular(const std::string& key) {
  static const std::map<std::string, std::string> names = {
      {"pages", "page"},         {"languages", "language"}, {"findings", "finding"}, {"lines", "line"},
      {"differences", "difference"}, {"definitions", "definition"}, {"sources", "source"},
      {"unit_status", "unit"},   {"translated", "unit"},    {"fuzzy", "unit"},       {"untranslated", "unit"}};
  auto it = names.find(key);
  return it == names.end() ? "item" : it->second;
}

void emit_xml(pugi::xml_node parent, const std::string& name, const Json& j) {
  pugi::xml_node node = parent.append_child(name.c_str());
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) emit_xml(node, it.key(), it.value());
  } else if (j.is_array()) {
    for (const auto& x : j) emit_xml(node, singular(name), x);
  } else if (j.is_string()) {
    node.text().set(j.get<std::string>().c_str());
  } else {
    node.text().set(j.dump().c_str());
  }
}

std::string to_xml(const std::string& root, const Json& j) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node top = doc.append_child(root.c_str());
  for (auto it = j.begin(); it != j.end(); ++it) emit_xml(top, it.key(), it.value());
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

std::string esc(std::string_view s) { return support::html_escape(s, true); }

/// One stacked bar: translated (green), fuzzy (amber), untranslated (grey).
std::string bar(const Completeness& c, int width) {
  std::string svg = "<svg class=\"bar\" width=\"" + std::to_string(width) + "\" height=\"14\" role=\"img\" aria-label=\"" +
                    std::to_string(c.percent_complete()) + "% complete\">";
  double x = 0;
  const std::pair<std::size_t, const char*> parts[] = {
      {c.translated, "#2e7d32"}, {c.fuzzy, "#f9a825"}, {c.untranslated, "#bdbdbd"}};
  for (const auto& [n, colour] : parts) {
    if (!c.total || !n) continue;
    double w = static_cast<double>(width) * static_cast<double>(n) / static_cast<double>(c.total);
    char buf[160];
    std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"14\" fill=\"%s\"/>", x, w, colour);
    svg += buf;
    x += w;
  }
  return svg + "</svg>";
}

std::string counts_cells(const Completeness& c) {
  return "<td class=\"n\">" + std::to_string(c.total) + "</td><td class=\"n\">" + std::to_string(c.translated) +
         "</td><td class=\"n\">" + std::to_string(c.fuzzy) + "</td><td class=\"n\">" + std::to_string(c.untranslated) +
         "</td><td class=\"n\">" + std::to_string(c.percent_complete()) + "%</td>";
}

std::string join_lines(const std::vector<std::uint32_t>& lines) {
  std::string s;
  for (auto l : lines) s += (s.empty() ? "" : ", ") + std::to_string(l);
  return s;
}

}  // namespace

std::string render_html(const Report& r) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<title>wikic translation report</title>\n<style>\n"
       "body{font:14px/1.4 sans-serif;margin:1.5em;color:#212121}\n"
       "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
       "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\n"
       "td.n{text-align:right}\n.sev-error{color:#b71c1c;font-weight:bold}\n.sev-warning{color:#e65100}\n"
       ".sev-info{color:#546e7a}\n.legend span{display:inline-block;width:1em;height:1em;margin:0 .3em 0 1em;vertical-align:middle}\n"
       "svg.bar{vertical-align:middle;background:#eee}\n"
       "</style>\n</head>\n<body>\n";
  h += "<h1>Translations</h1>\n<p class=\"legend\">Source language: " + esc(r.source_language) +
       ".<span style=\"background:#2e7d32\"></span>translated<span style=\"background:#f9a825\"></span>fuzzy (outdated)"
       "<span style=\"background:#bdbdbd\"></span>untranslated</p>\n";
  h += "<p><label><input type=\"checkbox\" id=\"show-info\" checked> show info findings</label></p>\n";
  h += "<h2>Languages</h2>\n<table id=\"languages\">\n<tr><th>language</th><th>progress</th><th>units</th><th>translated</th>"
       "<th>fuzzy</th><th>untranslated</th><th>complete</th></tr>\n";
  for (const auto& lang : r.languages) {
    Completeness c = sum(r, lang);
    h += "<tr><td><a href=\"#lang-" + esc(lang) + "\">" + esc(lang) + "</a> " + esc(ingest::language_name(lang)) +
         "</td><td>" + bar(c, 300) + "</td>" + counts_cells(c) + "</tr>\n";
  }
  h += "</table>\n";
  for (const auto& lang : r.languages) {
    h += "<section id=\"lang-" + esc(lang) + "\">\n<h2>" + esc(lang) + " " + esc(ingest::language_name(lang)) + "</h2>\n";
    h += "<table class=\"pages\">\n<tr><th>page</th><th>progress</th><th>units</th><th>translated</th><th>fuzzy</th>"
         "<th>untranslated</th><th>complete</th></tr>\n";
    for (const auto& e : r.entries)
      if (e.language == lang)
        h += "<tr><td>" + esc(e.page) + "</td><td>" + bar(e.counts, 240) + "</td>" + counts_cells(e.counts) + "</tr>\n";
    h += "</table>\n";
    for (const auto& e : r.entries) {
      if (e.language != lang) continue;
      h += "<h3>" + esc(e.page) + " (" + esc(lang) + ")</h3>\n";
      std::string untranslated;
      for (const auto& u : e.units)
        if (u.status == Status::untranslated) untranslated += (untranslated.empty() ? "" : ", ") + esc(u.id);
      h += "<p>Untranslated units: " + (untranslated.empty() ? std::string("none") : untranslated) + "</p>\n";
      if (!e.leak_lines.empty())
        h += "<p class=\"sev-error\">Raw table markup shown as text on lines " + join_lines(e.leak_lines) + " of " +
             esc(e.translation_page) + "</p>\n";
      h += "<table class=\"findings\">\n<tr><th>unit</th><th>severity</th><th>kind</th><th>lines</th><th>in page</th><th>message</th></tr>\n";
      for (const auto& f : e.findings)
        h += "<tr class=\"sev-" + std::string(to_string(f.severity)) + "-row\" data-severity=\"" + to_string(f.severity) +
             "\"><td>" + esc(f.unit) + "</td><td class=\"sev-" + to_string(f.severity) + "\">" + to_string(f.severity) +
             "</td><td>" + esc(f.kind) + "</td><td>" + join_lines(f.lines) + "</td><td>" + esc(f.page) + "</td><td>" +
             esc(f.message) + "</td></tr>\n";
      h += "</table>\n";
      if (e.rules_compared) {
        h += "<p>Rules: " + std::to_string(e.source_rules) + " in the source, " + std::to_string(e.translation_rules) +
             " in the translation (from the " + esc(e.rules_from) + ").</p>\n";
        h += "<table class=\"rules\">\n<tr><th>difference</th><th>rule</th><th>English description</th><th>source</th><th>translation</th></tr>\n";
        for (const auto& d : e.rule_differences)
          h += "<tr><td>" + esc(d.kind) + "</td><td>" + esc(d.rule) + "</td><td>" + esc(d.description) + "</td><td>" +
               esc(d.source_value) + "</td><td>" + esc(d.translation_value) + "</td></tr>\n";
        h += "</table>\n";
      }
    }
    h += "</section>\n";
  }
  // The only script: hide or show info rows. window.onerror records a failure in the DOM,
  // where the headless-browser test looks for it.
  h += "<script>\n"
       "window.onerror=function(m){document.body.setAttribute('data-script-error',String(m));};\n"
       "(function(){var box=document.getElementById('show-info');\n"
       "function apply(){var rows=document.querySelectorAll('tr[data-severity=\"info\"]');\n"
       "for(var i=0;i<rows.length;i++){rows[i].style.display=box.checked?'':'none';}}\n"
       "box.addEventListener('change',apply);apply();\n"
       "document.body.setAttribute('data-script-ok','1');})();\n"
       "</script>\n</body>\n</html>\n";
  return h;
}

std::vector<std::pair<std::string, std::string>> render_report(const Report& r) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& lang : r.languages) {
    Json j = language_json(r, lang);
    files.emplace_back(lang + ".yaml", to_yaml(j));
    files.emplace_back(lang + ".xml", to_xml("translation", j));
    files.emplace_back(lang + ".json", j.dump(2) + "\n");
  }
  files.emplace_back("summary.yaml", to_yaml(summary_json(r)));
  files.emplace_back("index.html", render_html(r));
  return files;
}

}  // namespace wikic::l10n
