//===- Lowering.cpp - Instantiated kernel bodies to TileIR ----------------===//
//
// Walks the Clang AST of one instantiated kernel and builds TileIR. Local
// variables are tracked in an environment (VarDecl -> current SSA value);
// `if` and `for` turn the variables they assign into op results and
// loop-carried values. Calls to tile:: operations are recognised only by the
// TILE_OP annotation on the callee; other callees with a visible body (helper
// functions, lambdas) are inlined. Types of tile results come from Clang,
// which resolved them against tile/tile.hpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/Lowering.h"
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"

namespace tilecc::frontend {
namespace lowering {

bool KernelLowering::lowerKernel(const FunctionDecl &K) {
  for (const ParmVarDecl *P : K.parameters()) {
    // The launch wrapper appends these parameters to the kernel's.
    if (P->getName() == "stream" || P->getName() == "config") {
      error(P->getLocation(), "the parameter name '" + P->getName().str() +
                                  "' is reserved by the launch wrapper");
      return false;
    }
    if (P->getName().empty()) {
      error(P->getLocation(), "kernel parameters must be named: the launch "
                              "wrapper passes them by name");
      return false;
    }
    if (tileAggregate(P->getType())) {
      if (!lowerDescriptorParam(P))
        return false;
      continue;
    }
    auto T = lowerType(P->getType(), P->getLocation());
    if (!T)
      return false;
    if (!T->isScalar()) {
      error(P->getLocation(), "kernel parameters must be scalars or "
                              "pointers, not tiles");
      return false;
    }
    Value *Arg = F.body().addArgument(F.newValue(*T));
    Arg->setName(P->getName());
    const std::string Name = P->getName().str(),
                      Cxx = hostTypeSpelling(P->getType(), Ctx);
    F.Params.push_back({Name, Cxx, Arg, Name});
    F.HostParams.push_back({Cxx, Name});
    Env[P] = Arg;
  }
  F.Specs.assign(F.Params.size(), ParamSpec::None);
  InlineStack.push_back(&K);
  const auto *Body = dyn_cast_or_null<CompoundStmt>(K.getBody());
  if (!Body) {
    error(K.getLocation(), "kernel has no body");
    return false;
  }
  lowerBody(K, /*IsKernel=*/true);
  return !Failed;
}

/// A tensor descriptor parameter (Triton's host-made TensorDescriptor): the
/// wrapper takes a tile::host_tensor_descriptor of its element type and rank
/// and passes the kernel its base, shape and strides but the last, which
/// is 1 (the wrapper checks it, with the tensor's 32-bit reach).
bool KernelLowering::lowerDescriptorParam(const ParmVarDecl *P) {
  const ClassTemplateSpecializationDecl *TS = tileAggregate(P->getType());
  if (!isInTileNamespace(TS, "tensor_descriptor")) {
    error(P->getLocation(), "a block_ptr cannot be a kernel parameter: make "
                            "it in the kernel with tile::make_block_ptr");
    return false;
  }
  if (P->getType()->isReferenceType()) {
    error(P->getLocation(), "a tensor descriptor parameter is taken by value");
    return false;
  }
  const std::string Name = P->getName().str();
  const unsigned Rank = aggregateBlock(TS).size();
  llvm::SmallVector<QualType, 8> Leaves;
  appendLeafTypes(P->getType(), Leaves);
  Values V;
  for (auto [I, Leaf] : llvm::enumerate(Leaves)) {
    auto T = lowerType(Leaf, P->getLocation());
    if (!T)
      return false;
    if (I == 2 * Rank) { // the last stride
      V.push_back(B.intConst(1));
      continue;
    }
    const std::string Field = I == 0 ? "base"
                                     : (I <= Rank ? "shape[" : "strides[") +
                                           std::to_string((I - 1) % Rank) + "]";
    const std::string LeafName = Name + "_" +
                                 (I == 0 ? "base"
                                         : (I <= Rank ? "shape" : "stride") +
                                               std::to_string((I - 1) % Rank));
    Value *Arg = F.body().addArgument(F.newValue(*T));
    Arg->setName(LeafName);
    F.Params.push_back(
        {LeafName, hostTypeSpelling(Leaf, Ctx), Arg, Name + "." + Field});
    V.push_back(Arg);
  }
  const std::string Elem =
      hostTypeSpelling(TS->getTemplateArgs()[0].getAsType(), Ctx);
  F.HostParams.push_back({"tile::host_tensor_descriptor<" + Elem + ", " +
                              std::to_string(Rank) + ">",
                          Name});
  F.HostChecks.push_back("tile::detail::descriptor_fits(" + Name + ")");
  bindAggregate(P, V);
  return true;
}

void KernelLowering::error(SourceLocation L, llvm::StringRef Msg) {
  Failed = true;
  SourceLocation At = userLoc(L);
  if (Reported.insert({At.getRawEncoding(), Msg.str()}).second)
    Diags.Report(At, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << Msg;
}

/// Errors inside tile.hpp or a helper in another file are reported where
/// the kernel called into them.
SourceLocation KernelLowering::userLoc(SourceLocation L) {
  L = SM.getExpansionLoc(L);
  if (L.isValid() && isUserFile(L))
    return L;
  return CallSite.isValid() ? CallSite : L;
}

void KernelLowering::setLoc(SourceLocation L) {
  SourceLocation U = SM.getExpansionLoc(L);
  if (U.isInvalid() || !isUserFile(U))
    return;
  B.setLoc({SM.getExpansionLineNumber(U), SM.getExpansionColumnNumber(U)});
}

/// The translation unit is the user's file (plus instantiation requests
/// appended to it); locations elsewhere are in headers.
bool KernelLowering::isUserFile(SourceLocation L) { return SM.isInMainFile(L); }

std::optional<ScalarKind> KernelLowering::scalarKind(QualType QT) {
  QT = QT.getCanonicalType().getUnqualifiedType();
  if (const auto *BT = QT->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Bool:
      return ScalarKind::I1;
    case BuiltinType::Char_S:
    case BuiltinType::SChar:
      return ScalarKind::I8;
    case BuiltinType::Char_U:
    case BuiltinType::UChar:
      return ScalarKind::U8;
    case BuiltinType::Short:
      return ScalarKind::I16;
    case BuiltinType::UShort:
      return ScalarKind::U16;
    case BuiltinType::Int:
      return ScalarKind::I32;
    case BuiltinType::UInt:
      return ScalarKind::U32;
    case BuiltinType::Long:
    case BuiltinType::LongLong:
      return ScalarKind::I64;
    case BuiltinType::ULong:
    case BuiltinType::ULongLong:
      return ScalarKind::U64;
    case BuiltinType::Float:
      return ScalarKind::F32;
    case BuiltinType::Double:
      return ScalarKind::F64;
    default:
      return std::nullopt;
    }
  }
  if (const auto *RD = QT->getAsCXXRecordDecl())
    for (ScalarKind K : scalarKinds())
      if (!tileTypeName(K).empty() && isInTileNamespace(RD, tileTypeName(K)))
        return K;
  return std::nullopt;
}

std::optional<ElemType> KernelLowering::elemType(QualType QT) {
  QT = QT.getNonReferenceType();
  if (const auto *PT = QT.getCanonicalType()->getAs<PointerType>()) {
    auto K = scalarKind(PT->getPointeeType());
    if (!K)
      return std::nullopt;
    return ElemType{ScalarKind::Ptr, *K,
                    PT->getPointeeType().isConstQualified()};
  }
  if (auto K = scalarKind(QT))
    return ElemType{*K};
  return std::nullopt;
}

std::optional<Type> KernelLowering::lowerType(QualType QT, SourceLocation L) {
  QT = QT.getNonReferenceType();
  if (auto E = elemType(QT))
    return Type::scalar(*E);
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          QT.getCanonicalType()->getAsCXXRecordDecl());
      Spec && isInTileNamespace(Spec->getSpecializedTemplate(), "tensor")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    auto E = elemType(Args[0].getAsType());
    if (!E) {
      error(L, "tile element type '" + Args[0].getAsType().getAsString() +
                   "' is not supported");
      return std::nullopt;
    }
    llvm::SmallVector<int64_t, 2> Shape;
    for (const TemplateArgument &D : Args[1].pack_elements())
      Shape.push_back(D.getAsIntegral().getExtValue());
    return Type::tensor(*E, Shape);
  }
  error(L, "type '" + QT.getAsString() +
               "' cannot be used in a tile kernel (use arithmetic scalars, "
               "pointers to them, tile::half, tile::bfloat16, "
               "tile::float8_e4m3, tile::float8_e5m2 or tile::tensor)");
  return std::nullopt;
}

} // namespace lowering

std::unique_ptr<ir::Function> lowerKernel(clang::ASTContext &Ctx,
                                          const clang::FunctionDecl &Kernel,
                                          ReportedErrors &Reported) {
  auto F = std::make_unique<ir::Function>();
  F->Name = Kernel.getNameAsString();
  lowering::KernelLowering L(Ctx, *F, Reported);
  if (!L.lowerKernel(Kernel))
    return nullptr;
  return F;
}

} // namespace tilecc::frontend
