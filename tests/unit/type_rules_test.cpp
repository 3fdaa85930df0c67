// The translator's promotion table (ir/TypeRules) must agree with the one the
// emulation header implements (tile::promote_t), pair by pair: that is what
// makes the header the single source of the rules.
#include "ir/TypeRules.h"
#include <tile/tile.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>

using namespace tilecc::ir;

namespace {

template <class T> constexpr ScalarKind kindOf() {
  if constexpr (std::is_same_v<T, bool>)
    return ScalarKind::I1;
  else if constexpr (std::is_same_v<T, int8_t>)
    return ScalarKind::I8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return ScalarKind::I16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return ScalarKind::I32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return ScalarKind::I64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ScalarKind::U8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return ScalarKind::U16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return ScalarKind::U32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return ScalarKind::U64;
  else if constexpr (std::is_same_v<T, tile::half>)
    return ScalarKind::F16;
  else if constexpr (std::is_same_v<T, tile::bfloat16>)
    return ScalarKind::BF16;
  else if constexpr (std::is_same_v<T, float>)
    return ScalarKind::F32;
  else
    return ScalarKind::F64;
}

using AllTypes =
    std::tuple<bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
               uint32_t, uint64_t, tile::half, tile::bfloat16, float, double>;

template <class A, class... Bs> int checkRow(std::tuple<Bs...>) {
  int Mismatches = 0;
  auto One = [&](auto B) {
    using BT = decltype(B);
    ScalarKind Header = kindOf<tile::promote_t<A, BT>>();
    ScalarKind Table = promote(kindOf<A>(), kindOf<BT>());
    if (Header != Table) {
      ++Mismatches;
      MESSAGE("promote(" << spell(kindOf<A>()).str() << ", "
                         << spell(kindOf<BT>()).str() << "): header "
                         << spell(Header).str() << ", translator "
                         << spell(Table).str());
    }
    ScalarKind WeakHeader = kindOf<tile::weak_promote_t<A, BT>>();
    ScalarKind WeakTable = promoteWithScalar(kindOf<A>(), kindOf<BT>());
    if (WeakHeader != WeakTable) {
      ++Mismatches;
      MESSAGE("weak(" << spell(kindOf<A>()).str() << ", "
                      << spell(kindOf<BT>()).str() << "): header "
                      << spell(WeakHeader).str() << ", translator "
                      << spell(WeakTable).str());
    }
  };
  (One(Bs{}), ...);
  return Mismatches;
}

template <class... As> int checkAll(std::tuple<As...> Rows) {
  return (checkRow<As>(Rows) + ...);
}

} // namespace

TEST_CASE("translator promotion agrees with tile::promote_t for every pair") {
  CHECK(checkAll(AllTypes{}) == 0);
}

TEST_CASE("promotion follows Triton's examples") {
  CHECK(promote(ScalarKind::I8, ScalarKind::U8) == ScalarKind::U8);
  CHECK(promote(ScalarKind::I32, ScalarKind::U64) == ScalarKind::U64);
  CHECK(promote(ScalarKind::I16, ScalarKind::U8) == ScalarKind::I16);
  CHECK(promote(ScalarKind::BF16, ScalarKind::F16) == ScalarKind::F16);
  CHECK(promote(ScalarKind::BF16, ScalarKind::I32) == ScalarKind::F32);
  CHECK(promote(ScalarKind::F16, ScalarKind::I64) == ScalarKind::F16);
  CHECK(promoteWithScalar(ScalarKind::F16, ScalarKind::F32) == ScalarKind::F16);
  CHECK(promoteWithScalar(ScalarKind::I8, ScalarKind::I32) == ScalarKind::I8);
  CHECK(promoteWithScalar(ScalarKind::I8, ScalarKind::F64) == ScalarKind::F32);
}
