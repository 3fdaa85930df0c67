//===- Frontend.cpp - Discovery, instantiation and lowering ---------------===//
#include "frontend/Frontend.h"
#include "frontend/Lowering.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace clang;

namespace tilecc::frontend {

namespace {

/// The string argument of an `annotate("Tag", "arg")` attribute on D, if any.
std::optional<std::string> annotation(const Decl *D, llvm::StringRef Tag) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
    if (A->getAnnotation() != Tag)
      continue;
    if (A->args_size() == 0)
      return std::string();
    if (const auto *SL =
            dyn_cast<StringLiteral>(A->args_begin()[0]->IgnoreParenImpCasts()))
      return SL->getString().str();
  }
  return std::nullopt;
}

void report(DiagnosticsEngine &Diags, SourceLocation L, const llvm::Twine &M) {
  Diags.Report(L, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
      << M.str();
}

/// What the first pass learns about one kernel.
struct Found {
  const FunctionDecl *Kernel = nullptr;
  const FunctionTemplateDecl *Template = nullptr;
  std::string GridName;   // qualified name of the grid rule
  std::string SelectName; // of the TILE_SELECT rule, if any
  std::vector<Config> Configs;
  bool HasConfigs = false;
};

//===--- Pass 1: find kernels, configurations and grid rules
//---------------===//

class Discovery : public RecursiveASTVisitor<Discovery> {
public:
  Discovery(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}

  llvm::StringMap<Found> Kernels;
  std::vector<std::string> Order; // declaration order, for stable output
  llvm::SmallVector<std::pair<std::string, const VarDecl *>, 4> ConfigVars;
  llvm::SmallVector<std::pair<std::string, const FunctionDecl *>, 4> Grids;
  llvm::SmallVector<std::pair<std::string, const FunctionDecl *>, 4> Selects;

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isTemplateInstantiation() || !FD->isThisDeclarationADefinition())
      return true;
    if (annotation(FD, "tile.kernel")) {
      std::string Name = FD->getNameAsString();
      if (!Kernels.count(Name))
        Order.push_back(Name);
      Found &K = Kernels[Name];
      K.Kernel = FD;
      K.Template = FD->getDescribedFunctionTemplate();
    }
    if (auto G = annotation(FD, "tile.grid"))
      Grids.push_back({*G, FD});
    if (auto S = annotation(FD, "tile.select"))
      Selects.push_back({*S, FD});
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (auto K = annotation(VD, "tile.configs"))
      ConfigVars.push_back({*K, VD});
    return true;
  }

  /// Connects configurations and grid rules to kernels; false after errors.
  bool resolve() {
    bool Ok = true;
    for (auto &[Name, VD] : ConfigVars) {
      auto It = Kernels.find(Name);
      if (It == Kernels.end()) {
        report(Diags, VD->getLocation(),
               "TILE_CONFIGS names '" + Name + "', which is not a TILE_KERNEL");
        Ok = false;
        continue;
      }
      Ok &= readConfigs(VD, It->second);
    }
    // Grid and select rules name their kernel.
    auto Attach = [&](auto &Rules, const char *Macro,
                      std::string Found::*Field) {
      for (auto &[Name, FD] : Rules) {
        auto It = Kernels.find(Name);
        if (It == Kernels.end()) {
          report(Diags, FD->getLocation(),
                 llvm::Twine(Macro) + " names '" + Name +
                     "', which is not a TILE_KERNEL");
          Ok = false;
          continue;
        }
        It->second.*Field = FD->getQualifiedNameAsString();
      }
    };
    Attach(Grids, "TILE_GRID", &Found::GridName);
    Attach(Selects, "TILE_SELECT", &Found::SelectName);
    for (const std::string &Name : Order) {
      Found &K = Kernels[Name];
      SourceLocation L = K.Kernel->getLocation();
      if (!K.HasConfigs) {
        report(Diags, L,
               "kernel '" + Name +
                   "' has no configurations; declare them with "
                   "TILE_CONFIGS(" +
                   Name + ", tile::config{...})");
        Ok = false;
      }
      if (K.GridName.empty()) {
        report(Diags, L,
               "kernel '" + Name +
                   "' has no grid rule; mark a function returning "
                   "tile::grid with TILE_GRID(" +
                   Name + ")");
        Ok = false;
      }
      Ok &= checkTemplateParams(K);
    }
    return Ok;
  }

