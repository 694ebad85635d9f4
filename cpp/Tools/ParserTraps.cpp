// See ming/Tools/ParserTraps.h. A small lexer over MLIR text: it skips
// comments and string literals (so the generic form "linalg.broadcast"(...)
// and names in comments are left alone), finds the custom form of the three
// ops, then their keyword and `=`, and checks that what follows is what
// DenseI64ArrayAttr::parse accepts: `[` integers (decimal or 0x hex, optional
// minus, within i64) separated by commas `]`, comments and white space
// anywhere between.
#include "ming/Tools/ParserTraps.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace ming::tools {
namespace {

bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-'; }

class Scanner {
public:
  explicit Scanner(llvm::StringRef text) : text(text) {}

  /// Skips white space and `//` comments.
  void skipTrivia() {
    while (pos < text.size()) {
      if (llvm::isSpace(text[pos])) {
        ++pos;
      } else if (text.substr(pos).starts_with("//")) {
        size_t end = text.find('\n', pos);
        pos = end == llvm::StringRef::npos ? text.size() : end;
      } else {
        return;
      }
    }
  }

  /// Skips a string literal starting at pos (on its opening quote); false
  /// when the input ends inside it (no closing quote, no line end).
  bool skipString() {
    for (++pos; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '\\') {
        ++pos;
      } else if (c == '"' || c == '\n' || c == '\v' || c == '\f') {
        ++pos;
        return true;
      }
    }
    return false;
  }

  /// The bare identifier (letters, digits, _ . $ -) at pos, or "".
  llvm::StringRef identifier() const {
    if (pos >= text.size() || !(llvm::isAlpha(text[pos]) || text[pos] == '_'))
      return {};
    size_t end = pos;
    while (end < text.size() && isIdentChar(text[end]))
      ++end;
    return text.slice(pos, end);
  }

  /// An integer as the MLIR lexer reads one (with an optional leading
  /// minus) that fits i64; advances past it.
  bool integer() {
    size_t start = pos;
    bool negative = pos < text.size() && text[pos] == '-';
    if (negative)
      ++pos;
    skipTrivia();
    size_t digits = pos;
    if (pos >= text.size() || !llvm::isDigit(text[pos]))
      return false;
    bool hex = text.substr(pos).starts_with("0x") && pos + 2 < text.size() && llvm::isHexDigit(text[pos + 2]);
    pos += hex ? 2 : 0;
    while (pos < text.size() && (hex ? llvm::isHexDigit(text[pos]) : llvm::isDigit(text[pos])))
      ++pos;
    // A float (1.5, 1e39) or an identifier glued to the digits is not an integer.
    if (pos < text.size() && (text[pos] == '.' || llvm::isAlpha(text[pos]) || text[pos] == '_'))
      return false;
    llvm::APInt value;
    if (text.slice(digits, pos).getAsInteger(0, value))
      return false;
    // Within i64: up to 2^63 - 1, or 2^63 with a minus.
    unsigned bits = value.getActiveBits();
    if (bits > 64 || (bits == 64 && !(negative && value.isSignMask())))
      return false;
    (void)start;
    return true;
  }

  /// `[` (integer (`,` integer)*)? `]` at pos.
  bool integerList() {
    if (pos >= text.size() || text[pos] != '[')
      return false;
    ++pos;
    skipTrivia();
    if (pos < text.size() && text[pos] == ']')
      return true;
    while (true) {
      skipTrivia();
      if (!integer())
        return false;
      skipTrivia();
      if (pos < text.size() && text[pos] == ']')
        return true;
      if (pos >= text.size() || text[pos] != ',')
        return false;
      ++pos;
    }
  }

  llvm::StringRef text;
  size_t pos = 0;
};

} // namespace

/// "name:line:col: error: message", the line and a caret, as MLIR prints it.
static std::string located(llvm::StringRef text, const std::string &name, size_t offset, const llvm::Twine &message) {
  llvm::SourceMgr mgr;
  mgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, name, /*RequiresNullTerminator=*/false),
                         llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  mgr.PrintMessage(os, llvm::SMLoc::getFromPointer(text.data() + offset), llvm::SourceMgr::DK_Error, message);
  return out;
}

std::string findParserTraps(const std::string &input, const std::string &name) {
  Scanner s(input);
  llvm::StringRef keyword; // the list keyword of the last custom-form op seen
  llvm::StringRef op;
  while (s.pos < s.text.size()) {
    char c = s.text[s.pos];
    if (c == '"') {
      size_t open = s.pos;
      if (!s.skipString())
        return located(s.text, name, open,
                       "string literal not closed before the end of the input (MLIR's lexer would read past "
                       "the end here)");
      continue;
    }
    if (s.text.substr(s.pos).starts_with("//")) {
      s.skipTrivia();
      continue;
    }
    // %names, ^blocks, @symbols, #attributes, !types: skip as one token so
    // that %dimensions or #linalg.broadcast are not taken for keywords.
    if (c == '%' || c == '^' || c == '@' || c == '#' || c == '!') {
      ++s.pos;
      while (s.pos < s.text.size() && isIdentChar(s.text[s.pos]))
        ++s.pos;
      continue;
    }
    llvm::StringRef word = s.identifier();
    if (word.empty()) {
      ++s.pos;
      continue;
    }
    bool startsToken = s.pos == 0 || !isIdentChar(s.text[s.pos - 1]);
    s.pos += word.size();
    if (!startsToken)
      continue;
    if (word == "linalg.broadcast" || word == "linalg.reduce") {
      op = word;
      keyword = "dimensions";
      continue;
    }
    if (word == "linalg.transpose") {
      op = word;
      keyword = "permutation";
      continue;
    }
    if (word == "array") {
      // array<index: ...>: the dense array parser asks an index type for its
      // bit width (a segmentation fault).
      size_t after = s.pos;
      s.skipTrivia();
      if (s.pos < s.text.size() && s.text[s.pos] == '<') {
        ++s.pos;
        s.skipTrivia();
        size_t typeStart = s.pos;
        if (s.identifier() == "index") {
          s.pos += 5;
          s.skipTrivia();
          if (s.pos < s.text.size() && (s.text[s.pos] == ':' || s.text[s.pos] == '>'))
            return located(s.text, name, typeStart,
                           "dense arrays of 'index' are not supported (MLIR's parser would crash here); use "
                           "array<i64: ...>");
        }
      }
      s.pos = after;
      continue;
    }
    if (keyword.empty() || word != keyword)
      continue;
    s.skipTrivia();
    if (s.pos >= s.text.size() || s.text[s.pos] != '=')
      continue; // the parser stops at the missing `=` by itself
    ++s.pos;
    s.skipTrivia();
    size_t listStart = s.pos;
    bool ok = s.integerList();
    if (ok) {
      keyword = {};
      continue;
    }
    // Report at the list, as MLIR would.
    return located(s.text, name, listStart,
                   "'" + op.str() + "' expects '" + keyword.str() +
                       " = [i, j, ...]', a list of integers within i64 (MLIR's parser would crash here)");
  }
  return {};
}

} // namespace ming::tools
