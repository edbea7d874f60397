SystemCall "touch /tmp/geobem-fuzz-seed";
Point(1) = {0, 0, 0, 1};
