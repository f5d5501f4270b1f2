// Every kind of input wikic reads, behind one call: Special:Export XML files (or "-"
// for standard input), plain .wiki/.wikitext files, and folders of either. Pages are
// handed over one at a time, so a caller that streams keeps memory flat.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ingest/export_reader.hpp"

namespace wikic::ingest {

struct InputOptions {
  std::optional<std::string> title;  ///< overrides the title of a single .wiki file
  /// Exports only: which pages' texts to decode (ExportReader::set_text_filter); unset
  /// reads them all. Plain .wiki files are always read whole.
  ExportReader::TextFilter want_text;
  /// Exports only: where the pages of each regular file lie, noted by the first reading
  /// that is given it and followed by the later ones (see PageIndex); unset, every
  /// reading searches for them.
  PageIndex* page_index = nullptr;
};

struct InputStats {
  std::size_t files = 0;
  std::size_t pages = 0;
  std::uint64_t text_bytes = 0;
  std::uint64_t input_bytes = 0;
  std::size_t peak_buffer_bytes = 0;
  bool io_failure = false;  ///< an input could not be opened or read at all
};

using PageHandler = std::function<void(const SiteInfo&, Page&&)>;

/// Reads every input in order, calling `handle` for each page.
InputStats read_inputs(const std::vector<std::string>& inputs, const InputOptions& options,
                       support::DiagnosticSink& sink, const PageHandler& handle);

/// Whether each input can be read a second time. Not so for standard input ("-") and
/// for a path to anything but a regular file or a folder: a named pipe, /dev/stdin on a
/// pipe, a shell's process substitution (/dev/fd/N). Their bytes are gone once read, so
/// a caller that reads its inputs twice must keep what the first reading gave it.
bool inputs_can_be_read_again(const std::vector<std::string>& inputs);

/// The title a .wiki file stands for: its name without extension, '_' read as a space,
/// %XX decoded (so "Page%2Ffr.wiki" is "Page/fr"), and "Template_X" read as "Template:X"
/// when the prefix names a namespace of `site`.
std::string title_from_file_name(const std::string& path, const SiteInfo& site);

/// A page made from wikitext that did not come from an export.
Page page_from_wikitext(std::string title, std::string text, const std::string& file,
                        const SiteInfo& site);

}  // namespace wikic::ingest
