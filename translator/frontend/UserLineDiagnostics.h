//===- UserLineDiagnostics.h - Library errors at the user's line ----------===//
//
// A kernel that misuses a tile:: operation fails a check inside tile's own
// headers: Clang reports the header's line and leaves the user's call to a
// note of the instantiation stack. This consumer prints such an error at
// the user's line instead, with the header's detail as notes after it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_USERLINEDIAGNOSTICS_H
#define TILECC_FRONTEND_USERLINEDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include <memory>
#include <string>
#include <vector>

namespace tilecc::frontend {

/// Prints diagnostics as Clang's TextDiagnosticPrinter does, except an
/// error located under LibraryDir: its instantiation stack's innermost
/// frame outside LibraryDir (the user's call into the library) becomes the
/// error's place. A failed static_assert reads as its message; the
/// library's line follows as a note with Clang's full text, then the
/// frames as Clang printed them, less the one the error now stands on. An
/// error with no frame outside LibraryDir is printed as it was.
class UserLineDiagnostics : public clang::DiagnosticConsumer {
public:
  UserLineDiagnostics(llvm::raw_ostream &OS, clang::DiagnosticOptions *Opts,
                      llvm::StringRef LibraryDir);

  void BeginSourceFile(const clang::LangOptions &LangOpts,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  void finish() override;

private:
  bool inLibrary(const clang::FullSourceLoc &Loc) const;
  /// Prints the held error and its notes.
  void release();

  llvm::raw_ostream &OS;
  clang::DiagnosticOptions *Opts;
  std::string LibraryDir;
  clang::TextDiagnosticPrinter Printer;
  std::unique_ptr<clang::TextDiagnostic> Renderer;
  /// Where an error's instantiation stack leaves the library.
  struct InstantiationContext {
    bool HasFrames = false;
    /// The innermost frame outside the library; invalid if none is.
    clang::FullSourceLoc UserFrame;
  };
  /// The latest error's, and that of the latest error that had frames.
  InstantiationContext Context, PreviousContext;
  /// An error in the library, then the notes that follow it.
  std::vector<clang::StoredDiagnostic> Held;
  /// What the held error says at the user's line.
  std::string UserMessage;
};

} // namespace tilecc::frontend

#endif
