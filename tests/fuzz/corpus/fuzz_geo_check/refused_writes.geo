x = 1;
Printf("x = %g", x) > "/tmp/geobem-fuzz-seed";
Save "/tmp/geobem-fuzz-seed.msh";
