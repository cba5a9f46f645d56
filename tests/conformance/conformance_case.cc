#include "tests/conformance/conformance_case.h"

#include <zlib.h>

#include <cmath>
#include <complex>
#include <string>
#include <type_traits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "core/types.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"

namespace rill {
namespace {

template <typename T>
double AsDouble(const T& v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

template <typename T>
std::string Show(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("\"", v, "\"");
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return absl::StrCat("(", v.real(), ",", v.imag(), ")");
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    return absl::StrCat(static_cast<int64_t>(v));
  } else {
    std::ostringstream s;
    s.precision(9);
    s << AsDouble(v);
    return s.str();
  }
}

bool CloseEnough(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

template <typename T>
bool ElementMatches(const T& got, const T& want, double rtol, double atol) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    return CloseEnough(got.real(), want.real(), rtol, atol) &&
           CloseEnough(got.imag(), want.imag(), rtol, atol);
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                       std::is_same_v<T, bfloat16>) {
    return CloseEnough(AsDouble(got), AsDouble(want), rtol, atol);
  } else {
    return got == want;
  }
}

}  // namespace

absl::StatusOr<std::string> ReadTextMaybeGzipped(const std::string& path) {
  // <Op>.pbtxt, or <Op>.pbtxt.gz as the generators write them (gzip reads both).
  gzFile in = gzopen(path.c_str(), "rb");
  if (in == nullptr)
    return absl::NotFoundError(absl::StrCat("Cannot read conformance file ", path));
  std::string text;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(in, buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  const bool read_error = n < 0;
  gzclose(in);
  if (read_error)
    return absl::DataLossError(absl::StrCat("Conformance file ", path, " is corrupt"));
  return text;
}

absl::StatusOr<std::vector<ConformanceSuite>> LoadSuites(const std::vector<std::string>& paths) {
  std::vector<ConformanceSuite> suites;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadTextMaybeGzipped(path);
    if (!text.ok()) return text.status();
    ConformanceSuite suite;
    if (!google::protobuf::TextFormat::ParseFromString(*text, &suite)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Conformance file ", path, " is not a text ConformanceSuite"));
    }
    suites.push_back(std::move(suite));
  }
  return suites;
}

std::string CompareTensors(int output, const Tensor& got, const Tensor& want, double rtol,
                           double atol) {
  if (got.dtype() != want.dtype()) {
    return absl::StrCat("output ", output, ": got dtype ", DataTypeString(got.dtype()), ", want ",
                        DataTypeString(want.dtype()));
  }
  if (got.shape() != want.shape()) {
    return absl::StrCat("output ", output, ": got shape ", got.shape().DebugString(), ", want ",
                        want.shape().DebugString());
  }
  std::string mismatch;
  // Quantized elements compare (exactly) as the integers they hold.
  absl::Status visited = VisitDataType(QuantizedStorageType(got.dtype()), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const absl::Span<const T> g(static_cast<const T*>(got.raw_data()), got.NumElements());
    const absl::Span<const T> w(static_cast<const T*>(want.raw_data()), want.NumElements());
    for (int64_t i = 0; i < got.NumElements(); ++i) {
      if (!ElementMatches<T>(g[i], w[i], rtol, atol)) {
        mismatch = absl::StrCat("output ", output, " element ", i, ": got ", Show<T>(g[i]),
                                ", want ", Show<T>(w[i]), " (rtol ", rtol, ", atol ", atol, ")");
        break;
      }
    }
    return absl::OkStatus();
  });
  if (!visited.ok()) return std::string(visited.message());
  return mismatch;
}

std::string RunConformanceCase(const ConformanceCase& c, const SessionOptions& options) {
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  if (!session.ok()) return absl::StrCat("Session::New: ", session.status().ToString());
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const ConformanceFeed& f : c.feed()) {
    absl::StatusOr<Tensor> t = TensorFromProto(f.value());
    if (!t.ok()) return absl::StrCat("feed ", f.name(), ": ", t.status().ToString());
    feeds.emplace_back(f.name(), *std::move(t));
  }
  std::vector<std::string> fetches(c.fetch().begin(), c.fetch().end());
  std::vector<Tensor> outputs;
  absl::Status status = (*session)->Create(c.graph());
  if (status.ok()) status = (*session)->Run(feeds, fetches, {}, &outputs);

  if (!c.error_code().empty()) {
    if (status.ok()) {
      return absl::StrCat("Rill succeeded; TensorFlow failed with ", c.error_code(), ": ",
                          c.error_message());
    }
    const std::string code = absl::StatusCodeToString(status.code());  // "INVALID_ARGUMENT"
    if (code != c.error_code()) {
      return absl::StrCat("got ", code, " \"", status.message(), "\", want ", c.error_code(), " \"",
                          c.error_message(), "\"");
    }
    for (const std::string& phrase : c.error_key_phrase()) {
      if (!absl::StrContains(status.message(), phrase)) {
        return absl::StrCat("message \"", status.message(), "\" lacks \"", phrase,
                            "\" (TensorFlow: \"", c.error_message(), "\")");
      }
    }
    return "";
  }
  if (!status.ok()) return absl::StrCat("Rill failed: ", status.ToString());
  if (outputs.size() != static_cast<size_t>(c.expected_size())) {
    return absl::StrCat("got ", outputs.size(), " outputs, want ", c.expected_size());
  }
  for (int i = 0; i < c.expected_size(); ++i) {
    absl::StatusOr<Tensor> want = TensorFromProto(c.expected(i));
    if (!want.ok()) return absl::StrCat("expected ", i, ": ", want.status().ToString());
    std::string diff = CompareTensors(i, outputs[i], *want, c.rtol(), c.atol());
    if (!diff.empty()) return diff;
  }
  return "";
}

}  // namespace rill
