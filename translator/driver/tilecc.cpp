//===- tilecc.cpp - The tilecc command ------------------------------------===//
//
//   tilecc kernel.tile.cpp -o outdir --target sm_90a [--kernel name]...
//          [--emit=files|ir|layouts] [--depfile file] [--shards N]
//          [--assume=none|aligned16|unit_stride] [-p build-dir]
//          [-- clang args]
//
// Translates the TILE_KERNELs of a .tile.cpp file into CUDA or HIP sources,
// launch wrappers and metadata. Nothing is written unless every kernel
// translated: errors leave no partial output.
//
//===----------------------------------------------------------------------===//
#include "codegen/FormatCode.h"
#include "codegen/Generate.h"
#include "codegen/Passes.h"
#include "codegen/TuningTable.h"
#include "driver/HugePageHeap.h"
#include "frontend/Frontend.h"
#include "frontend/TilePch.h"
#include "ir/Parser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>

using namespace llvm;
using namespace tilecc;

static cl::OptionCategory Category("tilecc options");
static cl::opt<std::string> Input(cl::Positional, cl::desc("<kernel.tile.cpp>"),
                                  cl::cat(Category));
static cl::opt<std::string> OutDir("o", cl::desc("output directory"),
                                   cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    Target("target", cl::desc("sm_90a (default), sm_80 or gfx90a"),
           cl::init("sm_90a"), cl::cat(Category));
static cl::list<std::string>
    Kernels("kernel", cl::desc("translate only this kernel (repeatable)"),
            cl::cat(Category));
static cl::opt<bool> SkipUnsupported(
    "skip-unsupported",
    cl::desc("leave out, with a warning, the configurations the target "
             "cannot run (more shared memory than it has), and kernels it "
             "cannot run at all (8-bit floats on gfx90a), instead of failing"),
    cl::cat(Category));
static cl::opt<bool> NoUnusedStages(
    "Wno-unused-stages",
    cl::desc("no warning where a loop that names its stages (tile::range) "
             "leaves a tile load unstaged"),
    cl::cat(Category));
static cl::opt<std::string>
    Emit("emit", cl::desc("files (default), ir, layouts or plan"),
         cl::init("files"), cl::cat(Category));
static cl::opt<std::string>
    DepFile("depfile", cl::desc("write a Makefile-style dependency file"),
            cl::cat(Category));
static cl::opt<unsigned> Shards(
    "shards",
    cl::desc("also write <stem>.tile.shard0.cu ... shard<N-1>.cu, which "
             "compile the kernels in N pieces (the .tile.cu file compiles "
             "them all)"),
    cl::value_desc("N"), cl::init(0), cl::cat(Category));
static cl::opt<ir::Assumption> Assume(
    "assume",
    cl::desc("what every launch's arguments satisfy, for all configurations "
             "(tile::config::assume): fewer variants are built"),
    cl::values(clEnumValN(ir::Assumption::None, "none", "nothing (default)"),
               clEnumValN(ir::Assumption::Aligned16, "aligned16",
                          "pointers 16-byte aligned, integers divisible by 16"),
               clEnumValN(ir::Assumption::UnitStride, "unit_stride",
                          "that, and inner strides == 1")),
    cl::init(ir::Assumption::None), cl::cat(Category));
static cl::opt<bool> VerifyFormat(
    "verify-format",
    cl::desc("check that each written file is formatted exactly as "
             "clang-format formats it whole (tilecc formats only the "
             "statements its printers leave unformatted)"),
    cl::Hidden, cl::cat(Category));
static cl::opt<std::string> WritePch(
    "write-pch",
    cl::desc("precompile tile/tile.hpp to this file, for translations to "
             "load (tilecc's build writes tile.pch and tile-algorithm.pch "
             "beside it)"),
    cl::value_desc("file"), cl::Hidden, cl::cat(Category));
static cl::list<std::string>
    PchWith("pch-with",
            cl::desc("with --write-pch: a standard header to precompile "
                     "before tile/tile.hpp (repeatable)"),
            cl::value_desc("header"), cl::Hidden, cl::cat(Category));
static cl::opt<std::string> TilePch(
    "tile-pch",
    cl::desc("the precompiled tile/tile.hpp to load where it gives the same "
             "translation (default: tile-algorithm.pch, else tile.pch, "
             "beside tilecc; empty: none)"),
    cl::value_desc("file"), cl::Hidden, cl::cat(Category));
static cl::opt<bool>
    ExplainPch("explain-pch",
               cl::desc("say whether the precompiled tile/tile.hpp is loaded, "
                        "and if not, why not"),
               cl::Hidden, cl::cat(Category));
static cl::list<std::string>
    Passes("passes", cl::CommaSeparated,
           cl::desc("with a .tir input: the passes to run, in order, before "
                    "printing the IR (an unknown name lists them)"),
           cl::cat(Category));
static cl::opt<unsigned>
    NumWarps("num-warps", cl::init(4),
             cl::desc("with a .tir input: the warps layouts are made for"),
             cl::cat(Category));
static cl::opt<std::string> BuildPath(
    "p",
    cl::desc("a build directory whose compile_commands.json gives the "
             "source's -I, -isystem, -iquote, -include, -D and -U flags (as "
             "clang tools read it; a file it lacks takes a neighbour's)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> TuningTable(
    "tuning-table",
    cl::desc("a JSON table of the configurations measured fastest per device "
             "and key (what TILECC_CACHE_DIR's autotuning cache holds), "
             "compiled into the launch wrappers"),
    cl::value_desc("file"), cl::cat(Category));
static cl::list<std::string> IncludeDirs("I", cl::Prefix,
                                         cl::desc("include directory"),
                                         cl::cat(Category));
static cl::list<std::string> Defines("D", cl::Prefix, cl::desc("macro"),
                                     cl::cat(Category));

static std::string executable(const char *Argv0) {
  return sys::fs::getMainExecutable(Argv0, (void *)&executable);
}

/// tile/tile.hpp next to an installed tilecc (<prefix>/include), else the
/// source tree it was built from.
static std::string runtimeHeadersDir(const char *Argv0) {
  std::string Exe = executable(Argv0);
  SmallString<256> Installed(
      sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include", "tile", "tile.hpp");
  if (sys::fs::exists(Installed))
    return sys::path::parent_path(sys::path::parent_path(Installed)).str();
  return TILECC_SOURCE_RUNTIME_HEADERS;
}

/// The first line where the two formattings of File differ, as an error
/// message; empty if there is none.
static std::string formatDifference(StringRef File, StringRef Fast,
                                    StringRef Reference) {
  if (Fast == Reference)
    return "";
  SmallVector<StringRef, 0> A, B;
  Fast.split(A, '\n');
  Reference.split(B, '\n');
  size_t Line = 0;
  while (Line < A.size() && Line < B.size() && A[Line] == B[Line])
    ++Line;
  return ("tilecc: error: internal error: " + File + ":" + Twine(Line + 1) +
          " is formatted as\n  " +
          (Line < A.size() ? A[Line] : "<end of file>") +
          "\nwhere clang-format writes\n  " +
          (Line < B.size() ? B[Line] : "<end of file>") + "\n")
      .str();
}

/// The statements formatted so far, for all files of the run.
static codegen::FormatCache FormattedGroups;

/// Formats a generated file (JSON aside); with --verify-format, the error
/// if whole-file clang-format would format it differently.
static std::string format(codegen::GeneratedFile &F) {
  if (StringRef(F.Name).ends_with(".json"))
    return "";
  std::string Formatted =
      codegen::formatCode(F.Contents, F.Name, &FormattedGroups);
  if (VerifyFormat)
    if (std::string Difference = formatDifference(
            F.Name, Formatted,
            codegen::formatCodeWithClangFormat(F.Contents, F.Name));
        !Difference.empty())
      return Difference;
  F.Contents = codegen::resetLineDirectives(Formatted, F.Name);
  return "";
}

/// Reports why K's generation failed, at the user's line (or the input's,
/// such as the tuning table's) where it has one.
static void reportError(raw_ostream &OS, const codegen::GenerateError &Error) {
  if (Error.Loc)
    OS << (Error.File.empty() ? Input : Error.File) << ":" << Error.Loc->Line
       << ":" << Error.Loc->Col << ": error: " << Error.Message << "\n";
  else
    OS << "tilecc: error: internal error: " << Error.Message << "\n";
}

/// One kernel's formatted files, or what stopped them.
struct KernelOutput {
  std::string Name;
  std::vector<codegen::GeneratedFile> Files; // none if left out
  std::string Message; // errors or warnings, printed in the file's order
  bool Ok = true;
};

/// Generates and formats the files of kernel K.
static KernelOutput translateKernel(frontend::Kernel &K,
                                    const codegen::GenerateOptions &GO) {
  KernelOutput Out{K.Name};
  raw_string_ostream Message(Out.Message);
  codegen::GenerateError Error;
  std::vector<codegen::GenerateError> LeftOut, UnusedStages;
  auto KF = codegen::generate(K, GO, Error, &LeftOut, &UnusedStages);
  auto WarnAt = [&](const codegen::GenerateError &E) -> raw_ostream & {
    return Message << Input << ":" << E.Loc->Line << ":" << E.Loc->Col
                   << ": warning: ";
  };
  auto Warn = [&](const codegen::GenerateError &E, const std::string &What) {
    WarnAt(E) << What << " is left out for " << Target << ": " << E.Message
              << "\n";
  };
  if (!KF && Error.Unsupported && SkipUnsupported) {
    Warn(Error, K.Name);
    return Out;
  }
  if (KF)
    for (const codegen::GenerateError &E : LeftOut)
      Warn(E, "a configuration of " + K.Name);
  if (!NoUnusedStages)
    for (const codegen::GenerateError &E : UnusedStages)
      WarnAt(E) << E.Message << " [-Wunused-stages]\n";
  if (!KF) {
    reportError(Message, Error);
    Out.Ok = false;
    return Out;
  }
  for (codegen::GeneratedFile &F : *KF)
    if (std::string Difference = format(F); !Difference.empty()) {
      Message << Difference;
      Out.Ok = false;
      return Out;
    }
  Out.Files = std::move(*KF);
  return Out;
}

/// Writes Contents to Path through a temporary file, so a reader never sees
/// a half-written file.
static bool writeFile(const std::string &Path, const std::string &Contents) {
  std::string Tmp = Path + ".tmp";
  std::error_code EC;
  {
    raw_fd_ostream OS(Tmp, EC);
    if (EC) {
      errs() << "tilecc: error: cannot write '" << Tmp << "': " << EC.message()
             << "\n";
      return false;
    }
    OS << Contents;
  }
  if ((EC = sys::fs::rename(Tmp, Path))) {
    errs() << "tilecc: error: cannot write '" << Path << "': " << EC.message()
           << "\n";
    return false;
  }
  return true;
}

/// The flags of Input's command in BuildPath's compile_commands.json that
/// change what the source means: include paths (made absolute against the
/// command's directory), forced includes and macros. The language standard
/// and the rest stay tilecc's. False, with Error, where there is no
/// database.
static bool databaseArgs(std::vector<std::string> &Out, std::string &Error) {
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Error);
  if (!DB) {
    Error = "no compile_commands.json in " + BuildPath + " (" + Error + ")";
    return false;
  }
  DB = clang::tooling::inferMissingCompileCommands(std::move(DB));
  SmallString<256> Source(Input);
  sys::fs::make_absolute(Source);
  std::vector<clang::tooling::CompileCommand> Commands =
      DB->getCompileCommands(Source);
  if (Commands.empty()) {
    Error = BuildPath + "/compile_commands.json has no command for " + Input +
            " or a file like it";
    return false;
  }
  const clang::tooling::CompileCommand &C = Commands.front();
  auto Absolute = [&](StringRef Path) {
    SmallString<256> P(Path);
    if (sys::path::is_relative(P))
      sys::fs::make_absolute(C.Directory, P);
    return std::string(P);
  };
  const StringRef PathFlags[] = {"-I", "-isystem", "-iquote", "-include",
                                 "-idirafter"};
  for (size_t I = 1; I < C.CommandLine.size(); ++I) {
    StringRef A = C.CommandLine[I];
    if (A.starts_with("-D") || A.starts_with("-U")) {
      Out.push_back(A.str());
      if (A.size() == 2 && I + 1 < C.CommandLine.size())
        Out.push_back(C.CommandLine[++I]);
      continue;
    }
    for (StringRef Flag : PathFlags) {
      if (!A.starts_with(Flag))
        continue;
      if (A == Flag && I + 1 < C.CommandLine.size()) {
        Out.push_back(Flag.str());
        Out.push_back(Absolute(C.CommandLine[++I]));
      } else if (Flag == "-I") {
        Out.push_back("-I" + Absolute(A.drop_front(2)));
      } else {
        continue; // another flag sharing the prefix (-include-pch, ...)
      }
      break;
    }
  }
  return true;
}

/// What the command line asks of the frontend (PCHs apart).
static frontend::FrontendOptions
frontendOptions(const char *Argv0, ArrayRef<std::string> DatabaseArgs,
                ArrayRef<std::string> ClangArgs) {
  frontend::FrontendOptions FO;
  FO.SourcePath = Input;
  FO.RuntimeHeadersDir = runtimeHeadersDir(Argv0);
  FO.ResourceDir = TILECC_CLANG_RESOURCE_DIR;
  // The command line's own flags come after the database's, and win.
  FO.ExtraArgs.assign(DatabaseArgs.begin(), DatabaseArgs.end());
  for (const std::string &I : IncludeDirs)
    FO.ExtraArgs.push_back("-I" + I);
  for (const std::string &D : Defines)
    FO.ExtraArgs.push_back("-D" + D);
  FO.ExtraArgs.insert(FO.ExtraArgs.end(), ClangArgs.begin(), ClangArgs.end());
  FO.OnlyKernels.assign(Kernels.begin(), Kernels.end());
  return FO;
}

/// The precompiled tile headers to try, in order: those beside tilecc
/// unless --tile-pch names one (or, empty, none).
static std::vector<std::string> tilePchs(const char *Argv0) {
  if (TilePch.getNumOccurrences())
    return TilePch.empty() ? std::vector<std::string>()
                           : std::vector<std::string>{TilePch};
  std::vector<std::string> Pchs;
  for (const char *Name : {"tile-algorithm.pch", "tile.pch"})
    Pchs.push_back(
        (sys::path::parent_path(executable(Argv0)) + "/" + Name).str());
  return Pchs;
}

/// Whether --emit, -o and --shards make sense together.
static bool checkOutputOptions() {
  if (Emit != "files" && Emit != "ir" && Emit != "layouts" && Emit != "plan") {
    errs() << "tilecc: error: unknown --emit value '" << Emit << "'\n";
    return false;
  }
  if (Emit == "files" && OutDir.empty()) {
    errs() << "tilecc: error: no output directory (-o dir)\n";
    return false;
  }
  if (Shards.getNumOccurrences() && (Shards < 1 || Shards > 256)) {
    errs() << "tilecc: error: --shards must be between 1 and 256, got "
           << Shards << "\n";
    return false;
  }
  return true;
}

/// Per source file, umbrella files with fixed names, so that a build system
/// can name its outputs without knowing which kernels the file defines; and
/// the shards (first: the umbrella files, whose names a build system always
/// knows, stay last, the depfile's targets).
static void appendUmbrellaFiles(std::vector<codegen::GeneratedFile> &Files,
                                ArrayRef<std::string> Generated,
                                StringRef KernelExt,
                                const codegen::ShardPlanner *Planner) {
  StringRef Stem = sys::path::filename(Input);
  Stem = Stem.substr(0, Stem.find('.'));
  std::string Header = "// Generated by tilecc: launch wrappers of " + Input +
                       ".\n#pragma once\n";
  std::string Kernels = "// Generated by tilecc: kernels of " + Input + ".\n";
  std::string Launchers =
      "// Generated by tilecc: launch wrappers of " + Input + ".\n";
  for (const std::string &Name : Generated) {
    Header += "#include \"" + Name + ".launch.h\"\n";
    Kernels += "#include \"" + Name + "." + KernelExt.str() + "\"\n";
    Launchers += "#include \"" + Name + ".launch.cpp\"\n";
  }
  for (unsigned I = 0; Planner && I < Planner->count(); ++I) {
    std::string Shard = "// Generated by tilecc: shard " + std::to_string(I) +
                        " of " + std::to_string(Planner->count()) +
                        " of the kernels of " + Input + ".\n";
    if (Planner->filesIn(I).empty())
      Shard += "// Empty: the kernels fit the shards before it.\n";
    else
      Shard += "#define TILECC_SHARD " + std::to_string(I) + "\n";
    for (const std::string &File : Planner->filesIn(I))
      Shard += "#include \"" + File + "\"\n";
    Files.push_back(
        {(Stem + ".tile.shard" + Twine(I) + "." + KernelExt).str(), Shard});
  }
  Files.push_back({(Stem + ".tile.h").str(), Header});
  Files.push_back({(Stem + ".tile." + KernelExt).str(), Kernels});
  Files.push_back({(Stem + ".tile.launch.cpp").str(), Launchers});
}

/// --emit=ir, layouts or plan: prints that stage of each kernel.
static bool dumpStage(std::deque<frontend::Kernel> &Kernels,
                      const codegen::GenerateOptions &GO) {
  for (frontend::Kernel &K : Kernels) {
    codegen::GenerateError Error;
    std::optional<std::string> Text;
    if (Emit == "plan")
      Text = codegen::dumpPlan(K, GO, Error);
    else if (codegen::prepareKernel(K, Error))
      Text = Emit == "ir" ? codegen::dumpIR(K)
                          : codegen::dumpLayouts(K, GO.Target);
    if (!Text) {
      reportError(errs(), Error);
      return false;
    }
    outs() << *Text;
  }
  return true;
}

/// A .tir input: parses its TileIR, runs --passes over it and prints the
/// result (tests of one pass).
static bool runPassesOn(const TargetDesc &Target) {
  auto Text = MemoryBuffer::getFile(Input);
  if (!Text) {
    errs() << "tilecc: error: cannot read '" << Input
           << "': " << Text.getError().message() << "\n";
    return false;
  }
  ir::ParseError ParseErr;
  std::unique_ptr<ir::Function> F =
      ir::parseFunction((*Text)->getBuffer(), ParseErr);
  if (!F) {
    errs() << Input << ":" << ParseErr.Line << ":" << ParseErr.Col
           << ": error: " << ParseErr.Message << "\n";
    return false;
  }
  std::string Error;
  auto Printed = codegen::runPasses(*F, Passes, {Target, NumWarps}, Error);
  if (!Printed) {
    errs() << "tilecc: error: " << Error;
    if (!StringRef(Error).ends_with("\n"))
      errs() << "\n";
    return false;
  }
  outs() << *Printed;
  return true;
}

/// Writes Files into the output directory and, when asked, the depfile:
/// the last Named files are those whose names a build system knows.
static bool writeOutputs(ArrayRef<codegen::GeneratedFile> Files, unsigned Named,
                         ArrayRef<std::string> Dependencies) {
  if (std::error_code EC = sys::fs::create_directories(OutDir)) {
    errs() << "tilecc: error: cannot create '" << OutDir
           << "': " << EC.message() << "\n";
    return false;
  }
  for (const codegen::GeneratedFile &F : Files) {
    SmallString<256> Path(OutDir);
    sys::path::append(Path, F.Name);
    if (!writeFile(Path.str().str(), F.Contents))
      return false;
  }
  if (!DepFile.empty()) {
    // Targets are the umbrella files only, header first: Ninja wants every
    // target of a depfile to be a declared output of the build step, the
    // first one first, and a build system can only declare the files whose
    // names it knows in advance.
    std::string D;
    auto AddTargets = [&](ArrayRef<codegen::GeneratedFile> Targets) {
      for (const codegen::GeneratedFile &F : Targets) {
        SmallString<256> Path(OutDir);
        sys::path::append(Path, F.Name);
        D += (D.empty() ? "" : " ") + Path.str().str();
      }
    };
    AddTargets(Files.take_back(3));
    AddTargets(Files.take_back(Named).drop_back(3));
    D += ":";
    for (const std::string &Dep : Dependencies)
      D += " \\\n  " + Dep;
    if (!writeFile(DepFile, D + "\n"))
      return false;
  }
  return true;
}

/// Reads and parses --tuning-table into GO; false after reporting why not.
static bool readTuningTable(codegen::GenerateOptions &GO, nlohmann::json &Table,
                            std::vector<std::string> &Dependencies) {
  auto Buffer = MemoryBuffer::getFile(TuningTable);
  if (!Buffer) {
    errs() << "tilecc: error: cannot read the tuning table '" << TuningTable
           << "': " << Buffer.getError().message() << "\n";
    return false;
  }
  GO.TuningTableText = (*Buffer)->getBuffer().str();
  GO.TuningTablePath = TuningTable;
  try {
    Table = nlohmann::json::parse(GO.TuningTableText);
  } catch (const nlohmann::json::parse_error &E) {
    const ir::SourceLoc L =
        codegen::locationOf(GO.TuningTableText, E.byte ? E.byte - 1 : 0);
    errs() << TuningTable << ":" << L.Line << ":" << L.Col
           << ": error: the tuning table is not JSON\n";
    return false;
  }
  GO.TuningTable = &Table;
  if (!DepFile.empty())
    Dependencies.push_back(TuningTable);
  return true;
}

int main(int Argc, const char **Argv) {
  backHeapWithHugePages();
  // Arguments after `--` go to Clang unchanged.
  std::vector<std::string> ClangArgs;
  for (int I = 1; I < Argc; ++I)
    if (StringRef(Argv[I]) == "--") {
      ClangArgs.assign(Argv + I + 1, Argv + Argc);
      Argc = I;
      break;
    }
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tilecc " << TILECC_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "tilecc: tile kernels in C++ to CUDA/HIP\n\n"
      "  tilecc kernel.tile.cpp -o outdir --target sm_90a [-- clang args]\n");
  std::vector<std::string> DatabaseArgs;
  if (!BuildPath.empty()) {
    std::string Error;
    if (!databaseArgs(DatabaseArgs, Error)) {
      errs() << "tilecc: error: " << Error << "\n";
      return 1;
    }
  }
  frontend::FrontendOptions FO =
      frontendOptions(Argv[0], DatabaseArgs, ClangArgs);
  if (!WritePch.empty()) {
    // Translations load it only with the arguments it was built with.
    if (!FO.ExtraArgs.empty()) {
      errs() << "tilecc: error: --write-pch takes no -I, -D or clang "
                "arguments\n";
      return 1;
    }
    return frontend::writeTilePch(FO, WritePch, PchWith) ? 0 : 1;
  }
  if (Input.empty()) {
    errs() << "tilecc: error: no input file\n";
    return 1;
  }
  FO.TilePchs = tilePchs(Argv[0]);
  FO.ExplainPch = ExplainPch;
  std::vector<std::string> Dependencies;
  if (!DepFile.empty())
    FO.Dependencies = &Dependencies;

  auto TD = parseTarget(Target);
  if (!TD) {
    errs() << "tilecc: error: unknown target '" << Target
           << "' (expected sm_90a, sm_80 or gfx90a)\n";
    return 1;
  }
  if (StringRef(Input).ends_with(".tir"))
    return runPassesOn(*TD) ? 0 : 1;
  if (!checkOutputOptions())
    return 1;
  std::optional<codegen::ShardPlanner> Planner;
  if (Shards)
    Planner.emplace(Shards);
  codegen::GenerateOptions GO{Input, TILECC_VERSION, *TD, Assume,
                              Planner ? &*Planner : nullptr};
  GO.SkipUnsupported = SkipUnsupported;
  nlohmann::json Table;
  if (!TuningTable.empty() && !readTuningTable(GO, Table, Dependencies))
    return 1;

  // Each kernel's code is generated and formatted on a worker thread while
  // Clang instantiates the next one; one worker, so the shard planner sees
  // the kernels in the file's order.
  std::deque<frontend::Kernel> Translated;
  std::deque<KernelOutput> Outputs;
  DefaultThreadPool Worker(hardware_concurrency(1));
  auto Translate = [&] {
    return frontend::runFrontend(FO, [&](frontend::Kernel K) {
      frontend::Kernel &Kept = Translated.emplace_back(std::move(K));
      if (Emit != "files")
        return;
      KernelOutput &Out = Outputs.emplace_back();
      Worker.async([&Out, &Kept, &GO] { Out = translateKernel(Kept, GO); });
    });
  };
  frontend::FrontendResult Result = Translate();
  Worker.wait();
  if (Result == frontend::FrontendResult::RetryWithoutPch) {
    Translated.clear();
    Outputs.clear();
    if (Planner)
      Planner.emplace(Shards);
    FO.TilePchs.clear();
    FO.ExplainPch = false;
    Result = Translate();
    Worker.wait();
  }
  if (Result != frontend::FrontendResult::Ok)
    return 1;

  if (Emit != "files")
    return dumpStage(Translated, GO) ? 0 : 1;

  std::vector<codegen::GeneratedFile> Files;
  // The kernels whose files are written (--skip-unsupported leaves some
  // out): the umbrella files include these.
  std::vector<std::string> Generated;
  for (KernelOutput &Out : Outputs) {
    errs() << Out.Message;
    if (!Out.Ok)
      return 1;
    if (Out.Files.empty())
      continue;
    Files.insert(Files.end(), std::make_move_iterator(Out.Files.begin()),
                 std::make_move_iterator(Out.Files.end()));
    Generated.push_back(Out.Name);
  }
  appendUmbrellaFiles(Files, Generated, TD->kernelExtension(),
                      Planner ? &*Planner : nullptr);
  // The files whose names a build system knows: shards and umbrella files.
  const unsigned Named = 3 + (Planner ? Planner->count() : 0);
  for (codegen::GeneratedFile &F : MutableArrayRef(Files).take_back(Named))
    if (std::string Difference = format(F); !Difference.empty()) {
      errs() << Difference;
      return 1;
    }

  return writeOutputs(Files, Named, Dependencies) ? 0 : 1;
}
