// Unit tests of src/ingest: both export schema versions, site info and namespaces,
// language detection, .wiki files, streaming of a generated large export, and every
// bad-input case with its exact diagnostic.
#include <doctest/doctest.h>
#include <pugixml.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <algorithm>
#include <random>
#include <thread>
#include <unistd.h>

#include "ingest/export_reader.hpp"
#include "ingest/input.hpp"
#include "ingest/languages.hpp"
#include "support/sha1.hpp"
#include "support/source.hpp"
#include "support/utf8.hpp"
#include "util/run.hpp"

using namespace wikic;
using wikic::test::ScratchDir;
using wikic::test::source_path;

namespace {
struct Read {
  std::vector<ingest::Page> pages;
  std::vector<ingest::SiteInfo> sites;
  support::DiagnosticSink sink;
  ingest::InputStats stats;
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : sink.all()) out.push_back(d.format());
    return out;
  }
};

Read read(const std::vector<std::string>& inputs, ingest::InputOptions options = {}) {
  Read r;
  r.stats = ingest::read_inputs(inputs, options, r.sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
    r.sites.push_back(site);
    r.pages.push_back(std::move(page));
  });
  return r;
}

const std::string header =
    "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.11/\" version=\"0.11\" xml:lang=\"en\">\n"
    "  <siteinfo>\n    <sitename>T</sitename>\n  </siteinfo>\n";

std::string page_xml(const std::string& title, const std::string& text) {
  return "  <page>\n    <title>" + title + "</title>\n    <ns>0</ns>\n    <id>1</id>\n"
         "    <revision>\n      <id>2</id>\n      <timestamp>2024-01-01T00:00:00Z</timestamp>\n"
         "      <text xml:space=\"preserve\">" + text + "</text>\n    </revision>\n  </page>\n";
}

/// Whether what the reader noted of a page's text while decoding it (its newlines, a
/// "<translate") is true of the text; `noted`: whether it noted them at all.
bool notes_hold(const ingest::Revision& rev, bool& noted) {
  noted = rev.newlines.has_value() && rev.translate_tag.has_value();
  const auto newlines = static_cast<std::size_t>(std::count(rev.text.begin(), rev.text.end(), '\n'));
  const bool translate = rev.text.find("<translate") != std::string::npos;
  return (!rev.newlines || *rev.newlines == newlines) && (!rev.translate_tag || *rev.translate_tag == translate);
}

/// An export of one page per text, titled P0, P1, … in order.
std::string export_of(const std::vector<std::string>& texts) {
  std::string xml = header;
  for (std::size_t k = 0; k < texts.size(); ++k) xml += page_xml("P" + std::to_string(k), texts[k]);
  return xml + "</mediawiki>\n";
}
}  // namespace

TEST_CASE("export schema 0.10: site info, namespaces, latest revision, redirect, language") {
  auto r = read({source_path("corpus/exports/mini-export-0.10.xml")});
  CHECK(r.sink.errors() == 0);
  CHECK(r.sink.warnings() == 0);
  REQUIRE(r.pages.size() == 6);
  const auto& site = r.sites.front();
  CHECK(site.schema_version == "0.10");
  CHECK(site.sitename == "Wikicarpedia");
  CHECK(site.base == "https://wikicarpedia.com/car/Main_Page");
  CHECK(site.case_rule == "first-letter");
  REQUIRE(site.find(1198));
  CHECK(site.find(1198)->name == "Translations");
  CHECK(site.find(0)->name.empty());
  CHECK(site.split_title("template:Feature") == std::pair<int, std::string_view>{10, "Feature"});
  CHECK(site.split_title("Translations:Page/1/fr").first == 1198);
  CHECK(site.split_title("Carcassonne: Big Box").first == 0);

  CHECK(r.pages[0].title == "Template:Feature");
  CHECK(r.pages[0].ns == 10);
  CHECK(r.pages[0].revision.contributor.username == "Bumsakalaka");
  CHECK_FALSE(r.pages[0].revision.sha1_computed);
  CHECK(r.pages[0].revision.sha1 == "0wfm8zxa420gledhovzrq8hftdxqys1");
  // ColorYellow has no <sha1>: computed as MediaWiki would (checked against Python's hashlib).
  CHECK(r.pages[1].revision.sha1 == "tkwmf0em5xn4gjow7oldrdvfqueq446");
  CHECK(r.pages[1].revision.sha1_computed);
  CHECK(r.pages[1].revision.contributor.ip == "192.0.2.1");

  const auto& basics = r.pages[2];
  CHECK(basics.title == "Scoring Basics");
  CHECK(basics.revisions_in_input == 2);
  CHECK(basics.revision.id == 6002);
  CHECK(basics.revision.parent_id == 6001);
  CHECK(basics.revision.text.find("'''{{Feature|name=Well|text=well(s)}}'''") != std::string::npos);
  CHECK(basics.source.page_at == support::Position{53, 3});

  CHECK(r.pages[3].language == "fr");
  CHECK(r.pages[4].redirect == "Scoring Basics");
  CHECK(r.pages[5].language == "en");  // "/en" is English, the site language too
  CHECK(r.pages[5].revision.text == "Select your expansions \xE2\x80\x93 \xC3\xBC" "ber alles.");
}

