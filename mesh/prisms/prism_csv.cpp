#include "mesh/prisms/prism_csv.hpp"

#include <ostream>

#include "gpu/core/atomic_file.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"

namespace geobem::prisms {

PrismModel read_prism_csv(const std::string& path) {
  const CsvTable table = read_csv_table(path);
  const std::size_t west = table.column("west"), east = table.column("east"), south = table.column("south"),
                    north = table.column("north"), bottom = table.column("bottom"), top = table.column("top"),
                    density = table.column("density");
  PrismModel model;
  model.source = path;
  model.prisms.reserve(table.rows.size());
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& row = table.rows[i];
    const Prism prism{row[west], row[east], row[south], row[north], row[bottom], row[top], row[density]};
    check_prism(prism, table.where(i));
    model.prisms.push_back(prism);
  }
  return model;
}

void write_prism_csv(const std::filesystem::path& path, const std::vector<Prism>& prisms) {
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "west,east,south,north,bottom,top,density\n";
    for (const auto& p : prisms)
      out << shortest(p.west) << ',' << shortest(p.east) << ',' << shortest(p.south) << ',' << shortest(p.north)
          << ',' << shortest(p.bottom) << ',' << shortest(p.top) << ',' << shortest(p.density) << '\n';
  });
}

}  // namespace geobem::prisms