private:
  bool checkTemplateParams(Found &K) {
    if (!K.Template)
      return true;
    bool Ok = true;
    for (const NamedDecl *P : *K.Template->getTemplateParameters()) {
      const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(P);
      if (!NT || NT->isParameterPack() ||
          !NT->getType()->isIntegralOrEnumerationType()) {
        report(Diags, P->getLocation(),
               "meta-parameters of a tile kernel must be integer or bool "
               "template parameters");
        Ok = false;
      }
    }
    for (const Config &C : K.Configs)
      if (C.NumWarps < 1 || C.NumWarps > 32 ||
          (C.NumWarps & (C.NumWarps - 1))) {
        report(Diags, K.Kernel->getLocation(),
               "num_warps must be a power of two between 1 and 32, got " +
                   llvm::Twine(C.NumWarps));
        Ok = false;
      } else if (C.MinProgramsPerSM < 1) {
        // Its upper bound depends on the target's warp size: generate()
        // checks it.
        report(Diags, K.Kernel->getLocation(),
               "min_programs_per_sm must be at least 1, got " +
                   llvm::Twine(C.MinProgramsPerSM));
        Ok = false;
      } else if (C.WarpSpecialize && C.NumWarps % 4 != 0) {
        // The producer is the warpgroup after the consumers', and setmaxnreg
        // moves the registers of whole warpgroups.
        report(Diags, K.Kernel->getLocation(),
               "warp_specialize needs whole consumer warpgroups (num_warps a "
               "multiple of 4), got num_warps = " +
                   llvm::Twine(C.NumWarps));
        Ok = false;
      } else if (C.PingPong && (!C.WarpSpecialize || C.NumWarps < 8)) {
        // Turns are taken by consumer warpgroups, beside a producer.
        report(Diags, K.Kernel->getLocation(),
               "pingpong needs warp_specialize and two consumer warpgroups "
               "(num_warps 8 or more), got " +
                   llvm::Twine(C.WarpSpecialize ? "" : "no warp_specialize, ") +
                   llvm::Twine(C.NumWarps) + " warps");
        Ok = false;
      }
    return Ok;
  }

  bool readConfigs(const VarDecl *VD, Found &K) {
    K.HasConfigs = true;
    const APValue *V = VD->evaluateValue();
    if (!V || !V->isArray()) {
      report(Diags, VD->getLocation(),
             "the configurations must be a constant expression");
      return false;
    }
    const auto *Elements =
        dyn_cast_or_null<InitListExpr>(VD->getInit()->IgnoreImplicit());
    const SourceManager &SM = Ctx.getSourceManager();
    for (unsigned I = 0; I < V->getArraySize(); ++I) {
      const APValue &S = V->getArrayInitializedElt(I);
      if (!S.isStruct() || S.getStructNumFields() < 3) {
        report(Diags, VD->getLocation(), "expected tile::config values");
        return false;
      }
      Config C;
      const APValue &Meta = S.getStructField(0);
      unsigned NumMeta =
          K.Template ? K.Template->getTemplateParameters()->size() : 0;
      for (unsigned M = 0; M < NumMeta && M < Meta.getArraySize(); ++M)
        C.Meta.push_back(Meta.getArrayInitializedElt(M).getInt().getExtValue());
      C.NumWarps = S.getStructField(1).getInt().getExtValue();
      C.NumStages = S.getStructField(2).getInt().getExtValue();
      if (S.getStructNumFields() > 3)
        C.MinProgramsPerSM = S.getStructField(3).getInt().getExtValue();
      if (S.getStructNumFields() > 4)
        C.WarpSpecialize = S.getStructField(4).getInt().getBoolValue();
      if (S.getStructNumFields() > 5)
        C.PingPong = S.getStructField(5).getInt().getBoolValue();
      if (S.getStructNumFields() > 6)
        C.LaunchPdl = S.getStructField(6).getInt().getBoolValue();
      if (S.getStructNumFields() > 7)
        C.Assume = static_cast<ir::Assumption>(
            S.getStructField(7).getInt().getExtValue());
      SourceLocation At = Elements && I < Elements->getNumInits()
                              ? Elements->getInit(I)->getBeginLoc()
                              : VD->getLocation();
      C.Line = std::max(1u, SM.getPresumedLineNumber(SM.getFileLoc(At)));
      K.Configs.push_back(std::move(C));
    }
    return true;
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
};

