#pragma once
// The INI syntax of `--config FILE.ini` and of the options records a stage
// writes beside its outputs (docs/stage_contract.md, "Options"): one
// `key = value` per line, `#` starts a comment, blank lines are skipped, and a
// backslash escapes what the syntax would otherwise eat: `\#` a number sign,
// `\\` a backslash, `\n` and `\r` line breaks, `\ ` and `\t` a space or
// tab that would be trimmed at either end of the value.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace geobem::cli {

/// One `key = value` line of an INI file.
struct IniEntry {
  std::string key, value;  ///< both trimmed; the value unescaped
  int line = 0;            ///< 1-based, for messages
};

/// The largest INI file read (bytes): options records are a few kB.
inline constexpr std::uintmax_t max_ini_file_bytes = 1 << 20;

/// Reads the entries of an INI file in order (a UTF-8 byte-order mark and CR
/// LF line ends accepted). Throws std::runtime_error naming the file (and
/// line) for a file that cannot be opened, is not a regular file or exceeds
/// max_ini_file_bytes, a line without `=` or with an empty key, a `[section]`
/// line, or an unknown escape.
std::vector<IniEntry> read_ini_file(const std::filesystem::path& path);

/// The entries of INI text (read_ini_file's syntax); `source` names it in
/// messages.
std::vector<IniEntry> parse_ini_text(const std::string& text, const std::string& source);

/// `value` as INI text that parse_ini_text reads back exactly: backslashes,
/// number signs and line breaks (LF, CR) escaped, and spaces or tabs at either end.
std::string escape_ini_value(const std::string& value);

}  // namespace geobem::cli
