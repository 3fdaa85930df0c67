//===- TuningTable.h - Measured choices compiled into a wrapper -*- C++ -*-===//
//
// A tuning table (add_tile_kernel's TUNING_TABLE, tilecc --tuning-table) is
// the JSON the autotuner writes to $TILECC_CACHE_DIR, reviewed and checked
// in: per kernel, device and key, the configurations fastest first, named
// as configName() names them. The launch wrapper launches from it without
// measuring. A name that is not one of the kernel's configurations is an
// error here, not a row that silently never matches.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_TUNINGTABLE_H
#define TILECC_CODEGEN_TUNINGTABLE_H

#include "frontend/Frontend.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tilecc::codegen {

/// How the tuning cache, the tables and the wrapper's comments name a
/// configuration: "ROWS=4, BLOCK=1024 num_warps=8 num_stages=1", then
/// what else it sets.
std::string configName(const frontend::Kernel &K, const frontend::Config &C);

/// The table's rows for K as the wrapper's template takes them ("device",
/// "key" and "ranking" as C++ initializers); rows for other kernels are
/// skipped (one table may serve several files). Nothing, with Error and
/// the entry's index set, for a row of K's that is malformed or names a
/// configuration K lacks.
std::optional<nlohmann::json> tuningTableRows(const nlohmann::json &Table,
                                              const frontend::Kernel &K,
                                              std::string &Error,
                                              size_t &Entry);

/// Where, in the table's text, entry N of its "entries" starts: a 1-based
/// line and column (1:1 if it cannot be found).
ir::SourceLoc entryLocation(llvm::StringRef Text, size_t N);

/// The 1-based line and column of byte Offset of Text.
ir::SourceLoc locationOf(llvm::StringRef Text, size_t Offset);

} // namespace tilecc::codegen

#endif
