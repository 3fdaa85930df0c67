//===- FormatCode.cpp -----------------------------------------------------===//
//
// clang-format costs about a second per megabyte of input even where it
// changes nothing, and the generated kernels of one sample are megabytes:
// formatting was most of tilecc's time. The printers already indent and
// space their output as clang-format would, so only some statements need it:
// those past the column limit, those printed over several lines, short
// bodies clang-format joins onto one line, text the printers copy (marked),
// neighbouring trailing comments. formatCode gives those to clang-format,
// each inside a scaffold of the scopes that enclose it (so it gets the same
// indentation and the same parse), all in one batch formatted in parallel
// pieces, and keeps every other line as printed; preprocessor lines it moves
// to column 0 itself. formatCodeWithClangFormat is the reference it must
// equal: tilecc --verify-format compares the two on every file it writes,
// and the test suite passes it everywhere.
//
//===----------------------------------------------------------------------===//
#include "codegen/FormatCode.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <deque>

namespace tilecc::codegen {
namespace {

using llvm::StringRef;

constexpr StringRef GroupBegin = "// @g";
constexpr StringRef GroupEnd = "// @e";

clang::format::FormatStyle generatedCodeStyle() {
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  // Keep #pragma unroll with the loop it belongs to.
  Style.IndentPPDirectives = clang::format::FormatStyle::PPDIS_None;
  // Layout descriptions in comments read better whole than wrapped.
  Style.ReflowComments = false;
  // Each of these is a pass over the whole file before the formatting one;
  // the printers write namespace end comments, and no using-declarations.
  Style.FixNamespaceComments = false;
  Style.SortUsingDeclarations = clang::format::FormatStyle::SUD_Never;
  return Style;
}

std::optional<std::string> clangFormat(const std::string &Code,
                                       StringRef FileName) {
  clang::tooling::Replacements R = clang::format::reformat(
      generatedCodeStyle(), Code, {clang::tooling::Range(0, Code.size())},
      FileName);
  auto Formatted = clang::tooling::applyAllReplacements(Code, R);
  if (!Formatted) {
    llvm::consumeError(Formatted.takeError());
    return std::nullopt;
  }
  return *Formatted;
}

/// What an open brace of the generated text encloses. A statement is
/// formatted inside one scaffold line per enclosing brace, chosen so that
/// clang-format parses the statement as it would in place.
enum class Scope {
  Namespace,   // namespace x {
  Record,      // struct x {
  Function,    // a function body, or a lambda's at namespace scope
  Block,       // { inside a body
  Conditional, // if (...) { or else {: a following } else stays an else
  Do,          // do {: a following } while (...); stays a do-while
  Lambda,      // auto f = [&](...) {, closed by };
  Switch,      // switch (...) {: its case labels are not indented
  Case,        // case N: {
  Initializer, // = { or ( {: a braced list, never scaffolded
};

/// The code of one printed line: comments and the contents of literals
/// removed, so that brackets can be counted.
struct LineCode {
  std::string Code;
  bool TrailingComment = false;
  /// A block comment or raw string that goes on past the line: the lines
  /// after it cannot be read one by one.
  bool Unmodelled = false;
};

LineCode codeOf(StringRef Line) {
  LineCode L;
  char Quote = 0;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quote) {
      if (C == '\\')
        ++I;
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '"' && I > 0 && Line[I - 1] == 'R') {
      L.Unmodelled = true;
      break;
    }
    if (C == '"' || C == '\'') {
      Quote = C;
      L.Code += C;
      continue;
    }
    if (C == '/' && I + 1 < Line.size() && Line[I + 1] == '/') {
      L.TrailingComment = !StringRef(L.Code).trim().empty();
      break;
    }
    if (C == '/' && I + 1 < Line.size() && Line[I + 1] == '*') {
      size_t End = Line.find("*/", I + 2);
      if (End == StringRef::npos) {
        L.Unmodelled = true;
        break;
      }
      I = End + 1;
      L.Code += ' ';
      continue;
    }
    L.Code += C;
  }
  return L;
}

int bracketBalance(StringRef Code) {
  int Depth = 0;
  for (char C : Code)
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
  return Depth;
}

