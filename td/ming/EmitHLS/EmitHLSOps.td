#ifndef MING_EMITHLS_OPS_TD
#define MING_EMITHLS_OPS_TD

include "ming/EmitHLS/EmitHLSTypes.td"
include "ming/EmitHLS/EmitHLSAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// The enum attributes print their own leading space (the generic form needs
// it after the mnemonic), hence the `` before each of them in op formats.

// A variable holding a packed word (hls::vector<T, L>): subscripted like a
// one-dimensional array, `w[i]`.
def EmitHLS_WordVarType : Type<
    CPred<"::llvm::isa<::ming::emithls::VarType>($_self) && ::llvm::isa<::mlir::VectorType>("
          "::llvm::cast<::ming::emithls::VarType>($_self).getElementType())">,
    "!emitHLS.var of a vector", "::ming::emithls::VarType">;

// Values that name memory: a local or argument array, an AXI pointer, or a
// word variable.
def EmitHLS_MemoryType : AnyTypeOf<[EmitHLS_ArrayType, EmitHLS_PointerType, EmitHLS_WordVarType],
                                   "!emitHLS.array, !emitHLS.ptr or !emitHLS.var<vector<...>>">;

//===----------------------------------------------------------------------===//
// Functions: func, return, call
//===----------------------------------------------------------------------===//