TEST_CASE("export schema 0.11: the shipped corpus holds the seed line byte for byte") {
  auto r = read({source_path("corpus/wica/scoring-during-turn-sequence.xml")});
  CHECK(r.sink.errors() == 0);
  REQUIRE(r.pages.size() == 1);
  const auto& p = r.pages[0];
  CHECK(r.sites[0].schema_version == "0.11");
  CHECK(p.title == "Carcassonne Scoring During Turn Sequence");
  CHECK(p.ns == 0);
  CHECK(p.revision.text.size() == 179452);
  // The seed file: line 1219 is the page text with its newlines collapsed.
  std::ifstream seed(wikic::test::shared_path("seeds/000_a6dbca89aa6bac8f.txt"), std::ios::binary);
  INFO("seed file: " << wikic::test::shared_path("seeds/000_a6dbca89aa6bac8f.txt"));
  REQUIRE(seed);
  std::string line;
  for (int i = 0; i < 1219; ++i) std::getline(seed, line);
  CHECK(line.size() == 179452);
  CHECK(p.revision.text == line);
  CHECK_FALSE(p.revision.sha1_computed);
  CHECK(p.revision.sha1 == support::sha1_base36(line));
}

TEST_CASE("scripts/make-corpus.sh regenerates the shipped corpus exactly") {
  ScratchDir dir;
  std::string cmd = "bash " + source_path("scripts/make-corpus.sh") + " " +
                    wikic::test::shared_path("seeds/000_a6dbca89aa6bac8f.txt") + " " + (dir / "x.xml").string() +
                    " >/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(wikic::test::slurp(dir / "x.xml") == wikic::test::slurp(source_path("corpus/wica/scoring-during-turn-sequence.xml")));
}

TEST_CASE("language of a page from its /xx suffix") {
  CHECK(ingest::page_language("Carcassonne Scoring After the Game/fr", "en") == "fr");
  CHECK(ingest::page_language("Page/zh-hant", "en") == "zh-hant");
  CHECK(ingest::page_language("Page/qqq", "en") == "qqq");
  CHECK(ingest::page_language("AC/DC", "en") == "en");
  CHECK(ingest::page_language("Page/xx", "de") == "de");
  CHECK(ingest::page_language("Plain", "nl") == "nl");
  CHECK(ingest::is_language_code("cs"));
  CHECK_FALSE(ingest::is_language_code("FR"));
  CHECK(ingest::language_name("fr") == "French");
  CHECK(ingest::language_name("qqq") == "Message documentation");
}

TEST_CASE(".wiki files: titles from file names, namespaces, --title, folders") {
  const auto& site = ingest::default_site();
  CHECK(ingest::title_from_file_name("x/Template_ScoringRow.wiki", site) == "Template:ScoringRow");
  CHECK(ingest::title_from_file_name("Template:Feature.wiki", site) == "Template:Feature");
  CHECK(ingest::title_from_file_name("Scoring_After_the_Game%2Ffr.wikitext", site) == "Scoring After the Game/fr");
  CHECK(ingest::title_from_file_name("Templates_and_more.wiki", site) == "Templates and more");

  ScratchDir dir;
  std::filesystem::create_directories(dir / "sub");
  wikic::test::spit(dir / "Template_Feature.wiki", "[[{{{name}}}]]");
  wikic::test::spit(dir / "sub/Page%2Ffr.wiki", "Bonjour");
  wikic::test::spit(dir / "notes.txt", "ignored: not a wiki file");
  auto r = read({dir.path.string()});
  CHECK(r.sink.errors() == 0);
  REQUIRE(r.pages.size() == 2);
  CHECK(r.pages[0].title == "Template:Feature");
  CHECK(r.pages[0].ns == 10);
  CHECK(r.pages[1].title == "Page/fr");
  CHECK(r.pages[1].language == "fr");
  CHECK(r.pages[1].revision.sha1 == support::sha1_base36("Bonjour"));

  ingest::InputOptions options;
  options.title = "Template:Other";
  auto one = read({(dir / "Template_Feature.wiki").string()}, options);
  REQUIRE(one.pages.size() == 1);
  CHECK(one.pages[0].title == "Template:Other");
  CHECK(one.pages[0].ns == 10);
}

TEST_CASE("streaming: memory stays at one page plus one read chunk, or a few mapped megabytes") {
  ScratchDir dir;
  auto path = dir / "large.xml";
  {
    std::ofstream out(path, std::ios::binary);
    out << header;
    std::string text(20000, 'x');
    for (int i = 0; i < 2500; ++i) out << page_xml("Page " + std::to_string(i), text);
    out << "</mediawiki>\n";
  }
  CHECK(std::filesystem::file_size(path) > 50'000'000);
  auto r = Read{};
  std::size_t pages = 0;
  r.stats = ingest::read_inputs({path.string()}, {}, r.sink, [&](const ingest::SiteInfo&, ingest::Page&& p) {
    ++pages;
    CHECK(p.revision.text.size() == 20000);
  });
  CHECK(pages == 2500);
  CHECK(r.sink.errors() == 0);
  // Mapped (a regular file): the part looked at and not yet released.
  CHECK(r.stats.peak_buffer_bytes > 20000);
  CHECK(r.stats.peak_buffer_bytes < 4u * 1024 * 1024);
  // Read in chunks, as a pipe is: the buffer.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  ingest::ExportReader reader(fd, path.string(), r.sink, ingest::ExportReader::Access::read);
  REQUIRE(reader.start());
  std::size_t read_pages = 0;
  while (reader.next()) ++read_pages;
  ::close(fd);
  CHECK(read_pages == 2500);
  CHECK(!reader.mapped());
  CHECK(reader.bytes_read() == std::filesystem::file_size(path));
  CHECK(reader.peak_buffer_bytes() > 1u << 20);
  CHECK(reader.peak_buffer_bytes() < 4u * 1024 * 1024);
}