/// The scope a `{` opens, from the code before it and the scope around it.
Scope scopeOpenedBy(StringRef Before, Scope Around, bool TopLevel) {
  Before = Before.trim();
  if (Before.ends_with("=") || Before.ends_with("(") || Before.ends_with(",") ||
      Before.ends_with("{") || Before.empty() || Around == Scope::Initializer)
    return Before.empty() && !TopLevel && Around != Scope::Initializer &&
                   Around != Scope::Namespace && Around != Scope::Record
               ? Scope::Block
               : Scope::Initializer;
  if (Before.starts_with("}"))
    Before = Before.drop_front().ltrim();
  if (Before.starts_with("namespace") || Before.starts_with("extern \"C"))
    return Scope::Namespace;
  for (StringRef Key : {"struct ", "class ", "union ", "enum "})
    if (Before.starts_with(Key) ||
        (Before.starts_with("template") && Before.contains(Key)))
      return Scope::Record;
  if (TopLevel || Around == Scope::Namespace || Around == Scope::Record)
    return Scope::Function;
  if (Before.starts_with("if") || Before.starts_with("else"))
    return Scope::Conditional;
  if (Before == "do")
    return Scope::Do;
  if (Before.starts_with("switch"))
    return Scope::Switch;
  if (Before.starts_with("case ") || Before.starts_with("default:"))
    return Scope::Case;
  if (Before.contains('[') && !Before.starts_with("for") &&
      !Before.starts_with("while") && !Before.starts_with("switch"))
    return Scope::Lambda;
  return Scope::Block;
}

/// Whether Code is an if, for, while or else whose body is the next
/// statement, without braces.
bool isUnbracedControl(StringRef Code) {
  Code = Code.trim();
  if (Code.starts_with("}"))
    Code = Code.drop_front().ltrim();
  if (Code == "else")
    return true;
  if (Code.starts_with("else "))
    Code = Code.drop_front(5).ltrim();
  return (Code.starts_with("if (") || Code.starts_with("for (") ||
          Code.starts_with("while (")) &&
         Code.ends_with(")") && bracketBalance(Code) == 0;
}

/// Formats printed code statement by statement; see the file comment.
class StatementFormatter {
public:
  StatementFormatter(const std::string &Code, StringRef FileName,
                     FormatCache *Cache)
      : FileName(FileName), Cache(Cache) {
    StringRef(Code).split(Lines, '\n');
    for (StringRef &L : Lines) {
      // A marked piece of code may start within a printed line.
      Marked.push_back(L.contains(FormattingMark));
      if (Marked.back()) {
        Unmarked.emplace_back(L);
        llvm::erase(Unmarked.back(), FormattingMark);
        L = Unmarked.back();
      }
      Codes.push_back(codeOf(L));
    }
  }

  /// The formatted text, or nothing where the printed code has a shape this
  /// formatter does not model (the caller then formats the whole file).
  std::optional<std::string> run();

private:
  bool isPreprocessorLine(size_t I) const {
    return Lines[I].ltrim().starts_with("#");
  }
  bool hasTrailingComment(size_t I) const {
    return I < Lines.size() && Codes[I].TrailingComment;
  }
  /// The last line of the statement starting at line I, or nothing if its
  /// brackets do not close.
  std::optional<size_t> statementEnd(size_t I) const;
  /// Whether clang-format leaves line I, a whole statement, as printed.
  bool isSettled(size_t I) const;
  /// The line that closes the function, lambda or record whose body line I
  /// opens, if clang-format may join all of it onto one line.
  std::optional<size_t> shortBodyEnd(size_t I) const;
  /// Applies the braces of lines [Begin, End] to the scope stack; fails on
  /// a brace without its match, or, in a group, one that closes a namespace
  /// (groups have no namespace scaffold).
  bool applyBraces(size_t Begin, size_t End, bool InGroup = false);
  /// Adds lines [Begin, End] to the pending group of unsettled statements.
  bool addToGroup(size_t Begin, size_t End);
  /// Ends the pending group: its scaffold joins the batch for clang-format.
  void endGroup();
  /// Formats the batch of scaffolds and puts each group in its place.
  std::optional<std::string> formatGroups();
  /// The output, given the formatted text of each group; nothing if a
  /// group's formatted text lost or gained digits.
  std::optional<std::string>
  assemble(llvm::ArrayRef<std::string> Formatted) const;
  /// Writes the empty lines before the next line, as clang-format keeps
  /// them.
  void flushBlankLines(bool ClosesBody);