def EmitHLS_FuncOp : EmitHLS_Op<"func", [
    Symbol, FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope]> {
  let summary = "a C++ function";
  let description = [{
    `void name(args...)` or `T name(args...)`. Arguments are scalars (by
    value), arrays and pointers (memory ports) and streams (by reference); a
    function returns at most one scalar. The name must be a C identifier and
    loop labels must be unique inside one function (C++ labels have function
    scope).

    ```mlir
    emitHLS.func @relu(%in: !emitHLS.stream<i8>, %out: !emitHLS.stream<i8>) {
      emitHLS.pragma.inline off
      ...
      emitHLS.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def EmitHLS_ReturnOp : EmitHLS_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "return from a C++ function";
  let description = [{
    `return;` or `return v;`, matching the function's result type.

    ```mlir
    emitHLS.return %sum : i32
    ```
  }];
  let arguments = (ins Optional<AnyType>:$value);
  let assemblyFormat = "($value^ `:` type($value))? attr-dict";
  let hasVerifier = 1;
}


def EmitHLS_CallOp : EmitHLS_Op<"call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a C++ function call";
  let description = [{
    `f(a, b);` or `r = f(a, b);`. The callee must be an `emitHLS.func` and
    operand and result types must match its signature exactly (C++ would
    convert silently; the IR keeps every conversion explicit as
    `emitHLS.cast`). HLS cannot synthesise recursion, so a function may not
    call itself.

    ```mlir
    emitHLS.call @conv(%s0, %s1) : (!emitHLS.stream<i8>, !emitHLS.stream<i8>) -> ()
    %r = emitHLS.call @clamp(%x) : (i32) -> i8
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Local declarations: array, stream, var
//===----------------------------------------------------------------------===//

def EmitHLS_ArrayOp : EmitHLS_Op<"array"> {
  let summary = "a local C++ array";
  let description = [{
    `T a[d0][d1];`, optionally initialised: `T a[2][2] = {{1, 2}, {3, 4}};`.
    The initialiser is a `dense` or `dense_resource` elements attribute with
    the array's shape and element type. `rom` makes the array `const`
    (weights): a ROM needs an initialiser and is never stored to.

    ```mlir
    %buf = emitHLS.array : !emitHLS.array<3x34xi8>
    %w = emitHLS.array rom : !emitHLS.array<2x2xi8> = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
    ```
  }];
  let arguments = (ins UnitAttr:$rom, OptionalAttr<ElementsAttr>:$init);
  let results = (outs Res<EmitHLS_ArrayType, "the array", [MemAlloc]>:$result);
  let assemblyFormat = [{
    (`rom` $rom^)? attr-dict `:` qualified(type($result)) (`=` $init^)?
  }];
  let hasVerifier = 1;
}

def EmitHLS_StreamOp : EmitHLS_Op<"stream"> {
  let summary = "a local hls::stream";
  let description = [{
    `hls::stream<T> s;`: a FIFO between dataflow processes. Its depth is set
    by an `emitHLS.pragma.stream`. A stream of `vector<LxT>` carries packed
    words of L elements, `hls::stream<hls::vector<T, L>>`: one FIFO access
    moves L elements (a channel of L lanes).

    ```mlir
    %s = emitHLS.stream : !emitHLS.stream<i8>
    %w = emitHLS.stream : !emitHLS.stream<vector<4xi8>>
    ```
  }];
  let results = (outs Res<EmitHLS_StreamType, "the stream", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def EmitHLS_VarOp : EmitHLS_Op<"var", [
    OptionalTypesMatchWith<"initial value type is the variable's type", "result", "init",
                           "::llvm::cast<::ming::emithls::VarType>($_self).getElementType()">]> {
  let summary = "a local C++ variable (a scalar or a packed word)";
  let description = [{
    `T v;` or `T v = init;`: mutable state such as an accumulator, read with
    `emitHLS.get` and written with `emitHLS.assign`. A variable of
    `vector<LxT>` is a packed word `hls::vector<T, L> w;`; `emitHLS.load` and
    `emitHLS.store` also access its elements (`w[i]`).

    ```mlir
    %acc = emitHLS.var : !emitHLS.var<i32> = %zero
    %tmp = emitHLS.var : !emitHLS.var<f32>
    %word = emitHLS.var : !emitHLS.var<vector<4xi8>>
    ```
  }];
  let arguments = (ins Optional<AnyType>:$init);
  let results = (outs Res<EmitHLS_VarType, "the variable", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result)) (`=` $init^)?";
}

def EmitHLS_AssignOp : EmitHLS_Op<"assign", [
    TypesMatchWith<"value type is the variable's type", "var", "value",
                   "::llvm::cast<::ming::emithls::VarType>($_self).getElementType()">]> {
  let summary = "assignment to a local variable";
  let description = [{
    `v = value;`

    ```mlir
    emitHLS.assign %next, %acc : !emitHLS.var<i32>
    ```
  }];
  let arguments = (ins AnyType:$value, Arg<EmitHLS_VarType, "", [MemWrite]>:$var);
  let assemblyFormat = "$value `,` $var attr-dict `:` qualified(type($var))";
}

def EmitHLS_GetOp : EmitHLS_Op<"get", [
    TypesMatchWith<"result type is the variable's type", "var", "value",
                   "::llvm::cast<::ming::emithls::VarType>($_self).getElementType()">]> {
  let summary = "read of a local variable";
  let description = [{
    The current value of `v`, used as a C++ expression.

    ```mlir
    %a = emitHLS.get %acc : !emitHLS.var<i32>
    ```
  }];
  let arguments = (ins Arg<EmitHLS_VarType, "", [MemRead]>:$var);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$var attr-dict `:` qualified(type($var))";
}

//===----------------------------------------------------------------------===//
// Structured control flow: for, if, yield
//===----------------------------------------------------------------------===//

def EmitHLS_ForOp : EmitHLS_Op<"for", [
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
        "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
        "getLoopSteps", "getStaticTripCount"]>,
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a counted C++ for loop";
  let description = [{
    `L: for (int i = lb; i < ub; i += step) { ... }` with constant bounds, so
    every loop has a static trip count for the pragmas and the cost model.
    The induction variable is the body's `index` argument. The optional
    label (a C identifier, unique in the function) names the loop in HLS
    reports.

    ```mlir
    emitHLS.for %i = 0 to 32 step 1 label "row" {
      emitHLS.pragma.pipeline II = 1
      %v = emitHLS.stream_read %in : !emitHLS.stream<i8>
      emitHLS.stream_write %out, %v : !emitHLS.stream<i8>
    }
    ```
  }];
  let arguments = (ins I64Attr:$lowerBound, I64Attr:$upperBound, I64Attr:$step,
                       OptionalAttr<StrAttr>:$label);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "int64_t":$lowerBound, "int64_t":$upperBound, "int64_t":$step,
                   CArg<"::llvm::StringRef", "{}">:$label)>
  ];
  let extraClassDeclaration = [{
    /// The `index` block argument that counts iterations.
    ::mlir::Value getInductionVar() { return getBody().front().getArgument(0); }
    /// Number of iterations: ceil((ub - lb) / step), 0 for an empty range.
    uint64_t getTripCount();
  }];
}

def EmitHLS_IfOp : EmitHLS_Op<"if", [
    RecursiveMemoryEffects, NoRegionArguments, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a C++ if statement";
  let description = [{
    `if (cond) { ... } else { ... }`. It yields no values: results flow
    through `emitHLS.var`s, as in the C++. The else branch is optional.

    ```mlir
    emitHLS.if %last {
      emitHLS.stream_write %out, %v : !emitHLS.stream<i32>
    } else {
      emitHLS.assign %v, %acc : !emitHLS.var<i32>
    }
    ```
  }];
  let arguments = (ins I1:$condition);
  let regions = (region SizedRegion<1>:$thenRegion, MaxSizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition attr-dict-with-keyword $thenRegion (`else` $elseRegion^)?
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$condition, CArg<"bool", "false">:$withElse)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block *getThenBlock() { return &getThenRegion().front(); }
    /// Null when there is no else branch.
    ::mlir::Block *getElseBlock() {
      return getElseRegion().empty() ? nullptr : &getElseRegion().front();
    }
  }];
}

