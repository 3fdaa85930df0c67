//===- UserLineDiagnostics.cpp - Library errors at the user's line --------===//
#include "frontend/UserLineDiagnostics.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tilecc::frontend {

namespace {
/// Notes of Clang's instantiation stack: each names a place that asked for
/// the frame within it.
bool isInstantiationFrame(unsigned ID) {
  switch (ID) {
  case diag::note_function_template_spec_here:
  case diag::note_template_class_instantiation_here:
  case diag::note_template_member_class_here:
  case diag::note_template_member_function_here:
  case diag::note_template_static_data_member_def_here:
  case diag::note_template_variable_def_here:
  case diag::note_template_type_alias_instantiation_here:
  case diag::note_template_nsdmi_here:
  case diag::note_template_enum_def_here:
  case diag::note_template_exception_spec_instantiation_here:
  case diag::note_default_arg_instantiation_here:
  case diag::note_default_function_arg_instantiation_here:
  case diag::note_explicit_template_arg_substitution_here:
  case diag::note_function_template_deduction_instantiation_here:
  case diag::note_template_default_arg_checking:
  case diag::note_checking_constraints_for_function_here:
  case diag::note_checking_constraints_for_template_id_here:
  case diag::note_concept_specialization_here:
    return true;
  default:
    return false;
  }
}

/// A failed static_assert's own message, or Clang's whole text.
std::string userMessage(const Diagnostic &Info) {
  // Arguments: (the requirement,) whether there is no message, the message.
  const unsigned MessageArg =
      Info.getID() == diag::err_static_assert_requirement_failed ? 2 : 1;
  if ((Info.getID() == diag::err_static_assert_failed ||
       Info.getID() == diag::err_static_assert_requirement_failed) &&
      Info.getNumArgs() > MessageArg &&
      Info.getArgKind(MessageArg) == DiagnosticsEngine::ak_std_string &&
      !Info.getArgStdStr(MessageArg).empty())
    return Info.getArgStdStr(MessageArg);
  llvm::SmallString<128> Text;
  Info.FormatDiagnostic(Text);
  return Text.str().str();
}
} // namespace

UserLineDiagnostics::UserLineDiagnostics(llvm::raw_ostream &OS,
                                         DiagnosticOptions *Opts,
                                         llvm::StringRef LibraryDir)
    : OS(OS), Opts(Opts), Printer(OS, Opts) {
  llvm::SmallString<256> Dir(LibraryDir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::append(Dir, "tile");
  this->LibraryDir = (Dir + llvm::sys::path::get_separator()).str();
}

void UserLineDiagnostics::BeginSourceFile(const LangOptions &LangOpts,
                                          const Preprocessor *PP) {
  Printer.BeginSourceFile(LangOpts, PP);
  Renderer = std::make_unique<TextDiagnostic>(OS, LangOpts, Opts, PP);
}

void UserLineDiagnostics::EndSourceFile() {
  release();
  Printer.EndSourceFile();
  Renderer.reset();
}

void UserLineDiagnostics::finish() {
  release();
  Printer.finish();
}

bool UserLineDiagnostics::inLibrary(const FullSourceLoc &Loc) const {
  if (Loc.isInvalid())
    return false;
  const SourceManager &SM = Loc.getManager();
  llvm::SmallString<256> Name(SM.getFilename(SM.getExpansionLoc(Loc)));
  llvm::sys::path::remove_dots(Name, /*remove_dot_dot=*/true);
  return llvm::StringRef(Name).starts_with(LibraryDir);
}

void UserLineDiagnostics::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                           const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level == DiagnosticsEngine::Note) {
    if (isInstantiationFrame(Info.getID())) {
      FullSourceLoc Frame(Info.getLocation(), Info.getSourceManager());
      if (Context.UserFrame.isInvalid() && !inLibrary(Frame))
        Context.UserFrame = Frame;
      Context.HasFrames = true;
    }
    if (!Held.empty())
      Held.emplace_back(Level, Info);
    else
      Printer.HandleDiagnostic(Level, Info);
    return;
  }
  release();
  // Clang prints an instantiation stack once for the errors it holds in
  // common: an error without one has the previous error's.
  if (Context.HasFrames)
    PreviousContext = Context;
  Context = {};
  if (Level >= DiagnosticsEngine::Error && Info.hasSourceManager() &&
      inLibrary(FullSourceLoc(Info.getLocation(), Info.getSourceManager()))) {
    Held.emplace_back(Level, Info);
    UserMessage = userMessage(Info);
    return;
  }
  Printer.HandleDiagnostic(Level, Info);
}

void UserLineDiagnostics::release() {
  if (Held.empty())
    return;
  const FullSourceLoc User =
      Context.HasFrames ? Context.UserFrame : PreviousContext.UserFrame;
  if (User.isInvalid()) {
    for (StoredDiagnostic &D : Held)
      Renderer->emitStoredDiagnostic(D);
  } else {
    const StoredDiagnostic &Error = Held.front();
    Renderer->emitDiagnostic(User, Error.getLevel(), UserMessage, {}, {});
    Renderer->emitDiagnostic(Error.getLocation(), DiagnosticsEngine::Note,
                             Error.getMessage(), Error.getRanges(), {});
    for (StoredDiagnostic &D : llvm::drop_begin(Held))
      if (!(isInstantiationFrame(D.getID()) && D.getLocation() == User))
        Renderer->emitStoredDiagnostic(D);
  }
  OS.flush();
  Held.clear();
}

} // namespace tilecc::frontend
