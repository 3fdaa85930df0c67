//===- Renderer.cpp -------------------------------------------------------===//
#include "codegen/Renderer.h"
#include <vector>

namespace tilecc::codegen {

namespace {

class Renderer {
public:
  Renderer(const std::string &T, std::string &Error) : T(T), Error(Error) {}

  std::string run(const nlohmann::json &Data) {
    std::vector<const nlohmann::json *> Stack{&Data};
    std::string Out;
    size_t Pos = 0;
    renderUntil(Pos, "", Stack, Out);
    return Out;
  }

private:
  const nlohmann::json *lookup(const std::string &Name,
                               const std::vector<const nlohmann::json *> &S) {
    for (auto It = S.rbegin(); It != S.rend(); ++It)
      if ((*It)->is_object() && (*It)->contains(Name))
        return &(**It)[Name];
    return nullptr;
  }

  static bool truthy(const nlohmann::json *V) {
    if (!V || V->is_null())
      return false;
    if (V->is_boolean())
      return V->get<bool>();
    if (V->is_string())
      return !V->get_ref<const std::string &>().empty();
    if (V->is_array())
      return !V->empty();
    return true;
  }

  /// A standalone section tag on its own line takes the line with it, so
  /// templates can put tags on lines of their own.
  void skipTagLine(size_t &Pos, std::string &Out) {
    size_t LineStart = Out.rfind('\n');
    LineStart = LineStart == std::string::npos ? 0 : LineStart + 1;
    bool BlankBefore =
        Out.find_first_not_of(" ", LineStart) == std::string::npos;
    if (BlankBefore && Pos < T.size() && T[Pos] == '\n') {
      Out.resize(LineStart);
      ++Pos;
    }
  }

  void renderUntil(size_t &Pos, const std::string &Close,
                   std::vector<const nlohmann::json *> &Stack,
                   std::string &Out) {
    while (Pos < T.size()) {
      size_t Open = T.find("{{", Pos);
      if (Open == std::string::npos) {
        Out.append(T, Pos);
        Pos = T.size();
        break;
      }
      Out.append(T, Pos, Open - Pos);
      size_t End = T.find("}}", Open);
      if (End == std::string::npos) {
        Error = "unterminated tag";
        Pos = T.size();
        return;
      }
      std::string Tag = T.substr(Open + 2, End - Open - 2);
      Pos = End + 2;
      if (Tag.empty())
        continue;
      char Kind = Tag[0];
      std::string Name =
          Kind == '#' || Kind == '^' || Kind == '/' ? Tag.substr(1) : Tag;
      if (Kind == '/') {
        skipTagLine(Pos, Out);
        if (Name != Close)
          Error = "unexpected {{/" + Name + "}}";
        return;
      }
      if (Kind != '#' && Kind != '^') {
        const nlohmann::json *V = lookup(Name, Stack);
        // A skipped body's names may belong to items of an empty list.
        if (!V && !Skipping)
          Error = "unknown name '" + Name + "'";
        else if (!V)
          continue;
        else if (V->is_string())
          Out += V->get<std::string>();
        else
          Out += V->dump();
        continue;
      }
      skipTagLine(Pos, Out);
      const nlohmann::json *V = lookup(Name, Stack);
      size_t BodyStart = Pos;
      auto RenderBody = [&](const nlohmann::json *Ctx, bool Emit) {
        size_t P = BodyStart;
        std::string Sink;
        if (Ctx)
          Stack.push_back(Ctx);
        Skipping += !Emit;
        renderUntil(P, Name, Stack, Emit ? Out : Sink);
        Skipping -= !Emit;
        if (Ctx)
          Stack.pop_back();
        Pos = P;
      };
      if (Kind == '^') {
        RenderBody(nullptr, !truthy(V));
      } else if (V && V->is_array()) {
        if (V->empty())
          RenderBody(nullptr, false);
        for (const auto &Item : *V)
          RenderBody(&Item, true);
      } else {
        RenderBody(truthy(V) && V->is_object() ? V : nullptr, truthy(V));
      }
    }
    if (!Close.empty())
      Error = "missing {{/" + Close + "}}";
  }

  const std::string &T;
  std::string &Error;
  /// Depth of sections being skipped.
  unsigned Skipping = 0;
};

} // namespace

std::string render(const std::string &Template, const nlohmann::json &Data,
                   std::string &Error) {
  return Renderer(Template, Error).run(Data);
}

} // namespace tilecc::codegen
