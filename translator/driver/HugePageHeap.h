//===- HugePageHeap.h - Back the heap with transparent huge pages ---------===//
//
// A translation allocates 100-170 MB in small pieces (Clang's AST, the
// precompiled header's declarations, the IR) and touches each page once. On
// 4 KB pages a fifth of tilecc's time is page faults and TLB misses.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DRIVER_HUGEPAGEHEAP_H
#define TILECC_DRIVER_HUGEPAGEHEAP_H

namespace tilecc {

/// Asks that the main thread's heap, from here on, be backed by transparent
/// huge pages where the kernel allows them (THP "always" or "madvise"), as
/// glibc's glibc.malloc.hugetlb=1 tunable would, without an environment
/// variable. Does nothing where the C library is not glibc on Linux.
void backHeapWithHugePages();

} // namespace tilecc

#endif
