//===- Frontend.cpp - Discovery, instantiation and lowering ---------------===//
#include "frontend/Frontend.h"
#include "frontend/AstQueries.h"
#include "frontend/Lowering.h"
#include "frontend/TilePch.h"
#include "frontend/UserLineDiagnostics.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/TemplateDeduction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

/// A kernel, its rules and its configurations, as the file declares them.
struct Found {
  FunctionDecl *Kernel = nullptr;
  const FunctionTemplateDecl *Template = nullptr;
  FunctionDecl *Grid = nullptr;
  FunctionDecl *Select = nullptr; // the TILE_SELECT rule, if any
  FunctionDecl *Tune = nullptr;   // the TILE_TUNE rule, if any
  std::vector<Config> Configs;
  /// Where TILE_CONFIGS writes each configuration: its instances are
  /// requested there, so an error in one (a failed static_assert, say) notes
  /// the configuration that asked for it.
  std::vector<SourceLocation> ConfigLocs;
  bool HasConfigs = false;
};

//===--- Discovery: kernels, configurations and rules ---------------------===//

class Discovery : public RecursiveASTVisitor<Discovery> {
public:
  Discovery(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}

  llvm::StringMap<Found> Kernels;
  std::vector<std::string> Order; // declaration order, for stable output
  llvm::SmallVector<std::pair<std::string, const VarDecl *>, 4> ConfigVars;
  llvm::SmallVector<std::pair<std::string, FunctionDecl *>, 4> Grids;
  llvm::SmallVector<std::pair<std::string, FunctionDecl *>, 4> Selects;
  llvm::SmallVector<std::pair<std::string, FunctionDecl *>, 4> Tunes;

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
    if (auto T = annotation(FD, "tile.tune"))
      Tunes.push_back({*T, FD});
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
                      FunctionDecl *Found::*Field) {
      for (auto &[Name, FD] : Rules) {
        auto It = Kernels.find(Name);
        if (It == Kernels.end()) {
          report(Diags, FD->getLocation(),
                 llvm::Twine(Macro) + " names '" + Name +
                     "', which is not a TILE_KERNEL");
          Ok = false;
          continue;
        }
        It->second.*Field = FD;
      }
    };
    Attach(Grids, "TILE_GRID", &Found::Grid);
    Attach(Selects, "TILE_SELECT", &Found::Select);
    Attach(Tunes, "TILE_TUNE", &Found::Tune);
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
      if (!K.Grid) {
        report(Diags, L,
               "kernel '" + Name +
                   "' has no grid rule; mark a function returning "
                   "tile::grid with TILE_GRID(" +
                   Name + ")");
        Ok = false;
      }
      Ok &= checkTemplateParams(K);
      if (K.Tune)
        Ok &= checkTuneRule(K);
    }
    return Ok;
  }

private:
  /// The launch wrapper calls the rule with the kernel's arguments once,
  /// whatever the configuration: it is no template, and returns
  /// tile::tuning.
  bool checkTuneRule(const Found &K) {
    const FunctionDecl &T = *K.Tune;
    if (T.getDescribedFunctionTemplate()) {
      report(Diags, T.getLocation(),
             "a TILE_TUNE rule must not be a template: its key and buffers "
             "are the same for every configuration of '" +
                 K.Kernel->getName() + "'");
      return false;
    }
    const auto *Result = T.getReturnType()->getAsCXXRecordDecl();
    if (!Result || Result->getQualifiedNameAsString() != "tile::tuning") {
      report(Diags, T.getLocation(),
             "a TILE_TUNE rule returns tile::tuning, not '" +
                 T.getReturnType().getAsString() + "'");
      return false;
    }
    if (T.getNumParams() != K.Kernel->getNumParams()) {
      report(Diags, T.getLocation(),
             "a TILE_TUNE rule takes the kernel's " +
                 llvm::Twine(K.Kernel->getNumParams()) +
                 " parameters, in its order; this one takes " +
                 llvm::Twine(T.getNumParams()));
      return false;
    }
    return true;
  }

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
      if (S.getStructNumFields() > 8)
        C.Autotune = S.getStructField(8).getInt().getBoolValue();
      if (S.getStructNumFields() > 9)
        C.RegisterPrefetch = S.getStructField(9).getInt().getBoolValue();
      SourceLocation At = Elements && I < Elements->getNumInits()
                              ? Elements->getInit(I)->getBeginLoc()
                              : VD->getLocation();
      K.Configs.push_back(std::move(C));
      K.ConfigLocs.push_back(SM.getFileLoc(At));
    }
    return true;
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
};

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
           << lowering::hostTypeSpelling(P->getType(), G.getASTContext());
    if (!P->getName().empty())
      Params << " " << P->getName();
  }
  llvm::raw_string_ostream Body(BodyOut);
  G.getBody()->printPretty(Body, nullptr, Policy, 0);
  while (!BodyOut.empty() && BodyOut.back() == '\n')
    BodyOut.pop_back();
}

