//===- Renderer.h - Fills text templates with JSON data ---------*- C++ -*-===//
//
// A small subset of Mustache, enough for templates/:
//   {{name}}              the value of name (string or number), looked up in
//                         the innermost section first
//   {{#name}}...{{/name}} repeated for each element of an array; once for a
//                         true value or an object (which becomes the context)
//   {{^name}}...{{/name}} once when name is missing, false or empty
// No escaping: the output is C++, not HTML.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_RENDERER_H
#define TILECC_CODEGEN_RENDERER_H

#include <nlohmann/json.hpp>
#include <string>

namespace tilecc::codegen {

/// Renders Template with Data; an unknown section or unbalanced tag is a
/// template bug and is reported in Error.
std::string render(const std::string &Template, const nlohmann::json &Data,
                   std::string &Error);

} // namespace tilecc::codegen

#endif
