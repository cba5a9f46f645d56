// The main() of a fuzz target when it is not built with libFuzzer (the default GCC build, and
// CI): replays every seed file named on the command line (files or directories), then derives
// mutated inputs from them (bit flips, byte overwrites, insertions, deletions, truncations, splices
// of two seeds) with a fixed random seed, so a smoke run is reproducible. Any crash, sanitizer
// report or assertion in the target fails the test. The real fuzzing is the same target built with
// `--config=fuzz` (clang + libFuzzer); see tests/fuzz/README.md.
//
// Flags: --mutations=N per seed (default 64), --max_seconds=S wall-clock budget (default 30),
// --random_seed=K.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
  uint64_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }

 private:
  uint64_t state_;
};

std::string Mutate(const std::string& seed, const std::vector<std::string>& seeds, Rng& rng) {
  std::string s = seed;
  const int edits = 1 + static_cast<int>(rng.Below(4));
  for (int e = 0; e < edits; ++e) {
    switch (rng.Below(6)) {
      case 0:  // flip one bit
        if (!s.empty()) s[rng.Below(s.size())] ^= static_cast<char>(1u << rng.Below(8));
        break;
      case 1:  // overwrite a byte with an interesting value
        if (!s.empty()) {
          static const uint8_t kInteresting[] = {0, 1, 0x7f, 0x80, 0xff, '0', '-', ':', '{'};
          s[rng.Below(s.size())] = static_cast<char>(kInteresting[rng.Below(sizeof(kInteresting))]);
        }
        break;
      case 2:  // insert a random byte
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(rng.Below(s.size() + 1)),
                 static_cast<char>(rng.Next()));
        break;
      case 3:  // delete a range
        if (!s.empty()) {
          const size_t at = rng.Below(s.size());
          s.erase(at, 1 + rng.Below(std::min<size_t>(16, s.size() - at)));
        }
        break;
      case 4:  // truncate
        s.resize(rng.Below(s.size() + 1));
        break;
      default: {  // splice with another seed
        const std::string& other = seeds[rng.Below(seeds.size())];
        s = s.substr(0, rng.Below(s.size() + 1)) + other.substr(rng.Below(other.size() + 1));
        break;
      }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int mutations = 64;
  double max_seconds = 30;
  uint64_t random_seed = 1;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--mutations=", 0) == 0) {
      mutations = std::atoi(arg.c_str() + 12);
    } else if (arg.rfind("--max_seconds=", 0) == 0) {
      max_seconds = std::atof(arg.c_str() + 14);
    } else if (arg.rfind("--random_seed=", 0) == 0) {
      random_seed = std::strtoull(arg.c_str() + 14, nullptr, 10);
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) seeds.push_back(ReadFile(entry.path()));
      }
    } else if (std::filesystem::is_regular_file(arg)) {
      seeds.push_back(ReadFile(arg));
    } else {
      std::fprintf(stderr, "no such seed file or directory: %s\n", arg.c_str());
      return 2;
    }
  }
  if (seeds.empty()) seeds.push_back("");
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  size_t executed = 0;
  for (const std::string& s : seeds) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    ++executed;
  }
  Rng rng(random_seed);
  for (int round = 0; round < mutations && elapsed() < max_seconds; ++round) {
    for (const std::string& s : seeds) {
      const std::string m = Mutate(s, seeds, rng);
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(m.data()), m.size());
      ++executed;
    }
  }
  std::printf("fuzz smoke: %zu seeds, %zu inputs executed in %.1f s, no crash\n", seeds.size(),
              executed, elapsed());
  return 0;
}
