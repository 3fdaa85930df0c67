//===- Printer.cpp - Textual TileIR ---------------------------------------===//
//
// One op per line: `%5 = add %3, %4 : tensor<i32, [1024]>  // line 8`.
// Attributes print in braces after the spelling. Nested blocks indent.
//
//===----------------------------------------------------------------------===//
#include "ir/Printer.h"
#include "llvm/Support/Format.h"

namespace tilecc::ir {

std::string valueRef(const Value &V) {
  std::string S = "%" + std::to_string(V.id());
  if (!V.name().empty())
    S += "." + V.name().str();
  return S;
}

namespace {

class Printer {
public:
  Printer(llvm::raw_ostream &OS,
          llvm::function_ref<std::string(const Value &)> Annotate)
      : OS(OS), Annotate(Annotate) {}

  void printBlock(const Block &B, unsigned Indent) {
    for (const auto &O : B.ops())
      printOp(*O, Indent);
  }

private:
  void printAttrs(const Op &O) {
    switch (O.kind()) {
    case OpKind::Const:
      if (isFloat(O.result()->type().Elem.Kind))
        OS << " " << llvm::format("%g", O.floatValue());
      else
        OS << " " << O.intValue();
      break;
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
    case OpKind::ExpandDims:
    case OpKind::Flip:
    case OpKind::Gather:
      OS << " {axis = " << O.axis() << "}";
      break;
    case OpKind::Arange:
      OS << " {start = " << O.arangeStart() << "}";
      break;
    case OpKind::For:
      if (O.numStagesHint() && O.unrollHint())
        OS << " {num_stages = " << O.numStagesHint()
           << ", unroll = " << O.unrollHint() << "}";
      else if (O.numStagesHint())
        OS << " {num_stages = " << O.numStagesHint() << "}";
      else if (O.unrollHint())
        OS << " {unroll = " << O.unrollHint() << "}";
      break;
    case OpKind::Scan:
      OS << " {axis = " << O.scanAxis() << (O.scanReverse() ? ", reverse" : "")
         << "}";
      break;
    case OpKind::DebugBarrier:
      // tilecc's own barriers say what they order.
      if (O.message().empty())
        break;
      [[fallthrough]];
    case OpKind::Print:
    case OpKind::Assert:
    case OpKind::InlineAsm:
      OS << " {message = \"";
      OS.write_escaped(O.message());
      OS << (O.kind() == OpKind::Print && O.printsHex() ? "\", hex" : "\"");
      if (O.kind() == OpKind::InlineAsm) {
        OS << ", registers = [";
        for (unsigned I = 0; I <= O.numOperands(); ++I)
          OS << (I ? ", " : "") << O.asmRegister(I);
        OS << "]";
        if (O.asmPack() > 1)
          OS << ", pack = " << O.asmPack();
      }
      OS << "}";
      break;
    case OpKind::MultipleOf:
    case OpKind::MaxContiguous: {
      const unsigned Rank = std::max<unsigned>(O.result()->type().rank(), 1);
      OS << " {values = [";
      for (unsigned D = 0; D < Rank; ++D)
        OS << (D ? ", " : "") << O.hint(D);
      OS << "]}";
      break;
    }
    case OpKind::Sort:
      OS << " {axis = " << O.sortAxis()
         << (O.sortDescending() ? ", descending" : "") << "}";
      break;
    case OpKind::Permute:
      OS << " {dims = [";
      for (unsigned D = 0; D < O.result()->type().rank(); ++D)
        OS << (D ? ", " : "") << O.permutedDim(D);
      OS << "]}";
      break;
    case OpKind::Philox:
      OS << " {word = " << O.philoxWord() << ", rounds = " << O.philoxRounds()
         << "}";
      break;
    case OpKind::Exp2Cubic:
      OS << " {eighths = " << O.cubicEighths() << "}";
      break;
    case OpKind::Cast:
      // Rounding to nearest even, the default, is left out.
      if (O.roundsTowardZero())
        OS << " {rounding = rtz}";
      break;
    case OpKind::Dot:
      // tf32, the default, is left out.
      if (O.precision() != DotPrecision::TF32)
        OS << " {precision = " << spell(O.precision()) << "}";
      break;
    case OpKind::Load:
    case OpKind::Store:
      // Plain accesses, the default, print nothing.
      if (O.cacheModifier() != CacheModifier::Normal ||
          O.evictionPolicy() != EvictionPolicy::Normal)
        OS << " {cache = " << spell(O.cacheModifier())
           << ", evict = " << spell(O.evictionPolicy()) << "}";
      break;
    default:
      if (categoryOf(O.kind()) == OpCategory::Reduce)
        OS << " {axis = " << O.axis() << "}";
      // acq_rel at gpu scope, the default, is left out.
      else if ((isAtomicRMW(O.kind()) || O.kind() == OpKind::AtomicCas) &&
               (O.memOrder() != MemOrder::AcqRel ||
                O.memScope() != MemScope::Gpu))
        OS << " {order = " << spell(O.memOrder())
           << ", scope = " << spell(O.memScope()) << "}";
      break;
    }
  }