def EmitHLS_YieldOp : EmitHLS_Op<"yield", [
    Pure, ParentOneOf<["ForOp", "IfOp"]>, ReturnLike, Terminator]> {
  let summary = "end of a for or if body";
  let description = [{
    Prints nothing: it marks the closing brace. It is implicit in the custom
    syntax of `emitHLS.for` and `emitHLS.if`; written out, it reads:

    ```mlir
    emitHLS.for %i = 0 to 4 step 1 {
      emitHLS.yield
    }
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Streams and memory
//===----------------------------------------------------------------------===//

def EmitHLS_StreamReadOp : EmitHLS_Op<"stream_read", [
    TypesMatchWith<"result type is the stream's element type", "stream", "value",
                   "::llvm::cast<::ming::emithls::StreamType>($_self).getElementType()">]> {
  let summary = "blocking read of a stream";
  let description = [{
    `s.read()`: pops the next element, blocking while the FIFO is empty.

    ```mlir
    %v = emitHLS.stream_read %in : !emitHLS.stream<i8>
    ```
  }];
  // Popping changes the stream: a read is also a write.
  let arguments = (ins Arg<EmitHLS_StreamType, "", [MemRead, MemWrite]>:$stream);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$stream attr-dict `:` qualified(type($stream))";
}

def EmitHLS_StreamWriteOp : EmitHLS_Op<"stream_write", [
    TypesMatchWith<"value type is the stream's element type", "stream", "value",
                   "::llvm::cast<::ming::emithls::StreamType>($_self).getElementType()">]> {
  let summary = "blocking write to a stream";
  let description = [{
    `s.write(v);`: pushes one element, blocking while the FIFO is full.

    ```mlir
    emitHLS.stream_write %out, %v : !emitHLS.stream<i8>
    ```
  }];
  let arguments = (ins Arg<EmitHLS_StreamType, "", [MemWrite]>:$stream, AnyType:$value);
  let assemblyFormat = "$stream `,` $value attr-dict `:` qualified(type($stream))";
}

// getMemoryElementType leaves a non-memory type unchanged, so inferring the
// value type never asserts, even on generic-form input with a wrong type.
def EmitHLS_LoadOp : EmitHLS_Op<"load", [
    TypesMatchWith<"result type is the element type", "memref", "value",
                   "::ming::emithls::getMemoryElementType($_self)">]> {
  let summary = "array or pointer element read";
  let description = [{
    `a[i][j]` for an array (one index per dimension), `p[i]` for a pointer
    or `w[i]` for one element of a word variable (exactly one index).

    ```mlir
    %v = emitHLS.load %buf[%r, %c] : !emitHLS.array<3x34xi8>
    %x = emitHLS.load %p[%i] : !emitHLS.ptr<i8>
    %e = emitHLS.load %word[%lane] : !emitHLS.var<vector<4xi8>>
    ```
  }];
  let arguments = (ins Arg<EmitHLS_MemoryType, "", [MemRead]>:$memref,
                       Variadic<Index>:$indices);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$memref `[` $indices `]` attr-dict `:` type($memref)";
  let hasVerifier = 1;
}

def EmitHLS_StoreOp : EmitHLS_Op<"store", [
    TypesMatchWith<"value type is the element type", "memref", "value",
                   "::ming::emithls::getMemoryElementType($_self)">]> {
  let summary = "array or pointer element write";
  let description = [{
    `a[i][j] = v;` for an array, `p[i] = v;` for a pointer or `w[i] = v;`
    for one element of a word variable. A `rom` array is `const` and cannot
    be stored to.

    ```mlir
    emitHLS.store %v, %buf[%r, %c] : !emitHLS.array<3x34xi8>
    emitHLS.store %e, %word[%lane] : !emitHLS.var<vector<4xi8>>
    ```
  }];
  let arguments = (ins AnyType:$value, Arg<EmitHLS_MemoryType, "", [MemWrite]>:$memref,
                       Variadic<Index>:$indices);
  let assemblyFormat = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)";
  let hasVerifier = 1;
}

def EmitHLS_CastOp : EmitHLS_Op<"cast", [Pure]> {
  let summary = "C++ static_cast between scalar types";
  let description = [{
    `static_cast<T>(x)` between integer and float types: truncation, sign
    extension and int/float conversion follow the C++ rules of the printed
    types. A cast must change the type.

    ```mlir
    %b = emitHLS.cast %a : i32 to i8
    %f = emitHLS.cast %b : i8 to f32
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pragmas: each op is one `#pragma HLS ...` line. They have no results and
// unknown side effects, so no pass drops or moves them.
//===----------------------------------------------------------------------===//

def EmitHLS_PragmaDataflowOp : EmitHLS_PragmaOp<"dataflow", [HasParent<"FuncOp">]> {
  let summary = "#pragma HLS dataflow";
  let description = [{
    Makes the calls of the enclosing function concurrent processes
    connected by its streams. Directly in a function body, at most once.

    ```mlir
    emitHLS.pragma.dataflow
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def EmitHLS_PragmaPipelineOp : EmitHLS_PragmaOp<"pipeline", [
    ParentOneOf<["ForOp", "FuncOp"]>]> {
  let summary = "#pragma HLS pipeline [II=n | off]";
  let description = [{
    Pipelines the enclosing loop or function with initiation interval `II`
    (absent: the Vitis default of 1), or forbids pipelining with `off`.
    Directly in a loop or function body, at most once; not in a dataflow
    function.

    ```mlir
    emitHLS.pragma.pipeline II = 2
    emitHLS.pragma.pipeline off
    ```
  }];
  let arguments = (ins UnitAttr:$off, OptionalAttr<I64Attr>:$ii);
  let assemblyFormat = "(`off` $off^)? (`II` `=` $ii^)? attr-dict";
  let hasVerifier = 1;
}

def EmitHLS_PragmaUnrollOp : EmitHLS_PragmaOp<"unroll", [HasParent<"ForOp">]> {
  let summary = "#pragma HLS unroll [factor=n]";
  let description = [{
    Unrolls the enclosing loop fully (no factor) or by `factor`, which is at
    least 1 and at most the loop's trip count. Directly in a loop body, at
    most once.

    ```mlir
    emitHLS.pragma.unroll
    emitHLS.pragma.unroll factor = 4
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$factor);
  let assemblyFormat = "(`factor` `=` $factor^)? attr-dict";
  let hasVerifier = 1;
}

def EmitHLS_PragmaDependenceOp : EmitHLS_PragmaOp<"dependence", [HasParent<"ForOp">]> {
  let summary = "#pragma HLS dependence variable=a type=inter direction=RAW distance=n dependent=true";
  let description = [{
    States that the enclosing loop reads an element of `array` that it
    wrote `distance` (at least 1) or more iterations earlier, and never
    sooner: the read-modify-write of an accumulator indexed modulo its
    size, where Vitis would assume the worst distance, 1. At most once per
    array in a loop body.

    ```mlir
    emitHLS.pragma.dependence %acc distance = 8 : !emitHLS.array<64xf32>
    ```
  }];
  let arguments = (ins EmitHLS_ArrayType:$array, I64Attr:$distance);
  let assemblyFormat = "$array `distance` `=` $distance attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

def EmitHLS_PragmaLoopTripcountOp : EmitHLS_PragmaOp<"loop_tripcount", [
    HasParent<"ForOp">]> {
  let summary = "#pragma HLS loop_tripcount min=a max=b avg=c";
  let description = [{
    Trip count hints for HLS latency reports; 0 <= min <= avg <= max.
    Directly in a loop body, at most once.

    ```mlir
    emitHLS.pragma.loop_tripcount min = 1 max = 64 avg = 32
    ```
  }];
  let arguments = (ins I64Attr:$min, I64Attr:$max, I64Attr:$avg);
  let assemblyFormat = "`min` `=` $min `max` `=` $max `avg` `=` $avg attr-dict";
  let hasVerifier = 1;
}

def EmitHLS_PragmaInlineOp : EmitHLS_PragmaOp<"inline", [HasParent<"FuncOp">]> {
  let summary = "#pragma HLS inline [off]";
  let description = [{
    Inlines the enclosing function into its callers, or with `off` keeps it
    a separate module (every dataflow process). Directly in a function body,
    at most once.

    ```mlir
    emitHLS.pragma.inline off
    ```
  }];
  let arguments = (ins UnitAttr:$off);
  let assemblyFormat = "(`off` $off^)? attr-dict";
  let hasVerifier = 1;
}

def EmitHLS_PragmaArrayPartitionOp : EmitHLS_PragmaOp<"array_partition"> {
  let summary = "#pragma HLS array_partition variable=a type=t [factor=n] dim=d";
  let description = [{
    Splits an array into smaller memories or registers. `dim` is 1-based as
    in Vitis; 0 applies the partition to every dimension. `cyclic` and
    `block` need a factor between 2 and the size of each partitioned
    dimension; `complete` takes none.

    ```mlir
    emitHLS.pragma.array_partition %w cyclic factor = 2 dim = 1 : !emitHLS.array<4x4xi8>
    emitHLS.pragma.array_partition %win complete dim = 0 : !emitHLS.array<3x3xi8>
    ```
  }];
  let arguments = (ins EmitHLS_ArrayType:$array, EmitHLS_PartitionKindAttr:$kind,
                       OptionalAttr<I64Attr>:$factor, I64Attr:$dim);
  let assemblyFormat = [{
    $array `` $kind (`factor` `=` $factor^)? `dim` `=` $dim attr-dict `:` qualified(type($array))
  }];
  let hasVerifier = 1;
}

def EmitHLS_PragmaBindStorageOp : EmitHLS_PragmaOp<"bind_storage"> {
  let summary = "#pragma HLS bind_storage variable=v type=t impl=i";
  let description = [{
    Chooses the memory that implements an array (`ram_*`, `rom_*`) or a
    stream (`fifo`). `rom_*` types need a `rom` array or an array argument
    that the function only reads; `srl` (shift registers) implements only
    FIFOs.

    ```mlir
    emitHLS.pragma.bind_storage %w type = rom_1p impl = bram : !emitHLS.array<8x9xi8>
    emitHLS.pragma.bind_storage %s type = fifo impl = srl : !emitHLS.stream<i8>
    ```
  }];
  let arguments = (ins AnyTypeOf<[EmitHLS_ArrayType, EmitHLS_StreamType],
                                 "!emitHLS.array or !emitHLS.stream">:$variable,
                       EmitHLS_StorageKindAttr:$storage, EmitHLS_StorageImplAttr:$impl);
  let assemblyFormat = [{
    $variable `type` `=` `` $storage `impl` `=` `` $impl attr-dict `:` type($variable)
  }];
  let hasVerifier = 1;
}

def EmitHLS_PragmaStreamOp : EmitHLS_PragmaOp<"stream"> {
  let summary = "#pragma HLS stream variable=s depth=n";
  let description = [{
    Sets the depth (>= 1) of a stream's FIFO, at most once per stream.

    ```mlir
    emitHLS.pragma.stream %s depth = 16 : !emitHLS.stream<i8>
    ```
  }];
  let arguments = (ins EmitHLS_StreamType:$stream, I64Attr:$depth);
  let assemblyFormat = "$stream `depth` `=` $depth attr-dict `:` qualified(type($stream))";
  let hasVerifier = 1;
}

def EmitHLS_PragmaInterfaceOp : EmitHLS_PragmaOp<"interface", [HasParent<"FuncOp">]> {
  let summary = "#pragma HLS interface mode port=p [bundle=b] [depth=n] [max_widen_bitwidth=w]";
  let description = [{
    The hardware protocol of one argument of the enclosing function, or,
    without a port, of its block-level control and return value
    (`port=return`, s_axilite only). `m_axi` ports are pointers or arrays,
    `axis` ports are streams, `s_axilite` ports are scalars. `bundle` (a C
    identifier, m_axi and s_axilite only) groups ports into one AXI
    interface; `depth` (m_axi only) is the number of elements the C/RTL
    co-simulation transfers; `max_widen_bitwidth` (m_axi only, a power of two
    from 8 to 1024) lets Vitis widen the port to move several consecutive
    elements per beat, up to the width of the board's memory port.

    ```mlir
    emitHLS.pragma.interface m_axi %x bundle = "gmem0" depth = 3072 max_widen_bitwidth = 128 : !emitHLS.ptr<i8>
    emitHLS.pragma.interface s_axilite %n bundle = "control" : i32
    emitHLS.pragma.interface s_axilite return bundle = "control"
    ```
  }];
  let arguments = (ins EmitHLS_InterfaceModeAttr:$mode, Optional<AnyType>:$port,
                       OptionalAttr<StrAttr>:$bundle, OptionalAttr<I64Attr>:$depth,
                       OptionalAttr<I64Attr>:$max_widen_bitwidth);
  let assemblyFormat = [{
    `` $mode ($port^):(`return`)? (`bundle` `=` $bundle^)? (`depth` `=` $depth^)?
    (`max_widen_bitwidth` `=` $max_widen_bitwidth^)? attr-dict
    (`:` type($port)^)?
  }];
  let hasVerifier = 1;
}

#endif
