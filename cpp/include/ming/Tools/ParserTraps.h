// Input that crashes MLIR 22's own parser, found before it is parsed.
//
// 1. The custom parsers of linalg.broadcast and linalg.reduce (`dimensions =
//    [..]`) and linalg.transpose (`permutation = [..]`) store the result of
//    parsing the integer list without checking it: a list that does not parse
//    (a float, a name, an integer beyond i64, no brackets) leaves a null
//    attribute that the parser then dereferences (a segmentation fault, in
//    mlir-opt-22 as well).
// 2. A string literal still open at the end of the input (a truncated
//    dense_resource blob, say): after its error the lexer stands past the
//    buffer's terminating NUL and the parser, when it goes on (in the
//    resources section it does), reads beyond the buffer (a segmentation
//    fault or not, depending on what lies there).
// 3. A dense array of index, `array<index: 1, 2>`: its parser asks the index
//    type for a bit width (a segmentation fault, in mlir-opt-22 as well).
// ming-opt scans its input for these first and reports them as located errors.
#ifndef MING_TOOLS_PARSERTRAPS_H
#define MING_TOOLS_PARSERTRAPS_H

#include <string>

namespace ming::tools {

/// Scans `text` (the input named `name`). Returns an empty string when it is
/// safe to hand to MLIR's parser, else the diagnostic, as MLIR prints one:
/// "name:line:col: error: message", the line and a caret.
std::string findParserTraps(const std::string &text, const std::string &name);

} // namespace ming::tools

#endif
