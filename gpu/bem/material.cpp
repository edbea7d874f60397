#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/bem/fundamental_solution.hpp"
#include "gpu/core/input_error.hpp"

namespace geobem::bem {

Material material_from_young(double young_modulus, double poisson_ratio, double density) {
  if (!(young_modulus > 0.0) || !std::isfinite(young_modulus))
    throw InputError("Young's modulus " + std::to_string(young_modulus) + " Pa: must be positive");
  if (!(poisson_ratio > -1.0 && poisson_ratio <= max_poisson_ratio)) {
    char text[32];  // the shortest text that reads back as the value: 0.4999999999, not 0.49999999989999999
    throw InputError("Poisson's ratio " +
                     std::string(text, std::to_chars(text, text + sizeof text, poisson_ratio).ptr) +
                     ": must lie in (-1, 0.49]; nearer 1/2 the solid is nearly incompressible, its S "
                     "waves more than 7 times shorter than the P waves that set the step, which the "
                     "mesh cannot resolve and this displacement BEM cannot represent");
  }
  if (!(density > 0.0) || !std::isfinite(density))
    throw InputError("density " + std::to_string(density) + " kg/m^3: must be positive");
  Material m;
  m.density = density;
  m.shear_modulus = young_modulus / (2.0 * (1.0 + poisson_ratio));
  m.lame_lambda = young_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
  m.p_wave_speed = std::sqrt((m.lame_lambda + 2.0 * m.shear_modulus) / density);
  m.s_wave_speed = std::sqrt(m.shear_modulus / density);
  return m;
}

}  // namespace geobem::bem