TEST_CASE("page text: character data decoded as an XML parser does, text position exact") {
  // The reader decodes plain <text> content itself and leaves anything unusual to
  // pugixml; both must give what XML says the text is.
  ScratchDir dir;
  std::string tags;
  for (int i = 0; i < 40; ++i) tags += "&lt;span class=&quot;x" + std::to_string(i) + "&quot;&gt;t&lt;/span&gt;";
  std::string tags_decoded;
  for (int i = 0; i < 40; ++i) tags_decoded += "<span class=\"x" + std::to_string(i) + "\">t</span>";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a &lt;b&gt; &amp;x; &foo; &quot;q&apos; &amp &lt &AMP; end&", "a <b> &x; &foo; \"q' &amp &lt &AMP; end&"},
      {"one\r\ntwo\rthree\n\r\n", "one\ntwo\nthree\n\n"},
      {"&#65;&#x42;c &lt;", "ABc <"},
      {"  \n\t ", ""},
      {"", ""},
      {tags + "\r\n" + tags, tags_decoded + "\n" + tags_decoded},
  };
  std::string xml = header;
  for (std::size_t k = 0; k < cases.size(); ++k) xml += page_xml("P" + std::to_string(k), cases[k].first);
  xml += "</mediawiki>\n";
  auto f = (dir / "t.xml").string();
  wikic::test::spit(dir / "t.xml", xml);
  auto r = read({f});
  CHECK(r.sink.errors() == 0);
  REQUIRE(r.pages.size() == cases.size());
  support::LineIndex lines(xml);
  std::size_t from = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    CAPTURE(k);
    CHECK(r.pages[k].revision.text == cases[k].second);
    // The text starts after the start tag, or (no text node: empty or only white space)
    // the position is the element's name.
    std::size_t tag = xml.find("<text", from);
    std::size_t content = xml.find('>', tag) + 1;
    bool blank = cases[k].first.find_first_not_of(" \t\r\n") == std::string::npos;
    CHECK(r.pages[k].source.text_at == lines.position(blank ? tag + 1 : content));
    from = content;
  }
}

TEST_CASE("page text: escapes, CR and UTF-8 read alike at every offset of the reader's sixteen-byte blocks") {
  // The reader decodes a plain text sixteen bytes a step, stopping at '&', CR, NUL (and
  // the control bytes found with them, tab among them) and bytes from 0x80 up (their UTF-8 is checked there, run by run), with a plain loop for
  // the last bytes: a stop on a block's last byte, an escape or sequence straddling two
  // blocks or ending the text, and the switch to the last bytes must all read as pugixml
  // decodes the text, and an invalid byte must be reported at its offset and replaced
  // as in any page.
  ScratchDir dir;
  const std::vector<std::string> stops = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&", "&am", "&quo",
                                          "\r", "\r\n", "&#65;", "&quot;&lt;&gt;\r&amp;", "\xC3\xA9",
                                          "\xE2\x80\x93\xC3\xA9", "&quot;\xF0\x9F\x98\x80&gt;", "\xE9",
                                          "\xE2\x80", "\xC3\xA9\xFF", "\xC0\xAF", "\t", "\t\t&lt;\t\r",
                                          "\x01\x04\x05\x08\x0C", "\n\x0B\x0E\x1F",
                                          // Escapes whose first four bytes match but whose
                                          // end does not, and the bytes on either side of
                                          // the stop classes' edges (0x0D/0x0E, 0x7F/0x80).
                                          "&quot", "&quo;", "&apos", "&apo;", "&amp", "&amp&lt;",
                                          "\x02\x03\x06\x07\x0F\x7F", "\xC2\x80", "\xF4\x8F\xBF\xBF",
                                          // What the reader notes on the way: newlines
                                          // (a lone CR is one) and "<translate".
                                          "&lt;translate&gt;", "&lt;translate", "&lt;translat", "&lt;tran",
                                          "\n\r\r\n\n", "&lt;&lt;translate\r"};
  std::vector<std::string> texts;
  for (const std::string& stop : stops)
    for (std::size_t at = 0; at < 40; ++at)
      for (std::size_t after : {0, 1, 7, 15, 16, 17, 40}) {
        std::string text;
        for (std::size_t k = 0; k < at; ++k) text += static_cast<char>('a' + k % 26);
        texts.push_back(text + stop + std::string(after, 'z'));
      }
  std::string xml = header;
  std::vector<std::size_t> text_offsets;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    std::string page = page_xml("P" + std::to_string(k), texts[k]);
    text_offsets.push_back(xml.size() + page.find("preserve\">") + 10);
    xml += page;
  }
  xml += "</mediawiki>\n";
  wikic::test::spit(dir / "t.xml", xml);
  auto r = read({(dir / "t.xml").string()});
  REQUIRE(r.pages.size() == texts.size());
  support::LineIndex lines(xml);
  std::vector<std::string> expected_messages;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    std::size_t bad = support::find_invalid_utf8(texts[k]);
    if (bad != std::string::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(texts[k][bad]));
      auto where = lines.position(text_offsets[k] + bad);
      expected_messages.push_back((dir / "t.xml").string() + ":" + std::to_string(where.line) + ":" +
                                  std::to_string(where.column) + ": error: invalid UTF-8 (byte " + hex +
                                  "); replaced by U+FFFD");
    }
    pugi::xml_document doc;
    REQUIRE(doc.load_string(("<t>" + support::replace_invalid_utf8(texts[k]) + "</t>").c_str()));
    if (r.pages[k].revision.text != doc.child("t").child_value()) {
      CAPTURE(texts[k]);
      CHECK(r.pages[k].revision.text == doc.child("t").child_value());
    }
    // A text the reader decoded whole (no numeric reference, valid UTF-8) has its notes.
    bool noted = false;
    if (!notes_hold(r.pages[k].revision, noted) ||
        noted != (bad == std::string::npos && texts[k].find("&#") == std::string::npos)) {
      CAPTURE(texts[k]);
      CHECK(notes_hold(r.pages[k].revision, noted));
      CHECK(noted == (bad == std::string::npos && texts[k].find("&#") == std::string::npos));
    }
  }
  CHECK(r.messages() == expected_messages);
}