/// What the second pass needs of a kernel found by the first.
struct KernelSpelling {
  std::string QualifiedName;
  std::string GridName;
  std::string SelectName;
  std::vector<std::string> MetaNames;
  std::vector<bool> MetaIsBool;
  std::vector<Config> Configs;
  ir::SourceLoc Loc;
};

/// Builds the second translation unit: the user's file followed by one
/// address-taking declaration per kernel and grid rule instance, which makes
/// Clang instantiate them. It keeps the user's file name, so diagnostics and
/// source locations name the user's file and lines; each instance's lines
/// are those of its configuration, so that an error in an instantiation
/// (a failed static_assert, say) notes the configuration that asked for it.
std::string instancesSource(llvm::StringRef UserSource,
                            llvm::StringRef FileName,
                            const std::vector<KernelSpelling> &Kernels) {
  std::string S = UserSource.str();
  llvm::raw_string_ostream OS(S);
  std::string Quoted;
  for (char Ch : FileName) {
    if (Ch == '\\' || Ch == '"')
      Quoted += '\\';
    Quoted += Ch;
  }
  OS << "\n// Instances tilecc translates.\n";
  for (unsigned K = 0; K < Kernels.size(); ++K) {
    const KernelSpelling &F = Kernels[K];
    for (unsigned C = 0; C < F.Configs.size(); ++C) {
      OS << "#line " << F.Configs[C].Line << " \"" << Quoted << "\"\n";
      std::string Args;
      if (!F.MetaNames.empty()) {
        Args = "<";
        for (unsigned M = 0; M < F.MetaNames.size(); ++M) {
          long long V = M < F.Configs[C].Meta.size() ? F.Configs[C].Meta[M] : 0;
          Args += M ? ", " : "";
          Args += F.MetaIsBool[M] ? (V ? "true" : "false") : std::to_string(V);
        }
        Args += ">";
      }
      OS << "[[maybe_unused]] static auto const tilecc_kernel_" << K << "_" << C
         << " = &::" << F.QualifiedName << Args << ";\n";
      OS << "[[maybe_unused]] static auto const tilecc_grid_" << K << "_" << C
         << " = &::" << F.GridName << Args << ";\n";
      if (!F.SelectName.empty())
        OS << "[[maybe_unused]] static auto const tilecc_select_" << K << "_"
           << C << " = &::" << F.SelectName << Args << ";\n";
    }
  }
  return S;
}

/// The function a `tilecc_kernel_K_C` / `tilecc_grid_K_C` variable points to.
const FunctionDecl *pointee(const VarDecl *VD) {
  const Expr *E = VD->getInit()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR ? dyn_cast<FunctionDecl>(DR->getDecl()) : nullptr;
}

/// Whether the launch wrapper, which sees only the tile and std headers and
/// the rule's own body, can name D.
bool wrapperCanName(const NamedDecl &D) {
  if (const auto *VD = dyn_cast<VarDecl>(&D); VD && VD->isLocalVarDeclOrParm())
    return true;
  if (isa<BindingDecl>(D))
    return true;
  if (const auto *FD = dyn_cast<FunctionDecl>(&D); FD && FD->getBuiltinID())
    return true;
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *C = D.getDeclContext(); C; C = C->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(C))
      Outermost = N;
  return Outermost &&
         (Outermost->getName() == "tile" || Outermost->getName() == "std");
}

