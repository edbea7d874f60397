#pragma once
// Load histories as a user writes them on a command line or in an INI file.
#include <string>

#include "gpu/bem/load_history.hpp"

namespace geobem::loads {

/// A load history from its text (times in s, frequencies in Hz):
///   heaviside              f = 1 for t ≥ 0
///   ramp:T                 linear rise to 1 over T
///   ricker:FC[:DELAY]      Ricker wavelet, central frequency FC, peak at DELAY (default 1.5/FC)
///   friedlander:TD:B       Friedlander blast pulse, positive phase TD, decay coefficient B
///   csv:FILE               tabulated, read_load_history_csv(FILE)
/// Throws InputError naming the text for an unknown name, a wrong
/// number of parameters or a bad number; std::runtime_error for a bad CSV.
bem::LoadHistory parse_load_history(const std::string& text);

/// A tabulated history from a CSV with columns `time,value` (header required,
/// other columns ignored; `#` comments, a UTF-8 byte-order mark and CR LF line
/// ends accepted): linear between points, 0 before the first time, the last
/// value after the last. Throws std::runtime_error naming FILE:LINE for a
/// missing file or column, a field that is not a finite number, no rows, a
/// negative first time or a time that does not increase.
bem::LoadHistory read_load_history_csv(const std::string& path);

}  // namespace geobem::loads
