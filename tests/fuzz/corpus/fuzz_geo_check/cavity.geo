// A block with a spherical cavity, OpenCASCADE kernel.
SetFactory("OpenCASCADE");
a = 1.0;  // cavity radius (m)
Box(1) = {-4*a, -4*a, -4*a, 8*a, 8*a, 8*a};
Sphere(2) = {0, 0, 0, a};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
s() = Boundary{ Volume{3}; };
Physical Surface("outer") = {s(0):s(5)};
Physical Surface("cavity") = {s(6)};
Mesh.MeshSizeMax = a / 2;