  StringRef FileName;
  FormatCache *Cache;
  llvm::SmallVector<StringRef, 0> Lines;
  std::vector<LineCode> Codes;
  std::vector<bool> Marked;
  std::deque<std::string> Unmarked;
  llvm::SmallVector<Scope, 16> Scopes;

  /// The output: printed lines and groups. A group is formatted in the
  /// batch (Group) or was in an earlier file (Text); either way, the text
  /// of a group of the same shape, into which go its own Digits (endGroup).
  struct Piece {
    std::string Text;
    bool IsGroup = false;
    int Group = -1;
    std::string Digits;
  };
  std::vector<Piece> Out;
  unsigned PendingBlankLines = 0;
  /// Control statements without braces around the coming statement, which
  /// is indented once for each.
  unsigned UnbracedBodies = 0;

  struct Group {
    /// Where the group's scaffold starts in the batch.
    size_t Offset = 0;
    unsigned Openers = 0;
    std::string Shape;
  };
  std::optional<Group> Pending;
  /// The digits of the pending group's lines, in order.
  std::string PendingDigits;
  std::vector<Group> Groups;
  /// Each group's scaffolded text in the batch, every digit a 0, and its
  /// index.
  llvm::StringMap<unsigned> SeenGroups;
  std::string Batch;
};

std::optional<size_t> StatementFormatter::statementEnd(size_t I) const {
  auto Ended = [](StringRef Code) {
    Code = Code.rtrim();
    return Code.empty() || Code.ends_with(";") || Code.ends_with("{") ||
           Code.ends_with("}") || Code.ends_with(":") ||
           isUnbracedControl(Code);
  };
  int Depth = bracketBalance(Codes[I].Code);
  size_t End = I;
  while (Depth > 0 || !Ended(Codes[End].Code)) {
    if (End + 1 == Lines.size() || isPreprocessorLine(End + 1))
      return std::nullopt;
    ++End;
    Depth += bracketBalance(Codes[End].Code);
  }
  if (Depth != 0)
    return std::nullopt;
  return End;
}

bool StatementFormatter::isSettled(size_t I) const {
  StringRef Line = Lines[I];
  StringRef Code = StringRef(Codes[I].Code).trim();
  // Past the column limit, only a comment that nothing can be broken
  // before stays as it is (comments are not reflowed).
  bool Unbreakable = Code.empty() || Code == "{" || Code == "}" || Code == "};";
  if (Marked[I] || (Line.size() > 80 && !Unbreakable) || Line.ends_with(" ") ||
      Line.contains('\t'))
    return false;
  // Indented two columns per scope, but for namespaces; a closing brace as
  // the line that opened it. Labels are for clang-format to place.
  if (Code.ends_with(":"))
    return false;
  unsigned Level = UnbracedBodies + llvm::count_if(Scopes, [](Scope S) {
                     return S != Scope::Namespace && S != Scope::Switch;
                   });
  if (Code.starts_with("}") && !Scopes.empty() &&
      Scopes.back() != Scope::Namespace && Scopes.back() != Scope::Switch)
    --Level;
  if (Line.size() - Line.ltrim(' ').size() != 2 * Level ||
      Line.ltrim(' ').starts_with(" "))
    return false;
  // Braces inside a line (a one-line block, a braced list) are for
  // clang-format to arrange, except an opening brace last and a closing
  // brace first.
  StringRef Inner = Code;
  if (Inner.ends_with("{"))
    Inner = Inner.drop_back();
  if (Inner.starts_with("}"))
    Inner = Inner.drop_front();
  if (Inner.contains('{') || Inner.contains('}'))
    return false;
  // clang-format lines up the trailing comments of neighbouring lines.
  return !Codes[I].TrailingComment ||
         (!(I > 0 && hasTrailingComment(I - 1)) && !hasTrailingComment(I + 1));
}

