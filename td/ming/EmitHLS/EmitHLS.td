// Everything of the emitHLS dialect, for TableGen.
include "ming/EmitHLS/EmitHLSDialect.td"
include "ming/EmitHLS/EmitHLSTypes.td"
include "ming/EmitHLS/EmitHLSAttrs.td"
include "ming/EmitHLS/EmitHLSOps.td"
