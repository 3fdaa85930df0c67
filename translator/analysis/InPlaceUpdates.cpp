//===- InPlaceUpdates.cpp - Arguments a launch changes as it reads --------===//
#include "analysis/InPlaceUpdates.h"
#include "analysis/PointerRoots.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

std::vector<std::string> inPlaceUpdates(const Function &F) {
  PointerRoots Roots(F);
  llvm::SmallPtrSet<const Value *, 8> Read, Written, Updated;
  bool WritesUnknown = false;
  walk(F.body(), [&](const Op &O) {
    const bool Atomic = isAtomicRMW(O.kind()) || O.kind() == OpKind::AtomicCas;
    if (O.kind() != OpKind::Load && O.kind() != OpKind::Store && !Atomic)
      return;
    const RootSet Set = Roots.of(O.operand(0));
    if (!Set) {
      WritesUnknown |= O.kind() != OpKind::Load;
      return;
    }
    for (const Value *Root : *Set)
      (O.kind() == OpKind::Load    ? Read
       : O.kind() == OpKind::Store ? Written
                                   : Updated)
          .insert(Root);
  });
  std::vector<std::string> Names;
  for (const Param &P : F.Params)
    if (Updated.count(P.Arg) || (Read.count(P.Arg) && Written.count(P.Arg))) {
      std::string Name = P.Host.substr(0, P.Host.find_first_of(".["));
      if (!llvm::is_contained(Names, Name))
        Names.push_back(std::move(Name));
    }
  if (WritesUnknown)
    Names.push_back("memory a pointer read from memory points to");
  return Names;
}

} // namespace tilecc::analysis
