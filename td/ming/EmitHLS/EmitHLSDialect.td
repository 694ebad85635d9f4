// emitHLS: one-to-one with the Vitis HLS C++ that will be printed. Every op is
// a C++ construct (function, local array, hls::stream, for loop, pragma, ...);
// scalar arithmetic stays in arith/math and is printed as C++ expressions.
#ifndef MING_EMITHLS_DIALECT_TD
#define MING_EMITHLS_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def EmitHLS_Dialect : Dialect {
  let name = "emitHLS";
  let summary = "Vitis HLS C++, one op per C++ construct";
  let description = [{
    The last IR before C++: a Rust translator prints each op as the C++ it
    stands for. Arithmetic is not duplicated here: `arith` and `math` ops
    inside emitHLS regions are printed directly as C++ expressions, so the
    upstream folders and canonicalisations keep working on them.
  }];
  let cppNamespace = "::ming::emithls";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // Its ops carry `ming.*` directives, which that dialect verifies.
  let dependentDialects = ["::ming::directives::MingDialect"];
}

class EmitHLS_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<EmitHLS_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class EmitHLS_Op<string mnemonic, list<Trait> traits = []>
    : Op<EmitHLS_Dialect, mnemonic, traits>;

// Every `emitHLS.pragma.<name>` op becomes one `#pragma HLS <name> ...` line at
// its position in the C++ body.
class EmitHLS_PragmaOp<string name, list<Trait> traits = []>
    : EmitHLS_Op<"pragma." # name, traits>;

#endif
