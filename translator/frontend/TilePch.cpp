//===- TilePch.cpp - tile/tile.hpp, precompiled ---------------------------===//
#include "frontend/TilePch.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
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

llvm::Error whyNot(const llvm::Twine &Reason) {
  return llvm::createStringError(
      std::make_error_code(std::errc::invalid_argument), Reason);
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

/// The standard headers Source includes around <tile/tile.hpp> before its
/// first line that is not a comment or such an include, if it includes
/// <tile/tile.hpp> there with nothing before it but comments and standard
/// headers. These define nothing tile/tile.hpp reads and are order-free, so
/// loading the header built from them and tile/tile.hpp first gives the
/// same declarations.
std::optional<llvm::StringSet<>> leadingStandardHeaders(StringRef Source) {
  llvm::StringSet<> Standard;
  bool SawTile = false;
  auto Ended = [&]() -> std::optional<llvm::StringSet<>> {
    if (!SawTile)
      return std::nullopt;
    return Standard;
  };
  while (true) {
    Source = Source.ltrim(" \t\r\n\f\v");
    if (Source.starts_with("/*")) {
      size_t End = Source.find("*/");
      if (End == StringRef::npos)
        return Ended();
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
      return Ended();
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      return Ended();
    Line = Line.ltrim();
    size_t Close = Line.find('>');
    if (!Line.consume_front("<") || Close == StringRef::npos)
      return Ended();
    StringRef Name = Line.take_front(Close - 1);
    StringRef Rest = Line.drop_front(Close).trim();
    if (!Rest.empty() && !Rest.starts_with("//"))
      return Ended();
    if (Name == "tile/tile.hpp") {
      SawTile = true;
      continue;
    }
    // The standard library's headers are the ones without an extension.
    if (Name.empty() || Name.contains('/') || Name.contains('.'))
      return Ended();
    Standard.insert(Name);
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

bool writeTilePch(const FrontendOptions &Opts, const std::string &Path,
                  llvm::ArrayRef<std::string> With) {
  SmallString<256> Header(Opts.RuntimeHeadersDir);
  llvm::sys::path::append(Header, "tile", "tile.hpp");
  std::vector<std::string> Args = {"tilecc", "-x", "c++-header"};
  for (const std::string &Arg : clangArgs(Opts))
    Args.push_back(Arg);
  for (const std::string &Standard : With) {
    Args.push_back("-include");
    Args.push_back(Standard);
  }
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
  for (const std::string &Standard : With)
    Manifest += "with " + Standard + "\n";
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

namespace {

/// The files Pch was built from, if a translation whose file includes the
/// standard headers Included around tile/tile.hpp may load it.
llvm::Expected<std::vector<std::string>>
usablePch(const FrontendOptions &Opts, const std::string &Pch,
          const llvm::StringSet<> &Included) {
  auto Manifest = llvm::MemoryBuffer::getFile(manifestPath(Pch));
  if (!Manifest)
    return whyNot("cannot read " + manifestPath(Pch));
  StringRef Text = (*Manifest)->getBuffer();
  if (!Text.consume_front(manifestHeader(Opts)))
    return whyNot("built by another Clang or with other arguments");
  while (Text.consume_front("with ")) {
    auto [Standard, Rest] = Text.split('\n');
    if (!Included.contains(Standard))
      return whyNot("the file does not include <" + Standard + ">");
    Text = Rest;
  }
  std::optional<std::string> PchStamp = stamp(Pch);
  if (!PchStamp || !Text.consume_front("pch " + *PchStamp + "\n"))
    return whyNot("changed since its manifest was written");
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
      return whyNot(Path + " changed since it was built");
    Inputs.push_back(Path.str());
  }
  return Inputs;
}

} // namespace

llvm::Expected<UsablePch> usableTilePch(const FrontendOptions &Opts,
                                        StringRef Source) {
  if (Opts.TilePchs.empty())
    return whyNot("none given");
  if (!Opts.ExtraArgs.empty())
    return whyNot("the translation has -I, -D or clang arguments");
  std::optional<llvm::StringSet<>> Included = leadingStandardHeaders(Source);
  if (!Included)
    return whyNot("the file has more than comments and standard headers "
                  "before #include <tile/tile.hpp>");
  std::string Reasons;
  for (const std::string &Pch : Opts.TilePchs) {
    llvm::Expected<std::vector<std::string>> Inputs =
        usablePch(Opts, Pch, *Included);
    if (Inputs)
      return UsablePch{Pch, std::move(*Inputs)};
    Reasons += (Reasons.empty() ? "" : "; ") + Pch + ": " +
               toString(Inputs.takeError());
  }
  return whyNot(Reasons);
}

} // namespace tilecc::frontend
