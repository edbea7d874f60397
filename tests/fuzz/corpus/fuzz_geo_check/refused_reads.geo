Merge "other.msh";
Include "other.geo";
Exit;
