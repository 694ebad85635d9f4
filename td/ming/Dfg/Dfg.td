// Everything of the dfg dialect, for TableGen.
include "ming/Dfg/DfgDialect.td"
include "ming/Dfg/DfgTypes.td"
include "ming/Dfg/DfgOps.td"
