// The template renderer that fills templates/*.tmpl.
#include "codegen/Renderer.h"

#include <doctest/doctest.h>

using tilecc::codegen::render;

TEST_CASE("names, sections and inverted sections") {
  nlohmann::json D = {{"kernel", "add"},
                      {"n", 2},
                      {"items", {{{"x", "a"}}, {{"x", "b"}}}},
                      {"empty", ""}};
  std::string Err;
  CHECK(render("k={{kernel}} n={{n}}", D, Err) == "k=add n=2");
  CHECK(render("{{#items}}[{{x}}{{kernel}}]{{/items}}", D, Err) ==
        "[aadd][badd]");
  CHECK(render("{{#empty}}yes{{/empty}}{{^empty}}no{{/empty}}", D, Err) ==
        "no");
  CHECK(Err.empty());
}

TEST_CASE("section tags alone on a line take the line with them") {
  nlohmann::json D = {{"items", {{{"x", "1"}}, {{"x", "2"}}}}};
  std::string Err;
  CHECK(render("a\n{{#items}}\nline {{x}}\n{{/items}}\nb\n", D, Err) ==
        "a\nline 1\nline 2\nb\n");
}

TEST_CASE("names in the body of an empty list belong to its items") {
  nlohmann::json D = {{"items", nlohmann::json::array()}};
  std::string Err;
  CHECK(render("[{{#items}}{{x}}{{/items}}]", D, Err) == "[]");
  CHECK(Err.empty());
  render("{{#items}}{{x}}{{/items}}", nlohmann::json{{"items", {{{"y", 1}}}}},
         Err);
  CHECK(Err.find("x") != std::string::npos);
}

TEST_CASE("template errors are reported, not rendered silently") {
  std::string Err;
  render("{{nope}}", nlohmann::json::object(), Err);
  CHECK(Err.find("nope") != std::string::npos);
  Err.clear();
  render("{{#a}}x", nlohmann::json{{"a", true}}, Err);
  CHECK(Err.find("missing") != std::string::npos);
}
