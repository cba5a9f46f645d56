#include "tools/npy/npy.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/status_macros.h"

namespace rill {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct Descr {
  DataType dtype = DT_INVALID;
  int item = 0;            // bytes per element in the file
  bool big_endian = false;
  bool unicode = false;    // '<U'
  bool bytes = false;      // '|S'
};

absl::Status Bad(const std::string& name, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(name, " is not a valid .npy file: ", why));
}

absl::StatusOr<Descr> ParseDescr(const std::string& d, const std::string& name) {
  if (d.size() < 3) return Bad(name, absl::StrCat("unknown descr '", d, "'"));
  Descr out;
  const char order = d[0];
  out.big_endian = order == '>';
  const char kind = d[1];
  int size = 0;
  if (!absl::SimpleAtoi(d.substr(2), &size) || size <= 0) {
    return Bad(name, absl::StrCat("unknown descr '", d, "'"));
  }
  out.item = size;
  switch (kind) {
    case 'f':
      out.dtype = size == 2 ? DT_HALF : size == 4 ? DT_FLOAT : size == 8 ? DT_DOUBLE : DT_INVALID;
      break;
    case 'i':
      out.dtype = size == 1 ? DT_INT8 : size == 2 ? DT_INT16 : size == 4 ? DT_INT32
                  : size == 8 ? DT_INT64 : DT_INVALID;
      break;
    case 'u':
      out.dtype = size == 1 ? DT_UINT8 : size == 2 ? DT_UINT16 : size == 4 ? DT_UINT32
                  : size == 8 ? DT_UINT64 : DT_INVALID;
      break;
    case 'b': out.dtype = size == 1 ? DT_BOOL : DT_INVALID; break;
    case 'c': out.dtype = size == 8 ? DT_COMPLEX64 : size == 16 ? DT_COMPLEX128 : DT_INVALID; break;
    case 'S': out.dtype = DT_STRING; out.bytes = true; break;
    case 'U': out.dtype = DT_STRING; out.unicode = true; out.item = 4 * size; break;
    case 'O':
      return absl::InvalidArgumentError(absl::StrCat(
          name, " holds an object array (pickled Python objects), which Rill cannot read; save it "
                "with a fixed-width dtype (e.g. arr.astype('S') or np.float32)"));
    default: break;
  }
  if (out.dtype == DT_INVALID) return Bad(name, absl::StrCat("unsupported descr '", d, "'"));
  return out;
}

// Value of `key` in numpy's header dict literal, e.g. "'<f4'", "False", "(2, 3)".
absl::StatusOr<std::string> DictValue(const std::string& header, const std::string& key,
                                      const std::string& name) {
  const std::string k = absl::StrCat("'", key, "'");
  size_t p = header.find(k);
  if (p == std::string::npos) return Bad(name, absl::StrCat("header has no '", key, "'"));
  p = header.find(':', p + k.size());
  if (p == std::string::npos) return Bad(name, "header is not a dict");
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  size_t end;
  if (header[p] == '(') {
    end = header.find(')', p);
    if (end == std::string::npos) return Bad(name, "unclosed shape tuple");
    ++end;
  } else if (header[p] == '\'') {
    end = header.find('\'', p + 1);
    if (end == std::string::npos) return Bad(name, "unclosed string in header");
    ++end;
  } else {
    end = header.find_first_of(",}", p);
  }
  return std::string(absl::StripAsciiWhitespace(header.substr(p, end - p)));
}

void Utf8Append(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string NumpyDescr(DataType dt) {
  switch (dt) {
    case DT_HALF: return "<f2";
    case DT_FLOAT: return "<f4";
    case DT_DOUBLE: return "<f8";
    case DT_INT8: return "|i1";
    case DT_INT16: return "<i2";
    case DT_INT32: return "<i4";
    case DT_INT64: return "<i8";
    case DT_UINT8: return "|u1";
    case DT_UINT16: return "<u2";
    case DT_UINT32: return "<u4";
    case DT_UINT64: return "<u8";
    case DT_BOOL: return "|b1";
    case DT_COMPLEX64: return "<c8";
    case DT_COMPLEX128: return "<c16";
    default: return "";
  }
}

}  // namespace

absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != absl::string_view(kMagic, 6)) {
    return Bad(name, "missing the \\x93NUMPY magic");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Bad(name, "truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= size_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
    offset = 12;
  } else {
    return Bad(name, absl::StrCat("unsupported format version ", major));
  }
  if (bytes.size() < offset + header_len) return Bad(name, "truncated header");
  const std::string header(bytes.substr(offset, header_len));
  if (header.find('{') == std::string::npos) return Bad(name, "header is not a dict");
  RILL_ASSIGN_OR_RETURN(std::string descr_text, DictValue(header, "descr", name));
  RILL_ASSIGN_OR_RETURN(std::string fortran_text, DictValue(header, "fortran_order", name));
  RILL_ASSIGN_OR_RETURN(std::string shape_text, DictValue(header, "shape", name));
  if (descr_text.size() < 2 || descr_text.front() != '\'') {
    return Bad(name, absl::StrCat("descr ", descr_text, " is not a simple dtype"));
  }
  RILL_ASSIGN_OR_RETURN(Descr descr, ParseDescr(descr_text.substr(1, descr_text.size() - 2), name));
  const bool fortran = fortran_text == "True";
  std::vector<int64_t> dims;
  for (absl::string_view part : absl::StrSplit(
           absl::StripSuffix(absl::StripPrefix(shape_text, "("), ")"), ',', absl::SkipWhitespace())) {
    int64_t d;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &d) || d < 0) {
      return Bad(name, absl::StrCat("bad shape ", shape_text));
    }
    dims.push_back(d);
  }
  absl::StatusOr<TensorShape> shape = TensorShape::FromDims(dims);
  if (!shape.ok()) return Bad(name, shape.status().message());
  const absl::string_view data = bytes.substr(offset + header_len);
  const int64_t n = shape->num_elements();
  if (static_cast<uint64_t>(data.size()) != static_cast<uint64_t>(n) * descr.item) {
    return Bad(name, absl::StrCat("data has ", data.size(), " bytes but shape ", shape_text,
                                  " of ", descr_text, " needs ", n * descr.item));
  }
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(CpuAllocator::Default(), descr.dtype, *shape));
  // Element i of the file in C order: for Fortran order, map the C index to the file's index.
  auto file_index = [&](int64_t c) -> int64_t {
    if (!fortran || dims.size() < 2) return c;
    int64_t f = 0, stride = 1, rem = c;
    std::vector<int64_t> idx(dims.size());
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      idx[d] = rem % dims[d];
      rem /= dims[d];
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      f += idx[d] * stride;
      stride *= dims[d];
    }
    return f;
  };
  if (descr.dtype == DT_STRING) {
    auto out = t.flat<std::string>();
    for (int64_t i = 0; i < n; ++i) {
      absl::string_view e = data.substr(file_index(i) * descr.item, descr.item);
      std::string s;
      if (descr.unicode) {
        for (size_t k = 0; k + 4 <= e.size(); k += 4) {
          uint32_t cp = 0;
          for (int b = 0; b < 4; ++b) {
            const int shift = descr.big_endian ? 8 * (3 - b) : 8 * b;
            cp |= uint32_t{static_cast<unsigned char>(e[k + b])} << shift;
          }
          if (cp == 0) break;
          Utf8Append(cp, &s);
        }
      } else {
        s = std::string(e.substr(0, e.find_last_not_of('\0') + 1));
        if (e.find_last_not_of('\0') == absl::string_view::npos) s.clear();
      }
      out[i] = std::move(s);
    }
    return t;
  }
  char* dst = static_cast<char*>(t.raw_data());
  const int item = descr.item;
  const int part = descr.dtype == DT_COMPLEX64 || descr.dtype == DT_COMPLEX128 ? item / 2 : item;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * item, data.data() + file_index(i) * item, item);
    if (descr.big_endian) {
      for (int p = 0; p < item; p += part) std::reverse(dst + i * item + p, dst + i * item + p + part);
    }
  }
  return t;
}

absl::StatusOr<Tensor> ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(".npy file ", path, " cannot be read"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseNpy(ss.str(), path);
}

absl::StatusOr<std::string> SerializeNpy(const Tensor& t) {
  std::string descr = NumpyDescr(t.dtype());
  size_t width = 1;
  if (t.dtype() == DT_STRING) {
    for (const std::string& s : t.flat<std::string>()) width = std::max(width, s.size());
    descr = absl::StrCat("|S", width);
  } else if (descr.empty()) {
    return absl::UnimplementedError(absl::StrCat("cannot write a tensor of dtype ",
                                                 DataTypeString(t.dtype()),
                                                 " as .npy: numpy has no such dtype"));
  }
  std::vector<std::string> dims;
  for (int64_t d : t.shape().dims()) dims.push_back(absl::StrCat(d));
  std::string shape = absl::StrCat("(", absl::StrJoin(dims, ", "), dims.size() == 1 ? ",)" : ")");
  std::string header = absl::StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': ",
                                    shape, ", }");
  // Pad with spaces and a newline so that the data starts on a 64-byte boundary, as numpy does.
  const bool v2 = header.size() + 11 > 65535;
  const size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out(kMagic, 6);
  out.push_back(static_cast<char>(v2 ? 2 : 1));
  out.push_back(0);
  const size_t len = header.size();
  for (int i = 0; i < (v2 ? 4 : 2); ++i) out.push_back(static_cast<char>((len >> (8 * i)) & 0xFF));
  out += header;
  if (t.dtype() == DT_STRING) {
    for (const std::string& s : t.flat<std::string>()) {
      out += s;
      out.append(width - s.size(), '\0');
    }
  } else {
    out.append(static_cast<const char*>(t.raw_data()), t.TotalBytes());
  }
  return out;
}

absl::Status WriteNpy(const std::string& path, const Tensor& t) {
  RILL_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(t));
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace rill
