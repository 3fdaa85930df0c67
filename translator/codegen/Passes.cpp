//===- Passes.cpp - Passes by name, to test one at a time -----------------===//
#include "codegen/Passes.h"
#include "analysis/AxisInfo.h"
#include "analysis/ShapeLayouts.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transforms/CarriedScalars.h"
#include "transforms/DeadCode.h"
#include "transforms/GlobalMemoryOrder.h"
#include "transforms/PriorGridWait.h"
#include "transforms/RegisterPrefetch.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

namespace {

/// What the passes run so far leave to print.
struct PassState {
  Function &F;
  const PassOptions &Opts;
  std::optional<LayoutMap> Layouts;
  bool AxisInfo = false;
  std::string Error;
};

struct NamedPass {
  const char *Name, *Description;
  bool (*Run)(PassState &);
};

const NamedPass Passes[] = {
    {"verify", "checks the IR (ir/Verifier)",
     [](PassState &S) {
       std::vector<VerifierError> Errors = verify(S.F);
       if (!Errors.empty())
         S.Error = "line " + std::to_string(Errors.front().Loc.Line) + ": " +
                   Errors.front().Message;
       return Errors.empty();
     }},
    {"carried-scalars",
     "computes loop-carried scalars that stay or advance by a loop-invariant "
     "amount from the induction variable",
     [](PassState &S) {
       transforms::simplifyCarriedScalars(S.F);
       return true;
     }},
    {"dead-code", "erases ops whose results nothing uses",
     [](PassState &S) {
       transforms::eraseDeadCode(S.F);
       return true;
     }},
    {"register-prefetch",
     "loads dot operands an iteration ahead into registers the loop carries "
     "(targets without cp.async, as for num_stages = 2)",
     [](PassState &S) {
       transforms::prefetchIntoRegisters(S.F, 2);
       return true;
     }},
    {"streaming-prefetch",
     "loads every tile of loops that only stream memory an iteration ahead "
     "into registers the loop carries (tile::config::register_prefetch)",
     [](PassState &S) {
       transforms::prefetchStreamingLoads(S.F, S.Opts.NumWarps *
                                                   S.Opts.Target.WarpSize);
       return true;
     }},
    {"prior-grid-wait",
     "waits for the prior grid at entry unless the kernel says where",
     [](PassState &S) {
       transforms::waitForPriorGridAtEntry(S.F);
       return true;
     }},
    {"axis-info", "annotates each tile with its axis info",
     [](PassState &S) {
       S.AxisInfo = true;
       return true;
     }},
    {"layouts",
     "assigns layouts (inserting convert_layout ops) and annotates each tile "
     "with its layout and axis info",
     [](PassState &S) {
       S.Layouts = assignLayouts(S.F, AxisInfoAnalysis(S.F, S.F.Specs),
                                 S.Opts.NumWarps, S.Opts.Target);
       return true;
     }},
    {"global-memory-order",
     "puts barriers where threads could reorder accesses to the same global "
     "memory (after layouts)",
     [](PassState &S) {
       if (!S.Layouts) {
         S.Error = "run the layouts pass first";
         return false;
       }
       transforms::orderGlobalAccesses(S.F, *S.Layouts);
       return true;
     }},
};

} // namespace

void printWithLayouts(const Function &F, const LayoutMap &LM,
                      llvm::ArrayRef<ParamSpec> Specs, llvm::raw_ostream &OS) {
  // Layout assignment adds convert_layout ops: their axis info too.
  AxisInfoAnalysis AI(F, Specs);
  print(F, OS, [&](const Value &V) -> std::string {
    if (V.type().isScalar())
      return "";
    std::string Text = LM.get(&V).str() + " {" + AI.get(&V).str() + "}";
    // Whether a shape op moves its elements, and how.
    const Op *D = V.definingOp();
    if (!D)
      return Text;
    if (movesThroughSharedMemory(*D, LM))
      Text += " through shared memory";
    else if (isRearrangement(D->kind()))
      Text += " relabeled";
    else if (D->kind() == OpKind::Sort)
      Text += " in a warp";
    return Text;
  });
}

std::optional<std::string> runPasses(Function &F,
                                     llvm::ArrayRef<std::string> Names,
                                     const PassOptions &Opts,
                                     std::string &Error) {
  PassState State{F, Opts};
  for (const std::string &Name : Names) {
    const NamedPass *P = llvm::find_if(
        Passes, [&](const NamedPass &P) { return Name == P.Name; });
    if (P == std::end(Passes)) {
      Error = "unknown pass '" + Name + "'; passes:\n" + describePasses();
      return std::nullopt;
    }
    if (!P->Run(State)) {
      Error = Name + ": " + State.Error;
      return std::nullopt;
    }
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (State.Layouts) {
    printWithLayouts(F, *State.Layouts, F.Specs, OS);
  } else if (State.AxisInfo) {
    AxisInfoAnalysis AI(F, F.Specs);
    print(F, OS, [&](const Value &V) -> std::string {
      return V.type().isScalar() ? "" : "{" + AI.get(&V).str() + "}";
    });
  } else {
    print(F, OS);
  }
  return S;
}

std::string describePasses() {
  std::string S;
  for (const NamedPass &P : Passes)
    S += "  " + std::string(P.Name) + ": " + P.Description + "\n";
  return S;
}

} // namespace tilecc::codegen
