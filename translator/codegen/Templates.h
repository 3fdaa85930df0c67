//===- Templates.h - The text skeletons of generated files ------*- C++ -*-===//
//
// The contents of templates/*.tmpl, embedded at build time (see
// translator/CMakeLists.txt) so that tilecc needs no data files at run time.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_TEMPLATES_H
#define TILECC_CODEGEN_TEMPLATES_H

namespace tilecc::codegen::templates {
extern const char KernelCu[];
extern const char LaunchH[];
extern const char LaunchCpp[];
} // namespace tilecc::codegen::templates

#endif