TEST_CASE("page text: runs of escapes, several in a block, read as pugixml reads them") {
  // The reader copies a text sixteen bytes a step up to each escape, decodes it, and
  // goes on from the escape's end, leaving the last 24 bytes to a plain loop: texts of
  // random escapes, near-escapes, CR, tabs and UTF-8 sequences put escapes side by
  // side, across block edges and in the last bytes, before and after the other stops
  // of a block.
  ScratchDir dir;
  const std::vector<std::string> pieces = {"&lt;", "&gt;", "&quot;", "&amp;", "&apos;", "&", "&l", "&qu", "&am",
                                           "&ap", "&lt", "\r", "\r\n", "\t", "\xC3\xA9", "\xE2\x80\x93",
                                           "a", "bc", "def", "ghijklm", "nopqrstuvwxyz", "0123456789ABCDEF",
                                           "&lt;translate", "&lt;translat", "\n"};
  std::mt19937 random(20);
  std::vector<std::string> texts;
  for (int k = 0; k < 3000; ++k) {
    std::string text;
    auto count = random() % 80;
    for (std::size_t j = 0; j < count; ++j) text += pieces[random() % pieces.size()];
    if (k % 40 == 0) text += "&#65;" + pieces[random() % pieces.size()];  // pugixml takes the page late
    texts.push_back(text);
  }
  wikic::test::spit(dir / "t.xml", export_of(texts));
  auto r = read({(dir / "t.xml").string()});
  CHECK(r.sink.errors() == 0);
  REQUIRE(r.pages.size() == texts.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    pugi::xml_document doc;
    REQUIRE(doc.load_string(("<t>" + texts[k] + "</t>").c_str()));
    bool noted = false;
    if ((r.pages[k].revision.text != doc.child("t").child_value() || !notes_hold(r.pages[k].revision, noted)) &&
        ++wrong <= 3) {
      CAPTURE(texts[k]);
      CHECK(r.pages[k].revision.text == doc.child("t").child_value());
      CHECK(notes_hold(r.pages[k].revision, noted));
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("page text buffers: lent to pages given back, copied at exact size once a page is kept") {
  // A decoded text is handed to its page in the reader's scratch buffer, which returns
  // when the handler is done with the page; the handler may have rewritten the text or
  // left it, and texts grow and shrink from page to page. A handler that keeps pages
  // gets exact-size texts from the page after the first it kept.
  ScratchDir dir;
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < 14; ++k) {
    std::string text;
    std::size_t size = k == 10 ? 9000 : 3000 + (k % 4) * 150 + k;
    for (std::size_t j = 0; text.size() < size; ++j) text += j % 10 == 0 ? "&lt;b&gt;" : "word ";
    texts.push_back(text);
  }
  wikic::test::spit(dir / "t.xml", export_of(texts));
  auto kept = read({(dir / "t.xml").string()});
  REQUIRE(kept.pages.size() == texts.size());
  std::size_t slack = 0;
  for (const auto& page : kept.pages)
    if (page.revision.text.capacity() != page.revision.text.size()) ++slack;
  CHECK(slack == 1);
  std::vector<std::string> seen;
  std::size_t lent = 0;
  support::DiagnosticSink sink;
  ingest::read_inputs({(dir / "t.xml").string()}, {}, sink, [&](const ingest::SiteInfo&, ingest::Page&& page) {
    std::string& text = page.revision.text;
    seen.push_back(text);
    if (text.capacity() > text.size()) ++lent;
    if (seen.size() % 3 == 1) text[0] = 'Z';  // rewritten in place
    else if (seen.size() % 3 == 2) text.clear();
    if (seen.size() == 13) std::string().swap(text);  // taken away: the last page is copied
  });
  CHECK(sink.errors() == 0);
  CHECK(lent >= 6);
  REQUIRE(seen.size() == texts.size());
  for (std::size_t k = 0; k < texts.size(); ++k) {
    CAPTURE(k);
    CHECK(seen[k] == kept.pages[k].revision.text);
  }
}

TEST_CASE("text filter: declined pages keep their metadata, wanted texts read as without it") {
  // compile's template pass asks only for Template pages' texts; a page declined must
  // still report its title, namespace, revision and position, and the pages wanted must
  // read exactly as without a filter, also when pugixml takes over (&#65;, CR/LF).
  ScratchDir dir;
  auto with_ns = [](std::string xml, int ns) {
    return xml.replace(xml.find("<ns>0</ns>"), 10, "<ns>" + std::to_string(ns) + "</ns>");
  };
  std::string xml = header + page_xml("Main", "a &lt;b&gt; c") +
                    with_ns(page_xml("Template:Plain", "{{{1}}} &amp; x"), 10) +
                    with_ns(page_xml("Template:Numeric", "&#65;\r\n{{{1}}}"), 10) +
                    page_xml("Other", "&#66;ody") + "</mediawiki>\n";
  wikic::test::spit(dir / "t.xml", xml);
  auto f = (dir / "t.xml").string();
  auto all = read({f});
  ingest::InputOptions options;
  std::vector<std::pair<int, std::string>> asked;
  options.want_text = [&](int ns, std::string_view title) {
    asked.emplace_back(ns, std::string(title));
    return ns == 10;
  };
  auto some = read({f}, options);
  CHECK(some.sink.errors() == 0);
  REQUIRE(all.pages.size() == 4);
  REQUIRE(some.pages.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const auto& a = all.pages[k];
    const auto& b = some.pages[k];
    CHECK(a.title == b.title);
    CHECK(a.ns == b.ns);
    CHECK(a.revision.id == b.revision.id);
    CHECK(a.revision.timestamp == b.revision.timestamp);
    CHECK(a.source.page_at == b.source.page_at);
    CHECK(!a.revision.text_skipped);
    CHECK(b.revision.text_skipped == (b.ns != 10));
    CHECK(b.revision.text == (b.ns == 10 ? a.revision.text : ""));
  }
  CHECK(some.pages[2].revision.text == "A\n{{{1}}}");
  // Each page is asked once, before its text is decoded.
  CHECK(asked == std::vector<std::pair<int, std::string>>{{0, "Main"}, {10, "Template:Plain"}, {10, "Template:Numeric"}, {0, "Other"}});
}

TEST_CASE("bad input: exact diagnostics, and pages before the fault survive") {
  ScratchDir dir;
  auto write = [&](const std::string& name, const std::string& text) {
    wikic::test::spit(dir / name, text);
    return (dir / name).string();
  };

  SUBCASE("truncated inside a page") {
    auto f = write("t.xml", header + page_xml("A", "one") + page_xml("B", "two").substr(0, 60));
    auto r = read({f});
    REQUIRE(r.pages.size() == 1);
    CHECK(r.pages[0].title == "A");
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":19:1: error: unexpected end of file inside <page> opened at line 15:3 "
                                 "(truncated export?)");
  }
  SUBCASE("truncated between pages") {
    auto f = write("t.xml", header + page_xml("A", "one"));
    auto r = read({f});
    CHECK(r.pages.size() == 1);
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":15:1: error: unexpected end of file: </mediawiki> is missing (truncated export?)");
  }
  SUBCASE("malformed XML in one page; the next page is still read") {
    auto bad = page_xml("A", "one");
    bad.replace(bad.find("</title>"), 8, "</titl>");
    auto f = write("m.xml", header + bad + page_xml("B", "two") + "</mediawiki>\n");
    auto r = read({f});
    REQUIRE(r.pages.size() == 1);
    CHECK(r.pages[0].title == "B");
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":6:15: error: malformed XML in <page>: Start-end tags mismatch; page skipped");
  }
  SUBCASE("a page without <text>") {
    auto bad = page_xml("A", "one");
    bad.erase(bad.find("      <text"), bad.find("</text>\n") + 8 - bad.find("      <text"));
    auto f = write("n.xml", header + bad + page_xml("B", "two") + "</mediawiki>\n");
    auto r = read({f});
    REQUIRE(r.pages.size() == 1);
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":9:6: error: page 'A': revision 2 has no <text>; page skipped");
  }
  SUBCASE("non-UTF-8 bytes are reported where they are and replaced") {
    auto f = write("u.xml", header + page_xml("A", "caf\xE9!") + "</mediawiki>\n");
    auto r = read({f});
    REQUIRE(r.pages.size() == 1);
    CHECK(r.pages[0].revision.text == "caf\xEF\xBF\xBD!");
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":12:37: error: invalid UTF-8 (byte 0xE9); replaced by U+FFFD");
  }
  SUBCASE("unknown schema version") {
    std::string h = header;
    h.replace(h.find("version=\"0.11\""), 14, "version=\"0.9\"");
    auto f = write("v.xml", h + page_xml("A", "one") + "</mediawiki>\n");
    auto r = read({f});
    CHECK(r.pages.size() == 1);
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":1:1: error: unsupported export schema version '0.9' (wikic reads 0.10 and 0.11); "
                                 "reading it as 0.11");
  }
  SUBCASE("not an export at all") {
    auto f = write("x.xml", "<html><body>nope</body></html>\n");
    auto r = read({f});
    CHECK(r.pages.empty());
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":1:1: error: not a MediaWiki export: no <mediawiki> element found");
  }
  SUBCASE("a page that never closes before the next one") {
    auto unclosed = page_xml("A", "one");
    unclosed.erase(unclosed.find("  </page>"));
    auto f = write("p.xml", header + unclosed + page_xml("B", "two") + "</mediawiki>\n");
    auto r = read({f});
    REQUIRE(r.pages.size() == 1);
    CHECK(r.pages[0].title == "B");
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == f + ":5:3: error: <page> opened here is never closed; skipped up to the next <page>");
  }
  SUBCASE("a missing file is an I/O failure") {
    auto r = read({(dir / "absent.xml").string()});
    CHECK(r.stats.io_failure);
    REQUIRE(r.messages().size() == 1);
    CHECK(r.messages()[0] == (dir / "absent.xml").string() + ": error: cannot open: No such file or directory");
  }
}

