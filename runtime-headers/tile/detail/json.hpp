//===- tile/detail/json.hpp - The JSON the tuning cache needs --*- C++ -*-===//
//
// The launch wrappers read and write the autotuning cache without a JSON
// library (a user's project need not have one): a reader for RFC 8259 text
// into a small value tree, and the escaping a writer needs. Numbers keep
// their text, so that 64-bit keys are read exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_JSON_HPP
#define TILE_DETAIL_JSON_HPP

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::detail::json {

struct value {
  enum class kind { null, boolean, number, string, array, object };
  kind type = kind::null;
  bool truth = false;
  std::string text; // a string's characters, a number's digits
  /// An array's elements; an object's members' values, named by keys.
  std::vector<value> items;
  std::vector<std::string> keys;

  const value *find(std::string_view key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key)
        return &items[i];
    return nullptr;
  }
  /// Adds a member to an object.
  value &add(std::string key, value v) {
    keys.push_back(std::move(key));
    items.push_back(std::move(v));
    return items.back();
  }
  /// A number that is an integer in range of long long.
  std::optional<long long> integer() const {
    if (type != kind::number || text.find_first_of(".eE") != std::string::npos)
      return std::nullopt;
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno || *end)
      return std::nullopt;
    return v;
  }
  std::optional<double> real() const {
    if (type != kind::number)
      return std::nullopt;
    return std::strtod(text.c_str(), nullptr);
  }
};

/// Parses text; on an error, nothing, with error_at set to the byte where
/// the text stops being JSON.
class reader {
public:
  explicit reader(std::string_view text) : s(text) {}

  std::optional<value> parse(std::size_t &error_at) {
    value v;
    skip_space();
    if (!parse_value(v, 0) || (skip_space(), pos != s.size())) {
      error_at = pos;
      return std::nullopt;
    }
    return v;
  }

private:
  static constexpr int max_depth = 64;

  void skip_space() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' ||
                              s[pos] == '\n' || s[pos] == '\r'))
      ++pos;
  }
  bool literal(std::string_view word) {
    if (s.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  bool parse_value(value &v, int depth) {
    if (pos >= s.size() || depth > max_depth)
      return false;
    switch (s[pos]) {
    case '{':
      return parse_object(v, depth);
    case '[':
      return parse_array(v, depth);
    case '"':
      v.type = value::kind::string;
      return parse_string(v.text);
    case 't':
      v.type = value::kind::boolean;
      v.truth = true;
      return literal("true");
    case 'f':
      v.type = value::kind::boolean;
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return parse_number(v);
    }
  }

  bool parse_object(value &v, int depth) {
    v.type = value::kind::object;
    ++pos;
    skip_space();
    if (pos < s.size() && s[pos] == '}')
      return ++pos, true;
    for (;;) {
      skip_space();
      std::string key;
      if (pos >= s.size() || s[pos] != '"' || !parse_string(key))
        return false;
      skip_space();
      if (pos >= s.size() || s[pos++] != ':')
        return false;
      skip_space();
      value member;
      if (!parse_value(member, depth + 1))
        return false;
      v.add(std::move(key), std::move(member));
      skip_space();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      return pos < s.size() && s[pos++] == '}';
    }
  }

  bool parse_array(value &v, int depth) {
    v.type = value::kind::array;
    ++pos;
    skip_space();
    if (pos < s.size() && s[pos] == ']')
      return ++pos, true;
    for (;;) {
      skip_space();
      value item;
      if (!parse_value(item, depth + 1))
        return false;
      v.items.push_back(std::move(item));
      skip_space();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      return pos < s.size() && s[pos++] == ']';
    }
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }
  bool parse_hex4(unsigned &out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int d = pos < s.size() ? hex_digit(s[pos++]) : -1;
      if (d < 0)
        return false;
      out = out * 16 + unsigned(d);
    }
    return true;
  }
  static void append_utf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool parse_string(std::string &out) {
    ++pos; // the opening quote
    while (pos < s.size()) {
      const char c = s[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= s.size())
        return false;
      switch (const char e = s[pos++]) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp = 0;
        if (!parse_hex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
          unsigned low = 0;
          if (!literal("\\u") || !parse_hex4(low) || low < 0xDC00 ||
              low >= 0xE000)
            return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return false;
        }
        append_utf8(out, cp);
        break;
      }
      default:
        return false;
      }
    }
    return false;
  }

  bool parse_number(value &v) {
    const std::size_t start = pos;
    auto digits = [&] {
      const std::size_t from = pos;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
        ++pos;
      return pos > from;
    };
    if (pos < s.size() && s[pos] == '-')
      ++pos;
    if (pos < s.size() && s[pos] == '0')
      ++pos;
    else if (!digits())
      return false;
    if (pos < s.size() && s[pos] == '.' && (++pos, !digits()))
      return false;
    if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
      ++pos;
      if (pos < s.size() && (s[pos] == '+' || s[pos] == '-'))
        ++pos;
      if (!digits())
        return false;
    }
    v.type = value::kind::number;
    v.text = std::string(s.substr(start, pos - start));
    return true;
  }

  std::string_view s;
  std::size_t pos = 0;
};

/// text as a JSON string, quotes included.
inline std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 0xF];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// v as JSON text on one line, appended to out (numbers as they were read
/// or made).
inline void write(const value &v, std::string &out) {
  switch (v.type) {
  case value::kind::null:
    out += "null";
    return;
  case value::kind::boolean:
    out += v.truth ? "true" : "false";
    return;
  case value::kind::number:
    out += v.text;
    return;
  case value::kind::string:
    out += quote(v.text);
    return;
  case value::kind::array:
  case value::kind::object: {
    const bool object = v.type == value::kind::object;
    out += object ? '{' : '[';
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      out += i ? ", " : "";
      if (object)
        out += quote(v.keys[i]) + ": ";
      write(v.items[i], out);
    }
    out += object ? '}' : ']';
    return;
  }
  }
}

} // namespace tile::detail::json

#endif
