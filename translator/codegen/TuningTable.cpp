//===- TuningTable.cpp - Measured choices compiled into a wrapper ---------===//
#include "codegen/TuningTable.h"
#include "llvm/ADT/StringExtras.h"

using nlohmann::json;

namespace tilecc::codegen {

namespace {

/// At most this many key values and ranked configurations per row, as
/// tile::tuning::list holds.
constexpr size_t RowCapacity = 16;

const char *assumptionName(ir::Assumption A) {
  switch (A) {
  case ir::Assumption::None:
    return "none";
  case ir::Assumption::Aligned16:
    return "aligned16";
  case ir::Assumption::UnitStride:
    return "unit_stride";
  }
  return "none";
}

/// A C++ string literal of S (device names are printable ASCII, but a
/// table is user input).
std::string cxxString(const std::string &S) {
  std::string Out = "\"";
  for (const char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) < 0x20) {
      Out += "\\x" + llvm::utohexstr(static_cast<unsigned char>(C), true, 2);
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

} // namespace

std::string configName(const frontend::Kernel &K, const frontend::Config &C) {
  std::string S;
  for (unsigned I = 0; I < K.MetaNames.size() && I < C.Meta.size(); ++I)
    S += (I ? ", " : "") + K.MetaNames[I] + "=" + std::to_string(C.Meta[I]);
  S += (S.empty() ? "" : " ") + std::string("num_warps=") +
       std::to_string(C.NumWarps) +
       " num_stages=" + std::to_string(C.NumStages);
  if (C.MinProgramsPerSM != 1)
    S += " min_programs_per_sm=" + std::to_string(C.MinProgramsPerSM);
  if (C.WarpSpecialize)
    S += " warp_specialize";
  if (C.PingPong)
    S += " pingpong";
  if (C.LaunchPdl)
    S += " launch_pdl";
  if (C.Assume != ir::Assumption::None)
    S += std::string(" assume=") + assumptionName(C.Assume);
  if (!C.Autotune)
    S += " autotune=false";
  if (C.RegisterPrefetch)
    S += " register_prefetch";
  return S;
}

std::optional<json> tuningTableRows(const json &Table,
                                    const frontend::Kernel &K,
                                    std::string &Error, size_t &Entry) {
  Entry = 0;
  const json *Entries = Table.is_object() && Table.contains("entries")
                            ? &Table["entries"]
                            : nullptr;
  if (!Entries || !Entries->is_array()) {
    Error = "a tuning table is an object whose \"entries\" is an array";
    return std::nullopt;
  }
  std::vector<std::string> Names;
  for (const frontend::KernelInstance &I : K.Instances)
    Names.push_back(configName(K, I.Cfg));
  json Rows = json::array();
  for (size_t N = 0; N < Entries->size(); ++N) {
    const json &E = (*Entries)[N];
    Entry = N;
    if (!E.is_object() || !E.contains("kernel") || !E["kernel"].is_string()) {
      Error = "this entry has no \"kernel\" string";
      return std::nullopt;
    }
    if (E["kernel"] != K.Name)
      continue;
    const std::string Of = "the entry for " + K.Name;
    if (E.contains("device") && !E["device"].is_string()) {
      Error = Of + ": \"device\" is not a string";
      return std::nullopt;
    }
    const json &Key = E.value("key", json());
    const json &Ranking = E.value("ranking", json());
    if (!Key.is_array() || Key.size() > RowCapacity ||
        !llvm::all_of(Key,
                      [](const json &V) { return V.is_number_integer(); })) {
      Error = Of + ": \"key\" is not an array of at most " +
              std::to_string(RowCapacity) + " integers";
      return std::nullopt;
    }
    if (!Ranking.is_array() || Ranking.empty()) {
      Error = Of + ": \"ranking\" is not a non-empty array";
      return std::nullopt;
    }
    std::string KeyText = "{", RankingText = "{";
    for (size_t I = 0; I < Key.size(); ++I)
      KeyText += (I ? ", " : "") + std::to_string(Key[I].get<long long>());
    for (size_t I = 0; I < Ranking.size() && I < RowCapacity; ++I) {
      const json &R = Ranking[I];
      if (!R.is_object() || !R.contains("name") || !R["name"].is_string()) {
        Error = Of + ": ranking " + std::to_string(I) + " has no \"name\"";
        return std::nullopt;
      }
      const std::string Name = R["name"];
      const auto It = llvm::find(Names, Name);
      if (It == Names.end()) {
        Error = Of + ": '" + Name + "' is not a configuration of " + K.Name +
                "; they are: '" + llvm::join(Names, "', '") + "'";
        return std::nullopt;
      }
      if (!K.Instances[It - Names.begin()].Cfg.Autotune) {
        Error = Of + ": '" + Name +
                "' is not chosen by autotuning (tile::config::autotune is "
                "false)";
        return std::nullopt;
      }
      RankingText += (I ? ", " : "") + std::to_string(It - Names.begin());
    }
    Rows.push_back({{"device", cxxString(E.value("device", ""))},
                    {"key", KeyText + "}"},
                    {"ranking", RankingText + "}"}});
  }
  return Rows;
}

ir::SourceLoc locationOf(llvm::StringRef Text, size_t Offset) {
  ir::SourceLoc L{1, 1};
  for (size_t I = 0; I < Offset && I < Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++L.Line;
      L.Col = 1;
    } else {
      ++L.Col;
    }
  }
  return L;
}

ir::SourceLoc entryLocation(llvm::StringRef Text, size_t N) {
  // Depth 1 is the table's object; its "entries" array's elements start at
  // depth 2.
  unsigned Depth = 0;
  bool InEntries = false;
  size_t Seen = 0;
  std::string LastKey;
  for (size_t I = 0; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '"') {
      const size_t Start = ++I;
      while (I < Text.size() && Text[I] != '"')
        I += Text[I] == '\\' ? 2 : 1;
      if (Depth == 1)
        LastKey = Text.slice(Start, I).str();
      continue;
    }
    if (C == '[' || C == '{') {
      if (Depth == 1 && C == '[')
        InEntries = LastKey == "entries";
      else if (Depth == 2 && InEntries && Seen++ == N)
        return locationOf(Text, I);
      ++Depth;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return {1, 1};
}

} // namespace tilecc::codegen