namespace {
/// Everything a page carries, one line, so two reads compare as strings.
std::string describe(const ingest::Page& p) {
  const auto& r = p.revision;
  auto at = [](support::Position x) { return std::to_string(x.line) + ":" + std::to_string(x.column); };
  return p.title + "|" + std::to_string(p.ns) + "|" + std::to_string(p.id) + "|" + p.redirect + "|" + p.language +
         "|" + std::to_string(p.revisions_in_input) + "|" + std::to_string(r.id) + "|" + std::to_string(r.parent_id) +
         "|" + r.timestamp + "|" + r.contributor.username + "|" + r.contributor.id + "|" + r.contributor.ip + "|" +
         r.model + "|" + r.format + "|" + r.sha1 + "|" + std::to_string(r.sha1_computed) + "|" +
         std::to_string(r.text_skipped) + "|" + p.source.file + "|" + at(p.source.page_at) + "|" +
         at(p.source.text_at) + "|" + r.text;
}

/// Pages and diagnostics of one ExportReader over `fd`.
std::vector<std::string> read_fd(int fd, const std::string& name, ingest::ExportReader::Access access,
                                 std::size_t chunk, const ingest::ExportReader::TextFilter& filter, bool* mapped) {
  support::DiagnosticSink sink;
  std::vector<std::string> out;
  {
    ingest::ExportReader reader(fd, name, sink, access);
    reader.set_read_chunk(chunk);
    if (filter) reader.set_text_filter(filter);
    if (mapped) *mapped = reader.mapped();
    if (reader.start()) {
      out.push_back("site " + reader.site().sitename + " " + reader.site().schema_version + " " + reader.site().language);
      while (auto page = reader.next()) out.push_back(describe(*page));
    }
  }
  for (const auto& d : sink.all()) out.push_back(d.format());
  return out;
}

std::vector<std::string> read_path(const std::string& path, ingest::ExportReader::Access access, std::size_t chunk,
                                   const ingest::ExportReader::TextFilter& filter = {}) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  bool mapped = false;
  auto out = read_fd(fd, path, access, chunk, filter, &mapped);
  ::close(fd);
  CHECK(mapped == (access == ingest::ExportReader::Access::map && std::filesystem::file_size(path) > 0));
  return out;
}

