/* A unit square extruded to a box with the built-in kernel, a loop and a macro. */
lc = 0.25;
Macro Corner
  p = newp;
  Point(p) = {x, y, 0, lc};
  corners[k] = p;
Return
k = 0;
For i In {0:3}
  x = (i == 1 || i == 2) ? 1 : 0;
  y = (i >= 2) ? 1 : 0;
  Call Corner;
  k += 1;
EndFor
For i In {0:3}
  Line(i + 1) = {corners[i], corners[(i + 1) % 4]};
EndFor
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 1} { Surface{1}; };
If (#out[] > 2)
  Physical Surface("bottom") = {1};
  Physical Surface("top") = {out[0]};
  Physical Surface("sides") = {out[2]:out[5]};
Else
  Printf("unexpected extrusion: %g entities", #out[]);
EndIf
Transfinite Curve {1, 2} = 5 Using Progression 1.1;
Field[1] = Distance;
Field[1].CurvesList = {1};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = lc / 4;
Field[2].SizeMax = lc;
Field[2].DistMin = 0.1;
Field[2].DistMax = 0.5;
Background Field = 2;
Geometry.Tolerance = 1e-9;
