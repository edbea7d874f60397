// forward_model_on_device(): forward_model() for prisms and stations that are
// already in device memory. The limits at stations on the model
// (station_contact.hpp) and the rounding estimates (rounding_estimate.hpp)
// are host passes over the whole model, so the inputs come to the host and
// take forward_model's path, and the values go back: the copies are
// O(prisms + stations), the work O(prisms × stations).
#include <cuda_runtime.h>

#include <stdexcept>
#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/gravity/gravity.hpp"

namespace geobem::gravity {

void forward_model_on_device(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, const std::vector<Field>& fields,
                             const ForwardOptions& options, double* values) {
  if (fields.empty()) throw std::invalid_argument("forward_model: the field list is empty");
  if (options.parts != 1 || options.part != 0)
    throw std::invalid_argument("forward_model_on_device: arrays on one device are not split into parts");
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());  // the caller's streams may still be writing the inputs
  std::vector<Prism> host_prisms(prism_count);
  std::vector<Station> host_stations(station_count);
  if (prism_count > 0)
    GEOBEM_CUDA_CHECK(
        cudaMemcpy(host_prisms.data(), prisms, prism_count * sizeof(Prism), cudaMemcpyDeviceToHost));
  if (station_count > 0)
    GEOBEM_CUDA_CHECK(
        cudaMemcpy(host_stations.data(), stations, station_count * sizeof(Station), cudaMemcpyDeviceToHost));
  const ForwardResult result = forward_model(host_prisms, host_stations, fields, options);
  for (std::size_t k = 0; k < result.values.size(); ++k)
    if (station_count > 0)
      GEOBEM_CUDA_CHECK(cudaMemcpy(values + k * station_count, result.values[k].data(),
                                   station_count * sizeof(double), cudaMemcpyHostToDevice));
}

}  // namespace geobem::gravity
