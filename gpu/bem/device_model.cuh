#pragma once
// A BemModel's arrays on the device, for the CUDA assembly and receiver kernels.
#include "gpu/bem/bem_model.hpp"
#include "gpu/core/device_buffer.hpp"

namespace geobem::bem {

/// Device copies of a BemModel's arrays and a ModelView of them.
struct DeviceModel {
  DeviceBuffer<Vec3> nodes, normals, centroids, points, traction;
  DeviceBuffer<int> triangles, colloc_node, colloc_element, node_block, element_block, load_case;
  DeviceBuffer<double> areas, edges;
  ModelView view;
  explicit DeviceModel(const BemModel& m)
      : nodes(m.nodes), normals(m.normals), centroids(m.centroids), points(m.collocation_points),
        traction(m.element_traction), triangles(m.triangles), colloc_node(m.collocation_node),
        colloc_element(m.collocation_element), node_block(m.node_block), element_block(m.element_block),
        load_case(m.element_load_case), areas(m.areas), edges(m.longest_edges) {
    view = m.view();
    view.nodes = nodes.data();
    view.normals = normals.data();
    view.centroids = centroids.data();
    view.collocation_points = points.data();
    view.element_traction = traction.data();
    view.triangles = triangles.data();
    view.collocation_node = colloc_node.data();
    view.collocation_element = colloc_element.data();
    view.node_block = node_block.data();
    view.element_block = element_block.data();
    view.element_load_case = load_case.data();
    view.areas = areas.data();
    view.longest_edges = edges.data();
  }
};

}  // namespace geobem::bem