//===--- Instantiation and lowering ---------------------------------------===//

/// A kernel, a grid or a select rule for one configuration.
FunctionDecl *instantiateFor(Sema &S, FunctionDecl &FD, const Found &K,
                             unsigned C) {
  FunctionTemplateDecl *Template = FD.getDescribedFunctionTemplate();
  if (!Template)
    return &FD;
  ASTContext &Ctx = S.getASTContext();
  SourceLocation At = K.ConfigLocs[C];
  // The configuration's values as arguments of the kernel's parameter
  // types; a rule's parameters convert them as its template would.
  TemplateArgumentListInfo Args(At, At);
  const TemplateParameterList &Params = *K.Template->getTemplateParameters();
  for (unsigned M = 0; M < Params.size(); ++M) {
    QualType T = cast<NonTypeTemplateParmDecl>(Params.getParam(M))->getType();
    long long V = M < K.Configs[C].Meta.size() ? K.Configs[C].Meta[M] : 0;
    llvm::APSInt Value(llvm::APInt(Ctx.getIntWidth(T), V, /*isSigned=*/true),
                       T->isUnsignedIntegerOrEnumerationType());
    Args.addArgument(S.getTrivialTemplateArgumentLoc(
        TemplateArgument(Ctx, Value, T), QualType(), At));
  }
  FunctionDecl *Instance = nullptr;
  sema::TemplateDeductionInfo Info(At);
  TemplateDeductionResult Result =
      S.DeduceTemplateArguments(Template, &Args, Instance, Info);
  if (Result != TemplateDeductionResult::Success || !Instance) {
    report(Ctx.getDiagnostics(), At,
           "'" + FD.getQualifiedNameAsString() +
               "' cannot be instantiated with this configuration's "
               "meta-parameters");
    if (Result == TemplateDeductionResult::ConstraintsNotSatisfied)
      S.DiagnoseUnsatisfiedConstraint(Info.AssociatedConstraintsSatisfaction);
    return nullptr;
  }
  S.InstantiateFunctionDefinition(At, Instance, /*Recursive=*/true,
                                  /*DefinitionRequired=*/true);
  return Instance;
}

/// Instantiates the kernel, grid and select rule of each configuration of
/// F, then lowers them; nothing after errors. Clang's errors (a failed
/// static_assert, say) are counted in InstantiationFailed: after them no
/// other kernel is translated, as after any error in a C++ compile.
std::optional<Kernel> translateKernel(Sema &S, const Found &F,
                                      llvm::DenseSet<unsigned> &Reported,
                                      ReportedErrors &KernelErrors,
                                      bool &InstantiationFailed) {
  ASTContext &Ctx = S.getASTContext();
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  const SourceManager &SM = Ctx.getSourceManager();
  const unsigned ErrorsBefore = Diags.getNumErrors();
  struct Instances {
    FunctionDecl *Kernel, *Grid, *Select;
  };
  std::vector<Instances> Instantiated;
  for (unsigned C = 0; C < F.Configs.size(); ++C) {
    Instances I{instantiateFor(S, *F.Kernel, F, C),
                instantiateFor(S, *F.Grid, F, C),
                F.Select ? instantiateFor(S, *F.Select, F, C) : nullptr};
    for (const FunctionDecl *FD : {I.Kernel, I.Grid, I.Select})
      if (FD && !FD->hasBody())
        report(Diags, F.ConfigLocs[C],
               "could not instantiate '" + FD->getQualifiedNameAsString() +
                   "' for this configuration");
    Instantiated.push_back(I);
  }
  S.PerformPendingInstantiations();
  if (Diags.getNumErrors() != ErrorsBefore) {
    InstantiationFailed = true;
    return std::nullopt;
  }

  Kernel K;
  K.QualifiedName = F.Kernel->getQualifiedNameAsString();
  K.Name = F.Kernel->getNameAsString();
  K.Loc = {SM.getExpansionLineNumber(F.Kernel->getLocation()),
           SM.getExpansionColumnNumber(F.Kernel->getLocation())};
  if (F.Template)
    for (const NamedDecl *P : *F.Template->getTemplateParameters())
      K.MetaNames.push_back(P->getNameAsString());
  bool Failed = false;
  for (unsigned C = 0; C < F.Configs.size(); ++C) {
    const Instances &I = Instantiated[C];
    KernelInstance KI{F.Configs[C], nullptr, "", "", "", ""};
    Failed |= !checkHostFunction(*I.Grid, "grid rule", Reported);
    printHostFunction(*I.Grid, KI.GridParams, KI.GridBody);
    if (I.Select) {
      Failed |= !checkHostFunction(*I.Select, "select rule", Reported);
      printHostFunction(*I.Select, KI.SelectParams, KI.SelectBody);
    }
    KI.Fn = lowerKernel(Ctx, *I.Kernel, KernelErrors);
    Failed |= !KI.Fn;
    K.Instances.push_back(std::move(KI));
  }
  if (F.Tune) {
    Failed |= !checkHostFunction(*F.Tune, "tuning rule", Reported);
    printHostFunction(*F.Tune, K.TuneParams, K.TuneBody);
  }
  for (const ParmVarDecl *P : F.Kernel->parameters()) {
    const QualType T = P->getType();
    if (!T->isIntegerType())
      continue;
    const std::string Name = P->getNameAsString();
    const bool Wide = T->isUnsignedIntegerType() &&
                      Ctx.getTypeSize(T) >= Ctx.getTypeSize(Ctx.LongLongTy);
    K.IntegerParams.push_back(
        {Name, Wide ? "static_cast<long long>(" + Name + ")" : Name});
  }
  if (Failed)
    return std::nullopt;
  return K;
}

