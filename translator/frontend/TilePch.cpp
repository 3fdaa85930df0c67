//===- TilePch.cpp - tile/tile.hpp, precompiled ---------------------------===//
#include "frontend/TilePch.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using llvm::StringRef;

namespace tilecc::frontend {

namespace {

/// What a file was when the header was built: a changed size or
/// modification time means a changed file.
std::optional<std::string> stamp(StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      Status.type() != llvm::sys::fs::file_type::regular_file)
    return std::nullopt;
  return std::to_string(Status.getSize()) + " " +
         std::to_string(
             Status.getLastModificationTime().time_since_epoch().count());
}

/// Where the header's manifest lives.
std::string manifestPath(StringRef Pch) { return (Pch + ".inputs").str(); }

/// The manifest's first lines: what else must match for the header to load.
std::string manifestHeader(const FrontendOptions &Opts) {
  std::string Header = "tilecc-pch " + getClangFullVersion() + "\n";
  for (const std::string &Arg : clangArgs(Opts))
    Header += "arg " + Arg + "\n";
  return Header;
}

/// Whether Source includes <tile/tile.hpp> before any line but comments
/// and includes of standard headers, which define nothing tile/tile.hpp
/// reads: loading the header first then gives the same declarations.
bool includesTileFirst(StringRef Source) {
  while (true) {
    Source = Source.ltrim(" \t\r\n\f\v");
    if (Source.starts_with("/*")) {
      size_t End = Source.find("*/");
      if (End == StringRef::npos)
        return false;
      Source = Source.drop_front(End + 2);
      continue;
    }
    auto NextLine = [&] {
      StringRef Line = Source.take_until([](char C) { return C == '\n'; });
      Source = Source.drop_front(std::min(Source.size(), Line.size() + 1));
      return Line;
    };
    StringRef Line = NextLine();
    // A backslash last joins the next line to a comment.
    if (Line.starts_with("//")) {
      while (Line.rtrim().ends_with("\\") && !Source.empty())
        Line = NextLine();
      continue;
    }
    if (Line.rtrim().ends_with("\\") || !Line.consume_front("#"))
      return false;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      return false;
    Line = Line.ltrim();
    size_t Close = Line.find('>');
    if (!Line.consume_front("<") || Close == StringRef::npos)
      return false;
    StringRef Name = Line.take_front(Close - 1);
    StringRef Rest = Line.drop_front(Close).trim();
    if (!Rest.empty() && !Rest.starts_with("//"))
      return false;
    if (Name == "tile/tile.hpp")
      return true;
    // The standard library's headers are the ones without an extension.
    if (Name.empty() || Name.contains('/') || Name.contains('.'))
      return false;
  }
}

/// Builds the precompiled header and keeps the list of files it read.
class WriteTilePch : public GeneratePCHAction {
public:
  WriteTilePch(std::string Path, std::vector<std::string> &Inputs)
      : Path(std::move(Path)), Inputs(Inputs) {}

private:
  bool BeginInvocation(CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Path;
    return GeneratePCHAction::BeginInvocation(CI);
  }
  void EndSourceFileAction() override {
    collectDependencies(getCompilerInstance().getSourceManager(), Inputs);
    GeneratePCHAction::EndSourceFileAction();
  }

  std::string Path;
  std::vector<std::string> &Inputs;
};

} // namespace

bool writeTilePch(const FrontendOptions &Opts, const std::string &Path) {
  SmallString<256> Header(Opts.RuntimeHeadersDir);
  llvm::sys::path::append(Header, "tile", "tile.hpp");
  std::vector<std::string> Args = {"tilecc", "-x", "c++-header"};
  for (const std::string &Arg : clangArgs(Opts))
    Args.push_back(Arg);
  Args.push_back(Header.str().str());
  std::vector<std::string> Inputs;
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<WriteTilePch>(Path, Inputs), Files.get());
  if (!Invocation.run() || Inputs.empty()) {
    llvm::errs() << "tilecc: error: cannot precompile '" << Header << "'\n";
    return false;
  }
  // The manifest last, through a temporary file: a translation that reads
  // it while the header is being replaced finds the header's stamp changed.
  std::string Manifest = manifestHeader(Opts);
  std::optional<std::string> PchStamp = stamp(Path);
  if (!PchStamp) {
    llvm::errs() << "tilecc: error: cannot read '" << Path << "'\n";
    return false;
  }
  Manifest += "pch " + *PchStamp + "\n";
  for (const std::string &Input : Inputs) {
    std::optional<std::string> S = stamp(Input);
    if (!S) {
      llvm::errs() << "tilecc: error: cannot read '" << Input << "'\n";
      return false;
    }
    Manifest += "input " + *S + " " + Input + "\n";
  }
  std::string Tmp = manifestPath(Path) + ".tmp";
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Tmp, EC);
    if (!EC)
      OS << Manifest;
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Tmp, manifestPath(Path));
  if (EC) {
    llvm::errs() << "tilecc: error: cannot write '" << manifestPath(Path)
                 << "': " << EC.message() << "\n";
    return false;
  }
  return true;
}

llvm::Expected<std::vector<std::string>>
usableTilePch(const FrontendOptions &Opts, StringRef Source) {
  auto WhyNot = [](const llvm::Twine &Reason) {
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument), Reason);
  };
  if (Opts.TilePch.empty())
    return WhyNot("none given");
  if (!Opts.ExtraArgs.empty())
    return WhyNot("the translation has -I, -D or clang arguments");
  if (!includesTileFirst(Source))
    return WhyNot("the file has more than comments and standard headers "
                  "before #include <tile/tile.hpp>");
  auto Manifest = llvm::MemoryBuffer::getFile(manifestPath(Opts.TilePch));
  if (!Manifest)
    return WhyNot("cannot read " + manifestPath(Opts.TilePch));
  StringRef Text = (*Manifest)->getBuffer();
  if (!Text.consume_front(manifestHeader(Opts)))
    return WhyNot("built by another Clang or with other arguments");
  std::optional<std::string> PchStamp = stamp(Opts.TilePch);
  if (!PchStamp || !Text.consume_front("pch " + *PchStamp + "\n"))
    return WhyNot("changed since its manifest was written");
  std::vector<std::string> Inputs;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    // input <size> <mtime> <path>
    auto [Kind, Fields] = Line.split(' ');
    auto [Size, AfterSize] = Fields.split(' ');
    auto [Time, Path] = AfterSize.split(' ');
    std::optional<std::string> Now = stamp(Path);
    if (Kind != "input" || !Now || *Now != (Size + " " + Time).str())
      return WhyNot(Path + " changed since it was built");
    Inputs.push_back(Path.str());
  }
  return Inputs;
}

} // namespace tilecc::frontend
