#include "tools/gpu/model_check_flags.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(ModelCheckFlagsTest, ParsesEveryFlag) {
  absl::StatusOr<ModelCheckFlags> f = ParseModelCheckFlags(
      {"--graph=g.pb", "--outputs=a,b", "--inputs=x:-1,3", "--batch=32", "--seed=7", "--rtol=1e-3",
       "--runs=0", "--int_max=50", "--threads=2", "--cpu_only"});
  ASSERT_THAT(f.status(), IsOk());
  EXPECT_EQ(f->graph, "g.pb");
  EXPECT_EQ(f->outputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(f->inputs, "x:-1,3");
  EXPECT_EQ(f->check.batch, 32);
  EXPECT_EQ(f->check.seed, 7u);
  EXPECT_EQ(f->check.rtol, 1e-3);
  EXPECT_EQ(f->check.runs, 0);
  EXPECT_EQ(f->check.int_max, 50);
  EXPECT_EQ(f->check.intra_op_threads, 2);
  EXPECT_FALSE(f->check.use_gpu);

  absl::StatusOr<ModelCheckFlags> d = ParseModelCheckFlags({"--manifest=m.txt"});
  ASSERT_THAT(d.status(), IsOk());
  EXPECT_EQ(d->check.batch, 1);
  EXPECT_EQ(d->check.rtol, 1e-4);
  EXPECT_EQ(d->check.runs, 10);
  EXPECT_TRUE(d->check.use_gpu);
}

TEST(ModelCheckFlagsTest, BadFlagsNameTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{}, "name exactly one of --manifest=FILE and --graph=FILE"},
      {{"--manifest=m", "--graph=g", "--outputs=y"}, "name exactly one of"},
      {{"--graph=g"}, "--graph needs --outputs=NAME[,NAME]"},
      {{"--manifest=m", "--outputs=y"}, "--inputs and --outputs go with --graph"},
      {{"--manifest=m", "--bogus=1"}, "unknown flag --bogus"},
      {{"--manifest=m", "--batch=0"}, "--batch needs an integer >= 1, got '0'"},
      {{"--manifest=m", "--runs=x"}, "--runs needs an integer >= 0, got 'x'"},
      {{"--manifest=m", "--rtol=-1"}, "--rtol needs a number >= 0, got '-1'"},
      {{"--manifest=m", "--cpu_only=1"}, "--cpu_only takes no value"},
      {{"--manifest"}, "flag --manifest needs a value"},
      {{"m.txt"}, "unexpected argument 'm.txt'"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(ParseModelCheckFlags(c.args).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)))
        << c.message;
  }
}

TEST(ModelCheckFlagsTest, SelectsModelsOfTheManifest) {
  const std::string dir = std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp";
  const std::string manifest = dir + "/manifest.txt";
  std::ofstream(manifest) << "# name graph inputs outputs\n"
                          << "a a.pb x:-1,4 y\n"
                          << "b b.pb x:-1,20 y,z\n";
  ModelCheckFlags f = *ParseModelCheckFlags({"--manifest=" + manifest, "--models=b"});
  absl::StatusOr<std::vector<ModelSpec>> models = SelectModels(f);
  ASSERT_THAT(models.status(), IsOk());
  ASSERT_EQ(models->size(), 1u);
  EXPECT_EQ((*models)[0].name, "b");
  EXPECT_EQ((*models)[0].graph, dir + "/b.pb");  // relative to the manifest's folder
  EXPECT_EQ((*models)[0].outputs, (std::vector<std::string>{"y", "z"}));

  f.models = {};
  EXPECT_EQ(SelectModels(f)->size(), 2u);
  f.models = {"c"};
  EXPECT_THAT(SelectModels(f).status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("--models: 'c' is not in the")));
  f.manifest = dir + "/none.txt";
  EXPECT_THAT(SelectModels(f).status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("none.txt' not found")));
}

TEST(ModelCheckFlagsTest, GraphFlagMakesOneModel) {
  ModelCheckFlags f = *ParseModelCheckFlags({"--graph=g.pb", "--outputs=y", "--inputs=x:2"});
  absl::StatusOr<std::vector<ModelSpec>> models = SelectModels(f);
  ASSERT_THAT(models.status(), IsOk());
  ASSERT_EQ(models->size(), 1u);
  EXPECT_EQ((*models)[0].graph, "g.pb");
  ASSERT_EQ((*models)[0].inputs.size(), 1u);
  EXPECT_EQ((*models)[0].inputs[0].dims, (std::vector<int64_t>{2}));
  f.inputs = "x";
  EXPECT_THAT(SelectModels(f).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("input 'x' needs NAME:DIMS")));
}

}  // namespace
}  // namespace rill