/// A random export that stresses the reader: escapes, CR/LF, multibyte and invalid
/// UTF-8, several revisions, numeric references, pages in and out of namespace 10, and
/// now and then a page left open or an export cut short anywhere.
std::string random_export(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* pieces[] = {"a", "b c", "\n", "\r\n", "\r", "&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&",
                          "&#65;", "&#x263A;", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE9", "\xC3",
                          "\xED\xA0\x80", "{{T|x=1}}", "  ", "\t", "&lt;page&gt;", "&lt;/text&gt;", "]]>"};
  std::string xml = pick(4) == 0 ? "<?xml version=\"1.0\"?>\n" : "";
  xml += header;
  int pages = 1 + pick(12);
  for (int k = 0; k < pages; ++k) {
    std::string text;
    int n = pick(6) == 0 ? pick(3000) : pick(60);
    for (int i = 0; i < n; ++i) text += pieces[pick(static_cast<int>(std::size(pieces)))];
    bool tmpl = pick(3) == 0;
    std::string title = (tmpl ? "Template:T" : "Page ") + std::to_string(k) + (pick(5) == 0 ? "/fr" : "");
    if (pick(15) == 0) title += "\xE9";  // invalid UTF-8 outside the text
    std::string page = page_xml(title, text);
    page.replace(page.find("<ns>0</ns>"), 10, "<ns>" + std::string(tmpl ? "10" : "0") + "</ns>");
    switch (pick(12)) {
      case 0: page.erase(page.find("  </page>")); break;  // never closed
      case 1: {  // an older revision with its own text: pugixml reads the page whole
        std::size_t at = page.find("    <revision>");
        page.insert(at, "    <revision>\n      <id>1</id>\n      <timestamp>2023-01-01T00:00:00Z</timestamp>\n"
                        "      <text xml:space=\"preserve\">old &amp; \r\n text</text>\n    </revision>\n");
        break;
      }
      case 2: page.replace(page.find("<text xml:space=\"preserve\">"), 27, "<text bytes=\"5\" xml:space='preserve'>"); break;
      case 3: page.replace(page.find("</title>"), 8, "</titl>"); break;  // malformed
      case 4: page.replace(page.find("<text"), page.find("</text>") + 7 - page.find("<text"), "<text deleted=\"deleted\" />"); break;
      default: break;
    }
    xml += page;
    if (pick(8) == 0) xml += "\n  \n";
  }
  xml += "</mediawiki>\n";
  if (pick(6) == 0) xml.resize(static_cast<std::size_t>(pick(static_cast<int>(xml.size()))));
  return xml;
}
}  // namespace