  void printResultType(const Value &V) {
    OS << V.type().str();
    if (Annotate) {
      std::string A = Annotate(V);
      if (!A.empty())
        OS << " " << A;
    }
  }

  void printOp(const Op &O, unsigned Indent) {
    OS.indent(Indent);
    for (unsigned I = 0; I < O.numResults(); ++I)
      OS << (I ? ", " : "") << valueRef(*O.result(I));
    if (O.numResults())
      OS << " = ";
    OS << spell(O.kind());
    printAttrs(O);
    for (unsigned I = 0; I < O.numOperands(); ++I)
      OS << (I ? ", " : " ") << valueRef(*O.operand(I));
    if (O.kind() == OpKind::For) {
      const Block &Body = *O.region(0);
      OS << " -> iv " << valueRef(*Body.argument(0));
      for (unsigned I = 1; I < Body.arguments().size(); ++I)
        OS << (I == 1 ? " iter " : ", ") << valueRef(*Body.argument(I));
    }
    if (O.numResults()) {
      OS << " : ";
      for (unsigned I = 0; I < O.numResults(); ++I) {
        OS << (I ? ", " : "");
        printResultType(*O.result(I));
      }
    }
    if (O.loc().Line)
      OS << "  // line " << O.loc().Line;
    OS << "\n";
    for (unsigned R = 0; R < O.regions().size(); ++R) {
      const Block &Region = *O.region(R);
      OS.indent(Indent) << (R == 0                      ? "{"
                            : O.kind() == OpKind::While ? "} do {"
                                                        : "} else {");
      // A for loop's arguments print on its line.
      if (O.kind() != OpKind::For && !Region.arguments().empty()) {
        OS << " (";
        for (unsigned I = 0; I < Region.arguments().size(); ++I)
          OS << (I ? ", " : "") << valueRef(*Region.argument(I)) << ": "
             << Region.argument(I)->type().str();
        OS << ")";
      }
      OS << "\n";
      printBlock(Region, Indent + 2);
    }
    if (!O.regions().empty())
      OS.indent(Indent) << "}\n";
  }

  llvm::raw_ostream &OS;
  llvm::function_ref<std::string(const Value &)> Annotate;
};

} // namespace

void print(const Function &F, llvm::raw_ostream &OS,
           llvm::function_ref<std::string(const Value &)> Annotate) {
  OS << "func @" << F.Name << "(";
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Value &A = *F.Params[I].Arg;
    OS << (I ? ", " : "") << valueRef(A) << ": " << A.type().str();
  }
  OS << ") {\n";
  Printer(OS, Annotate).printBlock(F.body(), 2);
  OS << "}\n";
}

} // namespace tilecc::ir
