// Input dispatch: sniff exports versus wikitext, walk folders in a stable order, and
// turn .wiki files into pages with the same metadata an export would give them.
#include "ingest/input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/languages.hpp"
#include "support/files.hpp"
#include "support/sha1.hpp"
#include "support/utf8.hpp"

namespace wikic::ingest {

namespace fs = std::filesystem;

namespace {
bool has_extension(const fs::path& p, std::initializer_list<const char*> exts) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::any_of(exts.begin(), exts.end(), [&](const char* x) { return e == x; });
}

bool is_wikitext_file(const fs::path& p) { return has_extension(p, {".wiki", ".wikitext"}); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Files of a folder that wikic reads, sorted by path so every run sees one order.
std::vector<fs::path> folder_inputs(const fs::path& dir, std::error_code& ec) {
  std::vector<fs::path> out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && (is_wikitext_file(it->path()) || has_extension(it->path(), {".xml"})))
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// `file`: the input's entry in the options' page index, when it has one.
void read_export(int fd, const std::string& name, ExportReader::Access access,
                 const InputOptions& options, support::DiagnosticSink& sink,
                 const PageHandler& handle, InputStats& stats, PageIndex::File* file = nullptr) {
  ExportReader reader(fd, name, sink, access);
  if (options.want_text) reader.set_text_filter(options.want_text);
  if (file) reader.set_page_index(*options.page_index, *file);
  if (reader.start()) {
    while (auto page = reader.next()) {
      ++stats.pages;
      stats.text_bytes += page->revision.text.size();
      handle(reader.site(), std::move(*page));
      reader.done_with(*page);
    }
  }
  stats.input_bytes += reader.bytes_read();
  stats.peak_buffer_bytes = std::max(stats.peak_buffer_bytes, reader.peak_buffer_bytes());
}

void read_wikitext(const fs::path& path, const std::optional<std::string>& title,
                   support::DiagnosticSink& sink, const PageHandler& handle, InputStats& stats) {
  std::string error;
  auto text = support::read_file(path.string(), error);
  if (!text) {
    sink.error(path.string(), support::nowhere, error.substr(error.find(": ") + 2));
    stats.io_failure = true;
    return;
  }
  stats.input_bytes += text->size();
  if (auto bad = support::find_invalid_utf8(*text); bad != std::string::npos) {
    support::LineIndex lines(*text);
    sink.error(path.string(), lines.position(bad), "invalid UTF-8; replaced by U+FFFD");
    *text = support::replace_invalid_utf8(*text);
  }
  const SiteInfo& site = default_site();
  Page page = page_from_wikitext(title ? *title : title_from_file_name(path.string(), site),
                                 std::move(*text), path.string(), site);
  ++stats.pages;
  stats.text_bytes += page.revision.text.size();
  handle(site, std::move(page));
}
}  // namespace

std::string title_from_file_name(const std::string& path, const SiteInfo& site) {
  std::string stem = fs::path(path).stem().string();
  std::string title;
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (stem[i] == '%' && i + 2 < stem.size() && hex_value(stem[i + 1]) >= 0 && hex_value(stem[i + 2]) >= 0) {
      title += static_cast<char>(hex_value(stem[i + 1]) * 16 + hex_value(stem[i + 2]));
      i += 2;
    } else {
      title += stem[i] == '_' ? ' ' : stem[i];
    }
  }
  if (title.find(':') == std::string::npos) {
    // "Template Foo" from "Template_Foo": the longest namespace name that prefixes it.
    const Namespace* best = nullptr;
    for (const auto& ns : site.namespaces)
      if (!ns.name.empty() && title.size() > ns.name.size() + 1 && title.compare(0, ns.name.size(), ns.name) == 0 &&
          title[ns.name.size()] == ' ' && (!best || ns.name.size() > best->name.size()))
        best = &ns;
    if (best) title = best->name + ":" + title.substr(best->name.size() + 1);
  }
  return title;
}