/// Reports each name in a host-side rule (grid, select) that the launch
/// wrapper it is printed into cannot see; false if there is one. Reported
/// holds the places already reported, as every configuration repeats them.
bool checkHostFunction(const FunctionDecl &G, llvm::StringRef Rule,
                       llvm::DenseSet<unsigned> &Reported) {
  struct Checker : RecursiveASTVisitor<Checker> {
    const FunctionDecl &G;
    llvm::StringRef Rule;
    llvm::DenseSet<unsigned> &Reported;
    bool Ok = true;
    Checker(const FunctionDecl &G, llvm::StringRef Rule,
            llvm::DenseSet<unsigned> &Reported)
        : G(G), Rule(Rule), Reported(Reported) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const NamedDecl &D = *E->getDecl();
      if (wrapperCanName(D))
        return true;
      Ok = false;
      if (Reported.insert(E->getLocation().getRawEncoding()).second)
        report(G.getASTContext().getDiagnostics(), E->getLocation(),
               Rule + " '" + G.getName() + "' uses '" + D.getName() +
                   "', which its launch wrapper cannot see: a " + Rule +
                   " may use only its own parameters and variables and "
                   "what tile:: and std:: declare");
      return true;
    }
  } C(G, Rule, Reported);
  C.TraverseStmt(G.getBody());
  return C.Ok;
}

/// Prints an instantiated host-side rule (grid, select) for the launch
/// wrapper: its parameter list and its body.
void printHostFunction(const FunctionDecl &G, std::string &ParamsOut,
                       std::string &BodyOut) {
  PrintingPolicy Policy(G.getASTContext().getLangOpts());
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = true;
  llvm::raw_string_ostream Params(ParamsOut);
  for (unsigned I = 0; I < G.getNumParams(); ++I) {
    const ParmVarDecl *P = G.getParamDecl(I);
    Params << (I ? ", " : "")
           << (P->getName().empty() ? "" : "[[maybe_unused]] ")
           << P->getType().getAsString(Policy);
    if (!P->getName().empty())
      Params << " " << P->getName();
  }
  llvm::raw_string_ostream Body(BodyOut);
  G.getBody()->printPretty(Body, nullptr, Policy, 0);
  while (!BodyOut.empty() && BodyOut.back() == '\n')
    BodyOut.pop_back();
}

//===--- The two passes ---------------------------------------------------===//

/// Runs a function on the AST once Clang has parsed (and instantiated) the
/// whole translation unit.
class CallbackAction : public ASTFrontendAction {
public:
  explicit CallbackAction(std::function<void(ASTContext &)> Fn)
      : Fn(std::move(Fn)) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    struct Consumer : ASTConsumer {
      std::function<void(ASTContext &)> &Fn;
      explicit Consumer(std::function<void(ASTContext &)> &Fn) : Fn(Fn) {}
      void HandleTranslationUnit(ASTContext &Ctx) override { Fn(Ctx); }
    };
    return std::make_unique<Consumer>(Fn);
  }

private:
  std::function<void(ASTContext &)> Fn;
};

/// Pass 1: the kernels, their configurations and grid rules.
bool discover(ASTContext &Ctx, const FrontendOptions &Opts,
              std::vector<KernelSpelling> &Out) {
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  Discovery D(Ctx);
  D.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (!D.resolve())
    return false;
  SourceLocation Start = Ctx.getSourceManager().getLocForStartOfFile(
      Ctx.getSourceManager().getMainFileID());
  for (const std::string &Name : Opts.OnlyKernels)
    if (!D.Kernels.count(Name)) {
      report(Ctx.getDiagnostics(), Start,
             "no TILE_KERNEL named '" + Name + "' in this file");
      return false;
    }
  if (D.Order.empty()) {
    report(Ctx.getDiagnostics(), Start, "no TILE_KERNEL in this file");
    return false;
  }
  for (const std::string &Name : D.Order) {
    if (!Opts.OnlyKernels.empty() &&
        !llvm::is_contained(Opts.OnlyKernels, Name))
      continue;
    const Found &F = D.Kernels[Name];
    KernelSpelling KS{F.Kernel->getQualifiedNameAsString(),
                      F.GridName,
                      F.SelectName,
                      {},
                      {},
                      F.Configs,
                      {}};
    const SourceManager &SM = Ctx.getSourceManager();
    KS.Loc = {SM.getExpansionLineNumber(F.Kernel->getLocation()),
              SM.getExpansionColumnNumber(F.Kernel->getLocation())};
    if (F.Template)
      for (const NamedDecl *P : *F.Template->getTemplateParameters()) {
        KS.MetaNames.push_back(P->getNameAsString());
        KS.MetaIsBool.push_back(
            cast<NonTypeTemplateParmDecl>(P)->getType()->isBooleanType());
      }
    Out.push_back(std::move(KS));
  }
  return true;
}