std::optional<size_t> StatementFormatter::shortBodyEnd(size_t I) const {
  StringRef Code = StringRef(Codes[I].Code).rtrim();
  if (!Code.ends_with("{") || Codes[I].TrailingComment)
    return std::nullopt;
  Scope Around = Scopes.empty() ? Scope::Namespace : Scopes.back();
  Scope Opened = scopeOpenedBy(Code.drop_back(), Around, Scopes.empty());
  if (Opened != Scope::Function && Opened != Scope::Lambda &&
      Opened != Scope::Record)
    return std::nullopt;
  size_t Width = Lines[I].rtrim().size();
  int Depth = 0;
  for (size_t J = I; J < Lines.size(); ++J) {
    if (J > I)
      Width += 1 + Lines[J].trim().size();
    if (Width > 80 || isPreprocessorLine(J))
      return std::nullopt;
    for (char C : Codes[J].Code)
      Depth += (C == '{') - (C == '}');
    if (Depth == 0)
      return J;
  }
  return std::nullopt;
}

bool StatementFormatter::applyBraces(size_t Begin, size_t End, bool InGroup) {
  for (size_t L = Begin; L <= End; ++L) {
    StringRef Code = Codes[L].Code;
    for (size_t I = 0; I < Code.size(); ++I) {
      if (Code[I] == '}') {
        if (Scopes.empty() || (InGroup && Scopes.back() == Scope::Namespace))
          return false;
        Scopes.pop_back();
      } else if (Code[I] == '{') {
        Scope Around = Scopes.empty() ? Scope::Namespace : Scopes.back();
        size_t Start = Code.rfind(';', I);
        Start = Start == StringRef::npos ? 0 : Start + 1;
        // A brace first on its line belongs to the line before.
        StringRef Before = Code.slice(Start, I);
        if (Before.trim().empty() && L > Begin)
          Before = Codes[L - 1].Code;
        Scopes.push_back(scopeOpenedBy(Before, Around, Scopes.empty()));
      }
    }
  }
  return true;
}

/// The scaffold line that opens a scope around a group, and the one that
/// closes it. Namespaces need none: their contents are not indented.
StringRef opener(Scope S) {
  switch (S) {
  case Scope::Namespace:
    return "";
  case Scope::Record:
    return "struct s {\n";
  case Scope::Function:
    return "void f() {\n";
  case Scope::Block:
    return "{\n";
  case Scope::Conditional:
    return "if (c) {\n";
  case Scope::Do:
    return "do {\n";
  case Scope::Lambda:
    return "auto l = [&] {\n";
  case Scope::Switch:
    return "switch (c) {\n";
  case Scope::Case:
    return "case 0: {\n";
  case Scope::Initializer:
    break;
  }
  llvm_unreachable("braced lists are not scaffolded");
}

StringRef closer(Scope S) {
  switch (S) {
  case Scope::Namespace:
    return "";
  case Scope::Record:
  case Scope::Lambda:
    return "};\n";
  case Scope::Do:
    return "} while (0);\n";
  default:
    return "}\n";
  }
}

bool StatementFormatter::addToGroup(size_t Begin, size_t End) {
  if (!Pending) {
    if (llvm::is_contained(Scopes, Scope::Initializer))
      return false;
    Pending = Group{Batch.size()};
    // A marker that separates the group from the one before, then the
    // scopes around it, one scaffold line each.
    Batch += "\n" + GroupBegin.str() + "\n";
    for (Scope S : Scopes) {
      Batch += opener(S);
      Pending->Openers += S != Scope::Namespace;
    }
    for (unsigned U = 0; U < UnbracedBodies; ++U, ++Pending->Openers)
      Batch += "if (c)\n";
  }
  for (size_t L = Begin; L <= End; ++L) {
    Batch += Lines[L].str() + "\n";
    llvm::copy_if(Lines[L], std::back_inserter(PendingDigits), llvm::isDigit);
  }
  return applyBraces(Begin, End, /*InGroup=*/true);
}