/// Finds the kernels and translates each, in the file's order, handing each
/// to Translated as soon as it is lowered; false after errors.
bool translate(Sema &S, const FrontendOptions &Opts,
               llvm::function_ref<void(Kernel)> Translated) {
  ASTContext &Ctx = S.getASTContext();
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  if (Diags.hasErrorOccurred())
    return false;
  Discovery D(Ctx);
  D.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (!D.resolve())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  for (const std::string &Name : Opts.OnlyKernels)
    if (!D.Kernels.count(Name)) {
      report(Diags, Start, "no TILE_KERNEL named '" + Name + "' in this file");
      return false;
    }
  if (D.Order.empty()) {
    report(Diags, Start, "no TILE_KERNEL in this file");
    return false;
  }

  // The parser has closed the translation unit's scope, where instantiation
  // declares the builtins it calls: a stand-in holds them.
  Scope TranslationUnit(nullptr, Scope::DeclScope, Diags);
  TranslationUnit.setEntity(Ctx.getTranslationUnitDecl());
  S.TUScope = &TranslationUnit;
  auto CloseScope = llvm::make_scope_exit([&] { S.TUScope = nullptr; });
  llvm::DenseSet<unsigned> Reported;
  ReportedErrors KernelErrors;
  bool Failed = false, InstantiationFailed = false;
  for (const std::string &Name : D.Order) {
    if (!Opts.OnlyKernels.empty() &&
        !llvm::is_contained(Opts.OnlyKernels, Name))
      continue;
    std::optional<Kernel> K = translateKernel(
        S, D.Kernels[Name], Reported, KernelErrors, InstantiationFailed);
    if (InstantiationFailed)
      return false;
    Failed |= !K;
    if (K && !Failed)
      Translated(std::move(*K));
  }
  if (Opts.Dependencies)
    collectDependencies(SM, *Opts.Dependencies);
  return !Failed && !Diags.hasErrorOccurred();
}

/// Runs translate() once Clang has parsed the whole translation unit, with
/// its Sema still there to instantiate the kernels.
class TranslateAction : public ASTFrontendAction {
public:
  TranslateAction(const FrontendOptions &Opts,
                  llvm::function_ref<void(Kernel)> Translated, bool Quiet,
                  bool &Ok)
      : Opts(Opts), Translated(Translated), Quiet(Quiet), Ok(Ok) {}