TEST_CASE("mapped files and read(2) give the same pages and diagnostics, at any read boundary") {
  // Regular files are mapped; standard input, pipes and unmappable files are read in
  // chunks. Small chunks put a read boundary inside every tag, escape and UTF-8
  // sequence of the inputs, which must change nothing.
  using Access = ingest::ExportReader::Access;
  ScratchDir dir;
  std::vector<std::string> files = {source_path("corpus/exports/mini-export-0.10.xml"),
                                    source_path("corpus/wica/scoring-during-turn-sequence.xml"),
                                    source_path("corpus/l10n/turn-sequence-multilingual.xml"),
                                    source_path("corpus/l10n/scoring-after-the-game.xml")};
  std::mt19937 rng(20261123);
  constexpr int generated = 300;
  for (int k = 0; k < generated; ++k) {
    auto f = dir / ("g" + std::to_string(k) + ".xml");
    wikic::test::spit(f, random_export(rng));
    files.push_back(f.string());
  }
  ingest::ExportReader::TextFilter templates = [](int ns, std::string_view) { return ns == 10; };
  std::size_t compared = 0, declined = 0;
  for (std::size_t k = 0; k < files.size(); ++k) {
    CAPTURE(files[k]);
    bool generated_file = k >= 4;
    auto mapped = read_path(files[k], Access::map, 1 << 20);
    auto mapped_some = read_path(files[k], Access::map, 1 << 20, templates);
    // With the filter: the same pages, wanted texts as without it, declined ones empty
    // (only namespace 10 is wanted; a page only pugixml reads is read whole); the same
    // diagnostics but for invalid UTF-8 inside declined texts, which is never checked.
    auto without_utf8 = [](const std::vector<std::string>& lines) {
      std::vector<std::string> out;
      for (const auto& line : lines)
        if (line.find("invalid UTF-8") == std::string::npos) out.push_back(line);
      return out;
    };
    auto all_lines = without_utf8(mapped), some_lines = without_utf8(mapped_some);
    REQUIRE(all_lines.size() == some_lines.size());
    for (std::size_t i = 0; i < all_lines.size(); ++i) {
      auto split = [](const std::string& line) {
        std::vector<std::string> f;
        for (std::size_t at = 0;;) {
          std::size_t bar = f.size() < 20 ? line.find('|', at) : std::string::npos;
          f.push_back(line.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
          if (bar == std::string::npos) return f;
          at = bar + 1;
        }
      };
      auto a = split(all_lines[i]), b = split(some_lines[i]);
      if (a.size() < 21 || b.size() < 21 || b[16] != "1") {
        CHECK(all_lines[i] == some_lines[i]);
        continue;
      }
      CHECK(a[1] != "10");
      if (a[15] == "1") a[14] = "";  // no sha1 computed from a declined text
      a[15] = "0";
      a[16] = "1";
      a[20] = "";
      CHECK(a == b);
      ++declined;
    }
    std::vector<std::size_t> chunks = {1 << 20, 4096, 61};
    if (generated_file) chunks = {1 << 20, 1 + k % 7, 16 + k % 17, 97};
    for (std::size_t chunk : chunks) {
      CAPTURE(chunk);
      CHECK(read_path(files[k], Access::read, chunk) == mapped);
      CHECK(read_path(files[k], Access::read, chunk, templates) == mapped_some);
      ++compared;
    }
  }
  CHECK(compared > 1000);
  CHECK(declined > 500);
}

TEST_CASE("page index: a second reading follows the first one's page ends and reads the same") {
  // compile reads each export twice (templates first); the second reading takes each
  // page's end from the index the first one noted. It must read exactly as a reading
  // without it, also where pages are left open, cut short or malformed, and must not
  // follow an index of a file rewritten since.
  ScratchDir dir;
  std::mt19937 rng(20261124);
  auto lines = [](const Read& r) {
    std::vector<std::string> out;
    for (const auto& p : r.pages) out.push_back(describe(p));
    for (const auto& m : r.messages()) out.push_back(m);
    return out;
  };
  ingest::InputOptions templates;
  templates.want_text = [](int ns, std::string_view) { return ns == 10; };
  std::size_t followed = 0;
  for (int k = 0; k < 200; ++k) {
    CAPTURE(k);
    auto f = (dir / ("g" + std::to_string(k) + ".xml")).string();
    std::string xml = random_export(rng);
    wikic::test::spit(f, xml);
    auto plain = lines(read({f}));
    auto plain_some = lines(read({f}, templates));
    ingest::PageIndex index;
    ingest::InputOptions noting = templates, following;
    noting.page_index = following.page_index = &index;
    CHECK(lines(read({f}, noting)) == plain_some);
    CHECK(index.followed() == 0);
    CHECK(lines(read({f}, following)) == plain);
    followed += index.followed();
    // Rewritten with another export (another size): the index of the old one is dropped.
    std::string other = random_export(rng);
    if (other.size() == xml.size()) other += "\n";
    wikic::test::spit(f, other);
    std::size_t before = index.followed();
    auto fresh = lines(read({f}));
    CHECK(lines(read({f}, following)) == fresh);
    CHECK(index.followed() == before);
  }
  CHECK(followed > 300);
}

TEST_CASE("a pipe is read with read(2), as the mapped file it came from") {
  ScratchDir dir;
  std::mt19937 rng(7);
  std::string xml;
  while (xml.size() < 3'000'000) xml += random_export(rng);  // several exports: errors after the first
  auto f = (dir / "p.xml").string();
  wikic::test::spit(f, xml);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    for (std::size_t at = 0; at < xml.size();) {
      ssize_t n = ::write(fds[1], xml.data() + at, std::min<std::size_t>(xml.size() - at, 65536));
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  bool mapped = true;
  auto piped = read_fd(fds[0], f, ingest::ExportReader::Access::map, 1 << 20, {}, &mapped);
  writer.join();
  ::close(fds[0]);
  CHECK(!mapped);
  CHECK(piped.size() > 10);
  CHECK(piped == read_path(f, ingest::ExportReader::Access::map, 1 << 20));
}

TEST_CASE("a named pipe given as a path is read whole as an export, as standard input is") {
  // Sniffing a path reads its first bytes and seeks back; a FIFO cannot seek, so it
  // used to lose its first 512 bytes (the <mediawiki> header) and read as no export.
  ScratchDir dir;
  // The real page's export (179 KB, more than a pipe holds) then a broken copy of the
  // mini export, so pages, positions and diagnostics are all compared.
  std::string xml = wikic::test::slurp(source_path("corpus/wica/scoring-during-turn-sequence.xml"));
  std::string mini = wikic::test::slurp(source_path("corpus/exports/mini-export-0.10.xml"));
  xml += mini.substr(0, mini.size() / 2);
  auto f = (dir / "p.xml").string();
  wikic::test::spit(f, xml);
  auto fifo = (dir / "export-pipe").string();  // no .xml: the name must not matter
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    for (std::size_t at = 0; fd >= 0 && at < xml.size();) {
      ssize_t n = ::write(fd, xml.data() + at, std::min<std::size_t>(xml.size() - at, 4096));
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    if (fd >= 0) ::close(fd);
  });
  Read piped = read({fifo});
  writer.join();
  Read file = read({f});
  REQUIRE(!file.pages.empty());
  CHECK(piped.stats.pages == file.stats.pages);
  REQUIRE(piped.pages.size() == file.pages.size());
  for (std::size_t i = 0; i < file.pages.size(); ++i) {
    CHECK(piped.pages[i].title == file.pages[i].title);
    CHECK(piped.pages[i].revision.text == file.pages[i].revision.text);
  }
  auto messages = file.messages();
  CHECK(!messages.empty());  // the broken second export
  for (auto& m : messages) m.replace(0, f.size(), fifo);  // same diagnostics, named by the pipe
  CHECK(piped.messages() == messages);
}

TEST_CASE("a mapped file truncated while it is read: an error, no crash") {
  // Pages of the file past its new end would raise SIGBUS; the reader's guard turns
  // them into zeros and the reader stops with an error instead.
  ScratchDir dir;
  auto path = (dir / "shrinks.xml").string();
  auto write = [&] {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << header;
    std::string text(20000, 'x');
    for (int i = 0; i < 600; ++i) out << page_xml("Page " + std::to_string(i), text);
    out << "</mediawiki>\n";
  };
  write();
  auto size = std::filesystem::file_size(path);
  // Cut far ahead (reads there fault), and inside the last memory page (no fault:
  // the bytes past the end read as zeros, and the size tells).
  for (std::uintmax_t cut : {size / 2, size - 100}) {
    CAPTURE(cut);
    write();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    support::DiagnosticSink sink;
    std::size_t pages = 0;
    {
      ingest::ExportReader reader(fd, path, sink);
      REQUIRE(reader.mapped());
      REQUIRE(reader.start());
      for (; pages < 10 && reader.next(); ++pages) {}
      std::filesystem::resize_file(path, cut);
      while (reader.next()) ++pages;
    }
    ::close(fd);
    CHECK(pages >= 10);
    CHECK(pages < 600);
    REQUIRE(sink.all().size() == 1);
    CHECK(sink.all()[0].format().find("error: the file became shorter while it was read") != std::string::npos);
  }
}

TEST_CASE("a descriptor is read from its current offset, mapped or not") {
  // read(2) starts where the descriptor stands; the mapping must start there too, also
  // when that offset is not at a memory page boundary.
  ScratchDir dir;
  std::string junk;  // lines that a read from offset 0 would count
  for (int i = 0; i < 5003; ++i) junk += i % 100 == 99 ? '\n' : 'j';
  std::string xml = header + page_xml("A", "one\ntwo") + page_xml("B", "caf\xC3\xA9") + "</mediawiki>\n";
  auto f = (dir / "offset.xml").string();
  wikic::test::spit(f, junk + xml);
  std::vector<std::string> results[2];
  for (int k = 0; k < 2; ++k) {
    int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::lseek(fd, static_cast<off_t>(junk.size()), SEEK_SET) == static_cast<off_t>(junk.size()));
    bool mapped = false;
    results[k] = read_fd(fd, f, k == 0 ? ingest::ExportReader::Access::map : ingest::ExportReader::Access::read, 7, {},
                         &mapped);
    ::close(fd);
    CHECK(mapped == (k == 0));
  }
  REQUIRE(results[0].size() == 3);  // the site and two pages, no diagnostic
  // Positions count from where reading started, as they always have for read(2).
  CHECK(results[0][1].starts_with("A|0|1|"));
  CAPTURE(results[0][1]);
  CHECK(results[0][1].ends_with("|5:3|12:34|one\ntwo"));
  CHECK(results[0] == results[1]);
}