void StatementFormatter::endGroup() {
  if (!Pending)
    return;
  // A comment after a blank line keeps a block the group leaves open from
  // being joined with its closing brace, and lines up with nothing.
  Batch += "\n" + GroupEnd.str() + "\n";
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It)
    Batch += closer(*It);
  // Statements that differ only in their digits (kernel variants repeat
  // many, with other numbers and names such as L7 or t12), in the same
  // scopes, are formatted once: a digit is not a token of its own, so
  // clang-format places the same tokens of the same lengths alike, and
  // each keeps its own digits (assemble).
  std::string Shape = StringRef(Batch).substr(Pending->Offset).str();
  std::replace_if(Shape.begin(), Shape.end(), llvm::isDigit, '0');
  Piece P{"", true, -1, std::move(PendingDigits)};
  PendingDigits.clear();
  if (std::optional<std::string> Formatted =
          Cache ? Cache->find(Shape) : std::nullopt) {
    P.Text = std::move(*Formatted);
    Batch.resize(Pending->Offset);
  } else {
    auto [Seen, New] = SeenGroups.try_emplace(Shape, Groups.size());
    if (New) {
      Pending->Shape = std::move(Shape);
      Groups.push_back(*Pending);
    } else {
      Batch.resize(Pending->Offset);
    }
    P.Group = Seen->second;
  }
  Out.push_back(std::move(P));
  Pending.reset();
}

void StatementFormatter::flushBlankLines(bool ClosesBody) {
  // clang-format keeps one empty line of a run, and none before the brace
  // that closes a body or at the end of the file.
  if (PendingBlankLines && !Out.empty() && !ClosesBody)
    Out.push_back({"\n"});
  PendingBlankLines = 0;
}

std::optional<std::string> StatementFormatter::formatGroups() {
  // The batch in pieces of whole groups, formatted in parallel: the long
  // statements of a large kernel file take clang-format most of a second,
  // and the last kernel's are what a translation waits for at its end.
  constexpr size_t PieceSize = 16 * 1024;
  if (Groups.empty())
    return assemble({});
  size_t PieceCount =
      std::min<size_t>(llvm::hardware_concurrency().compute_thread_count(),
                       Batch.size() / PieceSize + 1);
  llvm::SmallVector<size_t, 8> PieceBegin = {0};
  for (size_t G = 0; G < Groups.size(); ++G)
    if (Groups[G].Offset >= PieceBegin.size() * Batch.size() / PieceCount &&
        PieceBegin.size() < PieceCount)
      PieceBegin.push_back(G);
  std::vector<std::optional<std::string>> Texts(PieceBegin.size());
  llvm::parallelFor(0, PieceBegin.size(), [&](size_t P) {
    size_t Begin = Groups[PieceBegin[P]].Offset;
    size_t End = P + 1 < PieceBegin.size() ? Groups[PieceBegin[P + 1]].Offset
                                           : Batch.size();
    Texts[P] = clangFormat(Batch.substr(Begin, End - Begin), FileName);
  });
  llvm::SmallVector<StringRef, 0> Parts;
  for (const std::optional<std::string> &Text : Texts) {
    if (!Text)
      return std::nullopt;
    llvm::SmallVector<StringRef, 0> Split;
    StringRef(*Text).split(Split, GroupBegin.str() + "\n");
    Parts.append(Split.begin() + 1, Split.end());
  }
  if (Parts.size() != Groups.size())
    return std::nullopt;
  std::vector<std::string> Formatted;
  for (size_t G = 0; G < Groups.size(); ++G) {
    llvm::SmallVector<StringRef, 16> Result;
    Parts[G].split(Result, '\n');
    auto End =
        llvm::find_if(Result, [](StringRef L) { return L.trim() == GroupEnd; });
    size_t Begin = Groups[G].Openers;
    if (End == Result.end() || size_t(End - Result.begin()) <= Begin)
      return std::nullopt;
    // The blank line before the end marker, if clang-format kept it.
    while (End[-1].empty())
      --End;
    std::string Lines;
    for (StringRef L : llvm::ArrayRef(Result.begin() + Begin, End))
      Lines += L.str() + "\n";
    if (Cache)
      Cache->add(Groups[G].Shape, Lines);
    Formatted.push_back(std::move(Lines));
  }
  return assemble(Formatted);
}