  // A quiet translation's diagnostics are counted, not printed, and so is
  // not their number (which Clang prints where it shows carets).
  bool BeginInvocation(CompilerInstance &CI) override {
    if (Quiet)
      CI.getDiagnosticOpts().ShowCarets = false;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    struct Consumer : ASTConsumer {
      TranslateAction &A;
      CompilerInstance &CI;
      Consumer(TranslateAction &A, CompilerInstance &CI) : A(A), CI(CI) {}
      void HandleTranslationUnit(ASTContext &) override {
        A.Ok = translate(CI.getSema(), A.Opts, A.Translated);
      }
    };
    return std::make_unique<Consumer>(*this, CI);
  }

private:
  const FrontendOptions &Opts;
  llvm::function_ref<void(Kernel)> Translated;
  bool Quiet;
  bool &Ok;
};

} // namespace

std::vector<std::string> clangArgs(const FrontendOptions &Opts) {
  std::vector<std::string> Args = {
      "-std=c++20", "-fsyntax-only", "-D__TILECC__=1",
      "-I" + Opts.RuntimeHeadersDir, "-resource-dir=" + Opts.ResourceDir};
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  return Args;
}

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

FrontendResult runFrontend(const FrontendOptions &Opts,
                           llvm::function_ref<void(Kernel)> Translated) {
  auto Buf = llvm::MemoryBuffer::getFile(Opts.SourcePath);
  if (!Buf) {
    llvm::errs() << "tilecc: error: cannot read '" << Opts.SourcePath
                 << "': " << Buf.getError().message() << "\n";
    return FrontendResult::Failed;
  }
  std::vector<std::string> CommandLine = {"tilecc"};
  for (std::string &Arg : clangArgs(Opts))
    CommandLine.push_back(std::move(Arg));
  llvm::Expected<UsablePch> Pch = usableTilePch(Opts, (*Buf)->getBuffer());
  if (Pch) {
    CommandLine.push_back("-include-pch");
    CommandLine.push_back(Pch->Path);
  }
  // The files the header was built from are the translation's too.
  if (Opts.Dependencies)
    *Opts.Dependencies = Pch ? Pch->Inputs : std::vector<std::string>();
  if (Opts.ExplainPch)
    llvm::errs() << "tilecc: "
                 << (Pch ? "loading " + Pch->Path
                         : "not loading a precompiled tile/tile.hpp: " +
                               toString(Pch.takeError()))
                 << "\n";
  else
    llvm::consumeError(Pch.takeError());
  CommandLine.push_back(Opts.SourcePath);

  // Clang reads the user's file from the buffer already read.
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto InMemory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(InMemory);
  InMemory->addFile(Opts.SourcePath, 0, std::move(*Buf));
  auto Files =
      llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);
  bool Ok = false;
  tooling::ToolInvocation Invocation(
      CommandLine,
      std::make_unique<TranslateAction>(Opts, Translated,
                                        /*Quiet=*/bool(Pch), Ok),
      Files.get());
  // With the header loaded, a diagnostic can name other places than
  // without it (the header's #include as line 1, other lines of macro
  // scratch space): it is not printed, and the caller translates again
  // without the header, which prints what a C++ compile would.
  // Without it, what Clang reports is printed, a failed check inside
  // tile's headers at the user's line that led there. Remarks
  // (static_print's) are printed too, so they also ask for the retry.
  class CountedWithRemarks : public DiagnosticConsumer {
  public:
    void HandleDiagnostic(DiagnosticsEngine::Level Level,
                          const Diagnostic &Info) override {
      DiagnosticConsumer::HandleDiagnostic(Level, Info);
      Remarked |= Level == DiagnosticsEngine::Remark;
    }
    bool Remarked = false;
  } Counted;
  llvm::SmallVector<const char *> Argv;
  for (const std::string &Arg : CommandLine)
    Argv.push_back(Arg.c_str());
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts =
      CreateAndPopulateDiagOpts(Argv);
  UserLineDiagnostics Printed(llvm::errs(), DiagOpts.get(),
                              Opts.RuntimeHeadersDir);
  Invocation.setDiagnosticOptions(DiagOpts.get());
  Invocation.setDiagnosticConsumer(
      Pch ? static_cast<DiagnosticConsumer *>(&Counted) : &Printed);
  const bool Ran = Invocation.run();
  if (Pch && (Counted.getNumErrors() || Counted.getNumWarnings() ||
              Counted.Remarked)) {
    if (Opts.ExplainPch)
      llvm::errs() << "tilecc: translating again without " << Pch->Path
                   << ", which would move what Clang reports\n";
    return FrontendResult::RetryWithoutPch;
  }
  return Ran && Ok ? FrontendResult::Ok : FrontendResult::Failed;
}

} // namespace tilecc::frontend
