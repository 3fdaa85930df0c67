//===- Parser.cpp - Textual TileIR back to a Function ---------------------===//
//
// Line by line, as the printer writes: an op per line, `{` after an op with
// regions (with the region's arguments), `} else {` and `} do {` between
// regions, `}` after the last.
//
//===----------------------------------------------------------------------===//
#include "ir/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <cstdlib>

namespace tilecc::ir {

namespace {

/// S split at its top-level ", " (outside <>, [], (), {}).
llvm::SmallVector<llvm::StringRef, 4> splitList(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  S = S.trim();
  if (S.empty())
    return Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<' || C == '[' || C == '(' || C == '{')
      ++Depth;
    else if (C == '>' || C == ']' || C == ')' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Out.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Out.push_back(S.drop_front(Start).trim());
  return Out;
}

/// The text of a string the printer wrote with write_escaped, up to its
/// closing quote, which S is left after; nullopt without one.
std::optional<std::string> unescapedPrefix(llvm::StringRef &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '"') {
      S = S.drop_front(I + 1);
      return Out;
    }
    if (S[I] != '\\' || I + 1 == S.size()) {
      Out += S[I];
      continue;
    }
    const char E = S[++I];
    if (E == 'n')
      Out += '\n';
    else if (E == 't')
      Out += '\t';
    else if (E == '\\' || E == '"')
      Out += E;
    else if (I + 2 < S.size() && llvm::isDigit(E)) { // \ooo, octal
      Out += char((E - '0') * 64 + (S[I + 1] - '0') * 8 + (S[I + 2] - '0'));
      I += 2;
    } else
      return std::nullopt;
  }
  return std::nullopt;
}

/// The one of All that spell() spells S.
template <class T>
std::optional<T> named(llvm::StringRef S, llvm::ArrayRef<T> All) {
  for (T V : All)
    if (spell(V) == S)
      return V;
  return std::nullopt;
}

std::optional<ScalarKind> scalarKindNamed(llvm::StringRef S) {
  return named(S, scalarKinds());
}

std::optional<DotPrecision> precisionNamed(llvm::StringRef S) {
  return named<DotPrecision>(
      S, {DotPrecision::TF32, DotPrecision::TF32x3, DotPrecision::IEEE});
}

std::optional<MemOrder> orderNamed(llvm::StringRef S) {
  return named<MemOrder>(S, {MemOrder::Relaxed, MemOrder::Acquire,
                             MemOrder::Release, MemOrder::AcqRel});
}

std::optional<CacheModifier> cacheNamed(llvm::StringRef S) {
  using C = CacheModifier;
  return named<C>(S, {C::Normal, C::CA, C::CG, C::CS, C::LU, C::CV, C::WB,
                      C::WT, C::Volatile});
}

std::optional<EvictionPolicy> evictionNamed(llvm::StringRef S) {
  using E = EvictionPolicy;
  return named<E>(S, {E::Normal, E::First, E::Last});
}

std::optional<MemScope> scopeNamed(llvm::StringRef S) {
  return named<MemScope>(S, {MemScope::Gpu, MemScope::Cta, MemScope::Sys});
}

std::optional<ElemType> parseElem(llvm::StringRef S) {
  S = S.trim();
  if (S.consume_front("ptr<") && S.consume_back(">")) {
    const bool Const = S.consume_front("const ");
    auto K = scalarKindNamed(S.trim());
    if (!K)
      return std::nullopt;
    return ElemType{ScalarKind::Ptr, *K, Const};
  }
  if (auto K = scalarKindNamed(S); K && *K != ScalarKind::Ptr)
    return ElemType{*K};
  return std::nullopt;
}

class Parser {
public:
  Parser(llvm::StringRef Text, ParseError &Error) : Error(Error) {
    Text.split(Lines, '\n');
  }

  std::unique_ptr<Function> run() {
    auto Fn = std::make_unique<Function>();
    F = Fn.get();
    skipBlank();
    if (At >= Lines.size() || !parseHeader(Lines[At]))
      return fail("expected 'func @name(...) {'");
    ++At;
    auto End = parseBlock(F->body());
    if (!End)
      return nullptr;
    if (*End != "}")
      return fail("the function's body ends with '" + End->str() + "'");
    return Error.Message.empty() ? std::move(Fn) : nullptr;
  }

private:
  /// What a parse function returns on an error: false, or a null pointer.
  struct Failure {
    operator bool() const { return false; }
    template <class T> operator T *() const { return nullptr; }
    template <class T> operator std::unique_ptr<T>() const { return nullptr; }
  };

  /// Keeps the first error, at the current line.
  Failure fail(const std::string &Message) {
    if (Error.Message.empty())
      Error = {At + 1, 1, Message};
    return {};
  }

  void skipBlank() {
    while (At < Lines.size() &&
           (Lines[At].trim().empty() || Lines[At].trim().starts_with("//")))
      ++At;
  }

  bool parseHeader(llvm::StringRef L) {
    L = L.trim();
    if (!L.consume_front("func @") || !L.consume_back(") {"))
      return false;
    auto [Name, Params] = L.split('(');
    F->Name = Name.str();
    for (llvm::StringRef P : splitList(Params)) {
      auto [Ref, TypeText] = P.split(':');
      auto T = parseType(TypeText);
      if (!T)
        return fail("bad type '" + TypeText.trim().str() + "'");
      Value *Arg = define(Ref.trim(), F->body().addArgument(F->newValue(*T)));
      if (!Arg)
        return false;
      F->Params.push_back(
          {Arg->name().str(), T->str(), Arg, Arg->name().str()});
      F->HostParams.push_back({T->str(), Arg->name().str()});
    }
    F->Specs.assign(F->Params.size(), ParamSpec::None);
    return true;
  }

  /// Binds reference Ref (%N or %N.name) to V, naming V.
  Value *define(llvm::StringRef Ref, Value *V) {
    auto [Key, Name] = Ref.split('.');
    if (!Key.starts_with("%") || Key.size() < 2)
      return fail("expected a value, not '" + Ref.str() + "'");
    if (!Values.insert({Key, V}).second)
      return fail("'" + Key.str() + "' is defined twice");
    V->setName(Name);
    return V;
  }

  Value *use(llvm::StringRef Ref) {
    llvm::StringRef Key = Ref.split('.').first.trim();
    Value *V = Values.lookup(Key);
    if (!V)
      return fail("use of undefined value '" + Ref.str() + "'");
    return V;
  }

  /// Parses ops into B up to a line starting with '}', which it returns.
  std::optional<llvm::StringRef> parseBlock(Block &B) {
    for (skipBlank(); At < Lines.size(); skipBlank()) {
      llvm::StringRef L = Lines[At].trim();
      if (L.starts_with("}"))
        return L;
      if (!parseOp(B, L))
        return std::nullopt;
    }
    fail("unexpected end of input");
    return std::nullopt;
  }

  /// Block arguments "(%a: f32, %b: i32)" after a region's brace.
  bool parseArguments(Block &R, llvm::StringRef L) {
    L = L.trim();
    if (L.empty())
      return true;
    if (!L.consume_front("(") || !L.consume_back(")"))
      return fail("expected the region's arguments in parentheses");
    for (llvm::StringRef A : splitList(L)) {
      auto [Ref, TypeText] = A.split(':');
      auto T = parseType(TypeText);
      if (!T)
        return fail("bad type '" + TypeText.trim().str() + "'");
      if (!define(Ref.trim(), R.addArgument(F->newValue(*T))))
        return false;
    }
    return true;
  }

  bool parseAttributes(Op &O, llvm::StringRef Attrs) {
    for (llvm::StringRef A : splitList(Attrs)) {
      auto [Key, Val] = A.split('=');
      Key = Key.trim();
      Val = Val.trim();
      int64_t N = 0;
      const bool IsNumber = !Val.getAsInteger(10, N);
      if (Key == "reverse" && O.kind() == OpKind::Scan)
        O.setScan(O.scanAxis(), true);
      else if (Key == "axis" && IsNumber && O.kind() == OpKind::Scan)
        O.setScan(N, O.scanReverse());
      else if (Key == "eighths" && IsNumber && O.kind() == OpKind::Exp2Cubic) {
        if (N < 0 || N > 8)
          return fail("eighths is from 0 to 8");
        O.setCubicEighths(N);
      } else if (Key == "rounding" && Val == "rtz" && O.kind() == OpKind::Cast)
        O.setRoundsTowardZero(true);
      else if (Key == "registers" && O.kind() == OpKind::InlineAsm &&
               Val.consume_front("[") && Val.consume_back("]")) {
        unsigned I = 0;
        for (llvm::StringRef Item : splitList(Val)) {
          if (Item.size() != 1 || !llvm::StringRef("rlhfd").contains(Item[0]))
            return fail("registers are r, l, h, f or d, not '" + Item.str() +
                        "'");
          if (I == Op::AsmMaxOperands)
            return fail("inline assembly has at most " +
                        std::to_string(Op::AsmMaxOperands) + " registers");
          O.setAsmRegister(I++, Item[0]);
        }
      } else if (Key == "pack" && O.kind() == OpKind::InlineAsm && IsNumber) {
        if (N < 1 || N > 16 || !llvm::isPowerOf2_64(N))
          return fail("pack is a power of two from 1 to 16");
        O.setAsmPack(N);
      } else if (Key == "hex" && O.kind() == OpKind::Print)
        O.setPrintsHex(true);
      else if (Key == "descending" && O.kind() == OpKind::Sort)
        O.setSort(O.sortAxis(), true);
      else if (Key == "axis" && IsNumber && O.kind() == OpKind::Sort)
        O.setSort(N, O.sortDescending());
      else if (Key == "axis" && IsNumber)
        O.setAxis(N);
      else if (Key == "start" && IsNumber)
        O.setArangeStart(N);
      else if (Key == "values" && Val.consume_front("[") &&
               Val.consume_back("]")) {
        unsigned Dim = 0;
        for (llvm::StringRef Item : splitList(Val)) {
          if (Item.getAsInteger(10, N) || N <= 0 || !llvm::isPowerOf2_64(N))
            return fail("hints are powers of two, not '" + Item.str() + "'");
          O.setHint(Dim++, N);
        }
      } else if (Key == "dims" && O.kind() == OpKind::Permute &&
                 Val.consume_front("[") && Val.consume_back("]")) {
        unsigned Dim = 0;
        for (llvm::StringRef Item : splitList(Val)) {
          if (Item.getAsInteger(10, N) || N < 0 || N > 15)
            return fail("permute's dims are dimensions, not '" + Item.str() +
                        "'");
          O.setPermutedDim(Dim++, N);
        }
      } else if (Key == "word" && IsNumber && N >= 0 && N < 4)
        O.setPhilox(N, O.philoxRounds());
      else if (Key == "rounds" && IsNumber && N > 0)
        O.setPhilox(O.philoxWord(), N);
      else if (Key == "num_stages" && IsNumber && N >= 0 && N < 256)
        O.setNumStagesHint(N);
      else if (Key == "unroll" && O.kind() == OpKind::For && IsNumber &&
               N >= 0 && N < (1 << 20))
        O.setUnrollHint(N);
      else if (Key == "precision" && precisionNamed(Val))
        O.setPrecision(*precisionNamed(Val));
      else if (Key == "cache" && cacheNamed(Val))
        O.setAccessHints(*cacheNamed(Val), O.evictionPolicy());
      else if (Key == "evict" && evictionNamed(Val))
        O.setAccessHints(O.cacheModifier(), *evictionNamed(Val));
      else if (Key == "order" && orderNamed(Val))
        O.setMemory(*orderNamed(Val), O.memScope());
      else if (Key == "scope" && scopeNamed(Val))
        O.setMemory(O.memOrder(), *scopeNamed(Val));
      else
        return fail("unknown attribute '" + A.str() + "' of " +
                    spell(O.kind()).str());
    }
    return true;
  }

  bool parseOp(Block &B, llvm::StringRef L) {
    SourceLoc Loc;
    if (size_t C = L.find("  // line "); C != llvm::StringRef::npos) {
      L.drop_front(C + 10).trim().getAsInteger(10, Loc.Line);
      L = L.take_front(C);
    }
    // Results, then the spelling.
    llvm::SmallVector<llvm::StringRef, 2> Results;
    if (L.starts_with("%")) {
      auto [Refs, Rest] = L.split(" = ");
      Results = splitList(Refs);
      L = Rest;
    }
    auto [Spelling, Rest] = L.split(' ');
    auto Kind = opKindFromSpelling(Spelling);
    if (!Kind)
      return fail("unknown op '" + Spelling.str() + "'");
    auto NewOp = std::make_unique<Op>(*Kind, Loc);
    Op &O = *NewOp;
    if (isAtomicRMW(*Kind) || *Kind == OpKind::AtomicCas)
      O.setMemory(MemOrder::AcqRel, MemScope::Gpu);
    Rest = Rest.trim();
    llvm::StringRef Constant;
    if (*Kind == OpKind::Const)
      std::tie(Constant, Rest) = Rest.split(' ');
    if (Rest.consume_front("{message = \"")) {
      auto Text = unescapedPrefix(Rest);
      if (!Text)
        return fail("expected the message's closing quote");
      O.setMessage(*Text);
      if (Rest.consume_front(",")) {
        const size_t Close = Rest.find('}');
        if (!parseAttributes(O, Rest.take_front(Close)))
          return false;
        Rest = Rest.drop_front(Close);
      }
      if (!Rest.consume_front("}"))
        return fail("expected '}' after the message");
      Rest = Rest.trim();
    } else if (Rest.starts_with("{")) {
      size_t Close = Rest.find('}');
      if (!parseAttributes(O, Rest.slice(1, Close)))
        return false;
      Rest = Rest.drop_front(Close + 1).trim();
    }
    auto [OperandsAndIv, Types] = Rest.split(" : ");
    if (Rest.starts_with(": "))
      OperandsAndIv = "", Types = Rest.drop_front(2);
    auto [Operands, Iv] = OperandsAndIv.split(" -> iv ");
    for (llvm::StringRef Ref : splitList(Operands)) {
      Value *V = use(Ref);
      if (!V)
        return false;
      O.addOperand(V);
    }
    auto TypeList = splitList(Types);
    if (TypeList.size() != Results.size())
      return fail(std::to_string(Results.size()) + " results but " +
                  std::to_string(TypeList.size()) + " types");
    for (unsigned I = 0; I < Results.size(); ++I) {
      auto T = parseType(TypeList[I]);
      if (!T)
        return fail("bad type '" + TypeList[I].str() + "'");
      if (!define(Results[I], O.addResult(F->newValue(*T))))
        return false;
    }
    if (*Kind == OpKind::Const && !setConstant(O, Constant))
      return false;
    Op *Appended = B.append(std::move(NewOp));
    ++At;
    if (At < Lines.size() && Lines[At].trim().starts_with("{"))
      return parseRegions(*Appended, Iv);
    return true;
  }

  bool setConstant(Op &O, llvm::StringRef Text) {
    const ElemType &E = O.result()->type().Elem;
    if (isFloat(E.Kind)) {
      double D = 0;
      if (Text.getAsDouble(D))
        return fail("bad constant '" + Text.str() + "'");
      O.setFloatValue(D);
      return true;
    }
    int64_t N = 0;
    if (Text.getAsInteger(10, N))
      return fail("bad constant '" + Text.str() + "'");
    O.setIntValue(N);
    return true;
  }

  /// The regions of O, its line's `-> iv %i iter %a, ...` naming a for
  /// loop's.
  bool parseRegions(Op &O, llvm::StringRef Iv) {
    for (llvm::StringRef L = Lines[At].trim();; L = Lines[At].trim()) {
      Block &R = *O.addRegion();
      L = L.drop_front(L.find('{') + 1);
      if (O.kind() == OpKind::For && O.regions().size() == 1) {
        auto [IvRef, Iter] = Iv.split(" iter ");
        if (IvRef.trim().empty() || O.numOperands() < 3)
          return fail("a for loop needs bounds, a step and '-> iv'");
        if (!define(IvRef.trim(),
                    R.addArgument(F->newValue(O.operand(0)->type()))))
          return false;
        auto Carried = splitList(Iter);
        if (Carried.size() != O.numResults())
          return fail("a for loop carries one value per result");
        for (unsigned I = 0; I < Carried.size(); ++I)
          if (!define(Carried[I],
                      R.addArgument(F->newValue(O.result(I)->type()))))
            return false;
      } else if (!parseArguments(R, L)) {
        return false;
      }
      ++At;
      auto End = parseBlock(R);
      if (!End)
        return false;
      ++At;
      if (*End == "}")
        return true;
      if (!End->starts_with("} else {") && !End->starts_with("} do {"))
        return fail("expected '}', '} else {' or '} do {'");
      --At;
    }
  }

  ParseError &Error;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  unsigned At = 0;
  Function *F = nullptr;
  llvm::StringMap<Value *> Values;
};

} // namespace

std::optional<Type> parseType(llvm::StringRef S) {
  S = S.trim();
  if (!S.consume_front("tensor<")) {
    auto E = parseElem(S);
    return E ? std::optional<Type>(Type::scalar(*E)) : std::nullopt;
  }
  if (!S.consume_back("]>"))
    return std::nullopt;
  auto [ElemText, ShapeText] = S.rsplit(", [");
  auto E = parseElem(ElemText);
  if (!E)
    return std::nullopt;
  llvm::SmallVector<int64_t, 4> Shape;
  for (llvm::StringRef D : splitList(ShapeText)) {
    int64_t N = 0;
    if (D.getAsInteger(10, N) || N <= 0)
      return std::nullopt;
    Shape.push_back(N);
  }
  return Type::tensor(*E, Shape);
}

std::unique_ptr<Function> parseFunction(llvm::StringRef Text,
                                        ParseError &Error) {
  return Parser(Text, Error).run();
}

} // namespace tilecc::ir
