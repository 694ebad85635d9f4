#ifndef MING_EMITHLS_TYPES_TD
#define MING_EMITHLS_TYPES_TD

include "ming/EmitHLS/EmitHLSDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

// Streams and variables hold a scalar or a packed word `vector<LxT>`
// (hls::vector<T, L>): a channel of L parallel lanes is one FIFO of words.
def EmitHLS_StreamType : EmitHLS_Type<"Stream", "stream"> {
  let summary = "hls::stream<T> (T a scalar or vector<LxT>, printed hls::vector<T, L>)";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def EmitHLS_ArrayType : EmitHLS_Type<"Array", "array", [ShapedTypeInterface]> {
  let summary = "a C++ array T[d0][d1]...";
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<Shape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ArrayType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                        ::mlir::Type elementType) const {
      return ArrayType::get(getContext(), shape ? *shape : getShape(), elementType);
    }
  }];
}

def EmitHLS_PointerType : EmitHLS_Type<"Pointer", "ptr"> {
  let summary = "T* (an AXI master port into external memory)";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def EmitHLS_VarType : EmitHLS_Type<"Var", "var"> {
  let summary = "a mutable C++ local variable of scalar type T or a word vector<LxT>";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

#endif
