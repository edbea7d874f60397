#pragma once
// Self-intersection of a triangle surface mesh: two triangles that cross,
// touch or overlap anywhere but along the edge or at the node they share.
// The collocation BEM assumes a surface that bounds a solid; a surface that
// passes through itself bounds none (its winding numbers, nesting and normals
// mean nothing), and two sheets that touch make its integrals singular
// where no rule expects it.
#include <cstddef>
#include <vector>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Two triangles (0-based indices, first < second) that intersect.
struct IntersectingPair {
  int first = 0, second = 0;
};

/// The intersecting pairs of `mesh`, at most `limit` of them, ordered by
/// (first, second). Candidates come from a bounding-volume hierarchy over the
/// triangles' boxes (median splits on the longest axis, Ericson 2005,
/// "Real-Time Collision Detection", §6.2), so the cost is about
/// O(n log n) for a mesh without intersections. Each candidate pair is decided
/// by the signs of orientation determinants (the segment–triangle and
/// coplanar tests of Möller 1997, J. Graphics Tools 2(2):25–30, in their
/// determinant form): two triangles with no node in common intersect when
/// an edge of one meets the other (or, coplanar, when they overlap); two
/// that share one node when the line their planes share leaves that node into
/// both (or, coplanar, their corners there overlap); two that share an edge
/// when they are folded flat onto each other. Points closer than 1e-12 of the
/// pair's size count as touching. Degenerate triangles (zero area) are
/// skipped: check_surface_mesh() reports them. Node indices must be valid
/// and coordinates finite.
std::vector<IntersectingPair> intersecting_triangles(const SurfaceMesh& mesh, std::size_t limit = 6);

}  // namespace geobem::surface