std::optional<std::string>
StatementFormatter::assemble(llvm::ArrayRef<std::string> Formatted) const {
  std::string Result;
  for (const Piece &P : Out) {
    if (!P.IsGroup) {
      Result += P.Text;
      continue;
    }
    // The group's formatted text with this piece's digits, in order:
    // formatting moves whitespace only.
    size_t Next = 0;
    for (char C : P.Group < 0 ? P.Text : Formatted[P.Group]) {
      if (llvm::isDigit(C)) {
        if (Next == P.Digits.size())
          return std::nullopt;
        C = P.Digits[Next++];
      }
      Result += C;
    }
    if (Next != P.Digits.size())
      return std::nullopt;
  }
  return Result;
}

std::optional<std::string> StatementFormatter::run() {
  if (llvm::any_of(Codes, [](const LineCode &L) { return L.Unmodelled; }))
    return std::nullopt;
  bool EndsWithNewline = !Lines.empty() && Lines.back().empty();
  if (EndsWithNewline) {
    Lines.pop_back();
    Codes.pop_back();
  }
  // Whether the pending group ends with a control statement, whose body
  // must join it.
  bool BodyOfGroup = false;
  for (size_t I = 0; I < Lines.size();) {
    StringRef Line = Lines[I];
    if (BodyOfGroup && (Line.trim().empty() || isPreprocessorLine(I)))
      return std::nullopt;
    if (Line.trim().empty()) {
      endGroup();
      ++PendingBlankLines;
      ++I;
      continue;
    }
    if (isPreprocessorLine(I)) {
      endGroup();
      StringRef Directive = Line.ltrim();
      // Long directives and continued macros are not printed.
      if (Directive.size() > 80 || Directive.ends_with(" ") ||
          Directive.ends_with("\\"))
        return std::nullopt;
      flushBlankLines(/*ClosesBody=*/false);
      Out.push_back({Directive.str() + "\n"});
      ++I;
      continue;
    }
    std::optional<size_t> End = statementEnd(I);
    if (!End)
      return std::nullopt;
    // A body short enough to join onto one line is clang-format's to join.
    if (std::optional<size_t> BodyEnd = shortBodyEnd(I))
      End = BodyEnd;
    bool Control = *End == I && isUnbracedControl(Codes[I].Code);
    if (!BodyOfGroup && *End == I && isSettled(I)) {
      endGroup();
      StringRef Code = StringRef(Codes[I].Code).trim();
      flushBlankLines((Code == "}" || Code == "};") && !Scopes.empty() &&
                      Scopes.back() != Scope::Namespace);
      Out.push_back({Line.str() + "\n"});
      if (!applyBraces(I, I))
        return std::nullopt;
    } else {
      // Blank lines end a group, so only its first statement has some.
      flushBlankLines(/*ClosesBody=*/false);
      if (!addToGroup(I, *End))
        return std::nullopt;
      // A control statement is formatted with its body.
      BodyOfGroup = Control;
    }
    UnbracedBodies = Control ? UnbracedBodies + 1 : 0;
    I = *End + 1;
  }
  endGroup();
  std::optional<std::string> Result = formatGroups();
  if (Result && !EndsWithNewline && !Result->empty())
    Result->pop_back();
  return Result;
}

} // namespace

std::string formatCodeWithClangFormat(const std::string &Code,
                                      const std::string &FileName) {
  return clangFormat(Code, FileName).value_or(Code);
}

std::optional<std::string> FormatCache::find(llvm::StringRef Shape) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Groups.find(Shape);
  if (It == Groups.end())
    return std::nullopt;
  return It->second;
}

void FormatCache::add(llvm::StringRef Shape, std::string Formatted) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Groups.try_emplace(Shape, std::move(Formatted));
}

std::string formatCode(const std::string &Code, const std::string &FileName,
                       FormatCache *Cache) {
  if (auto Formatted = StatementFormatter(Code, FileName, Cache).run())
    return *Formatted;
  return formatCodeWithClangFormat(Code, FileName);
}

} // namespace tilecc::codegen
