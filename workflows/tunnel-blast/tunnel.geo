// A straight circular tunnel, 60 m long and 5 m in diameter, along the
// easting (x) axis, centred at the origin, with closed ends; its wall split
// into the 5 m section under the blast (x from -2.5 m to 2.5 m) and the rest.
// geobem-mesh meshes it at --element-size (no sizes are set here).
SetFactory("OpenCASCADE");

radius = 2.5;           // m
tunnel_length = 60;     // m
section_length = 5;     // m, the loaded section, centred on x = 0
x_start = -tunnel_length / 2;
x_section = -section_length / 2;

// The wall is the tunnel's circle swept along the axis in three pieces, so
// that the section's two edges are mesh lines shared by its neighbours.
Circle(1) = {0, 0, 0, radius};
Rotate {{0, 1, 0}, {0, 0, 0}, Pi / 2} { Curve{1}; }   // into the plane x = 0: the axis is x
Translate {x_start, 0, 0} { Curve{1}; }
before[] = Extrude {x_section - x_start, 0, 0} { Curve{1}; };
section[] = Extrude {section_length, 0, 0} { Curve{before[0]}; };
after[] = Extrude {x_section - x_start, 0, 0} { Curve{section[0]}; };

// The end walls: flat discs on the first and the last circle.
Curve Loop(10) = {1};
Plane Surface(10) = {10};
Curve Loop(11) = {after[0]};
Plane Surface(11) = {11};

// Extrude returns the swept curve's copy first, then the new surface.
Physical Surface("blast") = {section[1]};
Physical Surface("wall") = {before[1], after[1]};
Physical Surface("ends") = {10, 11};