Page page_from_wikitext(std::string title, std::string text, const std::string& file, const SiteInfo& site) {
  Page page;
  auto [ns, rest] = site.split_title(title);
  page.ns = ns;
  if (const Namespace* n = site.find(ns); n && ns != 0) title = n->name + ":" + std::string(rest);
  page.title = std::move(title);
  page.language = page_language(page.title, site.language);
  page.revisions_in_input = 1;
  page.source = {file, {1, 1}, {1, 1}};
  page.revision.text = std::move(text);
  page.revision.sha1 = support::sha1_base36(page.revision.text);
  page.revision.sha1_computed = true;
  return page;
}

bool inputs_can_be_read_again(const std::vector<std::string>& inputs) {
  return std::all_of(inputs.begin(), inputs.end(), [](const std::string& input) {
    if (input == "-") return false;
    struct stat st {};
    // What does not exist (or cannot be looked at) is reported when it is read.
    if (::stat(input.c_str(), &st) != 0) return true;
    return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
  });
}

InputStats read_inputs(const std::vector<std::string>& inputs, const InputOptions& options,
                       support::DiagnosticSink& sink, const PageHandler& handle) {
  InputStats stats;
  for (const auto& input : inputs) {
    if (input == "-") {
      ++stats.files;
      // Read, never mapped: it is mostly a pipe, and a file behind it may still be
      // growing (a mapping sees only the size the file had when it was mapped).
      read_export(STDIN_FILENO, "<stdin>", ExportReader::Access::read, options, sink, handle, stats);
      continue;
    }
    std::error_code ec;
    fs::path path(input);
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      sink.error(input, support::nowhere, "cannot open: " + (ec ? ec.message() : std::string("No such file or directory")));
      stats.io_failure = true;
      continue;
    }
    std::vector<fs::path> files;
    if (fs::is_directory(status)) {
      files = folder_inputs(path, ec);
      if (ec) {
        sink.error(input, support::nowhere, "cannot read folder: " + ec.message());
        stats.io_failure = true;
        continue;
      }
      if (files.empty()) sink.warning(input, support::nowhere, "folder holds no .xml, .wiki or .wikitext file");
    } else {
      files.push_back(path);
    }
    bool single = files.size() == 1 && inputs.size() == 1;
    for (const auto& file : files) {
      ++stats.files;
      if (is_wikitext_file(file)) {
        read_wikitext(file, single ? options.title : std::nullopt, sink, handle, stats);
        continue;
      }
      int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        sink.error(file.string(), support::nowhere, std::string("cannot open: ") + std::strerror(errno));
        stats.io_failure = true;
        continue;
      }
      // A named pipe (or any other file that cannot seek) is read as an export, as
      // standard input is: sniffing would consume its first bytes with no way back.
      struct stat st {};
      bool have_stat = ::fstat(fd, &st) == 0;
      if (have_stat && !S_ISREG(st.st_mode)) {
        read_export(fd, file.string(), ExportReader::Access::read, options, sink, handle, stats);
        ::close(fd);
        continue;
      }
      // Anything else that is not named .wiki/.wikitext is sniffed: an export starts
      // with markup; text that does not is read as wikitext.
      char head[512];
      ssize_t n = ::read(fd, head, sizeof head);
      std::string_view start(head, n > 0 ? static_cast<std::size_t>(n) : 0);
      bool is_xml = start.find("<mediawiki") != std::string_view::npos ||
                    start.substr(start.find_first_not_of(" \t\r\n\xEF\xBB\xBF") == std::string_view::npos
                                     ? start.size()
                                     : start.find_first_not_of(" \t\r\n\xEF\xBB\xBF"))
                        .starts_with("<?xml");
      if (!is_xml && !has_extension(file, {".xml"})) {
        ::close(fd);
        read_wikitext(file, single ? options.title : std::nullopt, sink, handle, stats);
        continue;
      }
      ::lseek(fd, 0, SEEK_SET);
      PageIndex::File* noted = have_stat && options.page_index ? &options.page_index->file(st) : nullptr;
      read_export(fd, file.string(), ExportReader::Access::map, options, sink, handle, stats, noted);
      ::close(fd);
    }
  }
  return stats;
}

}  // namespace wikic::ingest