/// The user's file (whose contents Clang saw as an in-memory buffer) and
/// every header it read.
void collectDependencies(const SourceManager &SM,
                         std::vector<std::string> &Dependencies) {
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(It->first.getName(), Real))
      Real = It->first.getName();
    Dependencies.push_back(Real.str().str());
  }
  llvm::sort(Dependencies);
  Dependencies.erase(std::unique(Dependencies.begin(), Dependencies.end()),
                     Dependencies.end());
}

/// Pass 2: lowers each instantiated kernel and prints each grid rule.
bool instantiate(ASTContext &Ctx, std::vector<Kernel> &Kernels,
                 std::vector<std::string> *Dependencies) {
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  bool Failed = false;
  llvm::DenseSet<unsigned> Reported;
  ReportedErrors KernelErrors;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->getName().starts_with("tilecc_"))
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    VD->getName().split(Parts, '_');
    unsigned K = std::stoi(Parts[2].str()), C = std::stoi(Parts[3].str());
    const FunctionDecl *FD = pointee(VD);
    if (!FD || !FD->hasBody()) {
      report(Ctx.getDiagnostics(), VD->getLocation(),
             "could not instantiate '" + VD->getName() + "'");
      Failed = true;
      continue;
    }
    KernelInstance &I = Kernels[K].Instances[C];
    if (Parts[1] == "grid") {
      Failed |= !checkHostFunction(*FD, "grid rule", Reported);
      printHostFunction(*FD, I.GridParams, I.GridBody);
      continue;
    }
    if (Parts[1] == "select") {
      Failed |= !checkHostFunction(*FD, "select rule", Reported);
      printHostFunction(*FD, I.SelectParams, I.SelectBody);
      continue;
    }
    I.Fn = lowerKernel(Ctx, *FD, KernelErrors);
    Failed |= !I.Fn;
  }
  if (Dependencies)
    collectDependencies(Ctx.getSourceManager(), *Dependencies);
  return !Failed && !Ctx.getDiagnostics().hasErrorOccurred();
}

std::vector<std::string> clangArgs(const FrontendOptions &Opts) {
  std::vector<std::string> Args = {
      "-std=c++20", "-fsyntax-only", "-D__TILECC__=1",
      "-I" + Opts.RuntimeHeadersDir, "-resource-dir=" + Opts.ResourceDir};
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  return Args;
}

} // namespace

std::optional<std::vector<Kernel>> runFrontend(const FrontendOptions &Opts) {
  auto Buf = llvm::MemoryBuffer::getFile(Opts.SourcePath);
  if (!Buf) {
    llvm::errs() << "tilecc: error: cannot read '" << Opts.SourcePath
                 << "': " << Buf.getError().message() << "\n";
    return std::nullopt;
  }
  std::vector<KernelSpelling> Spellings;
  bool Ok = false;
  auto Discover = [&](ASTContext &Ctx) { Ok = discover(Ctx, Opts, Spellings); };
  if (!tooling::runToolOnCodeWithArgs(
          std::make_unique<CallbackAction>(Discover), (*Buf)->getBuffer(),
          clangArgs(Opts), Opts.SourcePath, "tilecc") ||
      !Ok)
    return std::nullopt;

  std::vector<Kernel> Kernels;
  for (const KernelSpelling &F : Spellings) {
    Kernel K;
    K.QualifiedName = F.QualifiedName;
    llvm::StringRef Q(K.QualifiedName);
    K.Name = Q.contains("::") ? Q.rsplit("::").second.str() : Q.str();
    K.MetaNames = F.MetaNames;
    K.Loc = F.Loc;
    for (const Config &C : F.Configs)
      K.Instances.push_back(KernelInstance{C, nullptr, "", "", "", ""});
    Kernels.push_back(std::move(K));
  }
  std::string Source =
      instancesSource((*Buf)->getBuffer(), Opts.SourcePath, Spellings);
  Ok = false;
  if (!tooling::runToolOnCodeWithArgs(
          std::make_unique<CallbackAction>([&](ASTContext &Ctx) {
            Ok = instantiate(Ctx, Kernels, Opts.Dependencies);
          }),
          Source, clangArgs(Opts), Opts.SourcePath, "tilecc") ||
      !Ok)
    return std::nullopt;
  return Kernels;
}

} // namespace tilecc::frontend
