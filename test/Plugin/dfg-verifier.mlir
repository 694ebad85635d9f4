// Our verifiers run inside mlir-opt-22 too.
// RUN: %mlir_opt --load-dialect-plugin=%ming_plugin %s -split-input-file -verify-diagnostics

dfg.process @src(%out: !dfg.out<i8>) {}
dfg.graph @g() {
  // expected-error @below {{'dfg.channel' op must have exactly one consumer (an instance taking its !dfg.in end), found 0}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @src(%w) : !dfg.out<i8>
}
