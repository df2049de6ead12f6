// Training-loop identification (Sec. 3): the ⊔ lattice and the summaries.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/training_loop.hpp"

namespace adlang::py {
namespace {

LoopKind loop_of(const std::string& src) {
  return summary_M(*parse_module("t.py", src)).loop;
}

TEST(TrainingLoop, JoinIsTheLattice) {
  EXPECT_EQ(join(LoopKind::None, LoopKind::Tape), LoopKind::Tape);
  EXPECT_EQ(join(LoopKind::Tape, LoopKind::None), LoopKind::Tape);
  EXPECT_EQ(join(LoopKind::Keras, LoopKind::Keras), LoopKind::Keras);
  EXPECT_EQ(join(LoopKind::Keras, LoopKind::Tape), LoopKind::Conflict);
  EXPECT_EQ(join(LoopKind::Conflict, LoopKind::None), LoopKind::Conflict);
  EXPECT_EQ(join(LoopKind::Session, LoopKind::Monitored), LoopKind::Conflict);
}

TEST(TrainingLoop, FindsEachKind) {
  EXPECT_EQ(loop_of("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x)\n"),
            LoopKind::Keras);
  EXPECT_EQ(loop_of("import tensorflow as tf\nwith tf.GradientTape() as t: pass\n"),
            LoopKind::Tape);
  EXPECT_EQ(loop_of("import tensorflow.compat.v1 as tf\nwith tf.Session() as s: pass\n"),
            LoopKind::Session);
  EXPECT_EQ(loop_of("import tensorflow as tf\ns = tf.compat.v1.Session()\n"), LoopKind::Session);
  EXPECT_EQ(
      loop_of("import tensorflow as tf\nwith tf.train.MonitoredTrainingSession() as s: pass\n"),
      LoopKind::Monitored);
  EXPECT_EQ(loop_of("import tensorflow as tf\nx = tf.constant(1)\n"), LoopKind::None);
}

// Horovod's TF1 Keras example: the session only carries a config to Keras.
TEST(TrainingLoop, SessionCarryingAKerasConfigIsNotALoop) {
  EXPECT_EQ(loop_of("import keras\nimport tensorflow as tf\nfrom keras import backend as K\n"
                    "config = tf.ConfigProto()\nK.set_session(tf.Session(config=config))\n"
                    "m = keras.models.Sequential()\nm.compile(loss='mse', optimizer='sgd')\n"
                    "m.fit(x)\n"),
            LoopKind::Keras);
  EXPECT_EQ(loop_of("import tensorflow as tf\n"
                    "tf.keras.backend.set_session(tf.Session())\nwith tf.Session() as s: pass\n"),
            LoopKind::Session);
  // A session bound to a name that is only handed to set_session carries the config too.
  EXPECT_EQ(loop_of("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                    "sess = tf.Session(config=c)\nK.set_session(sess)\n"
                    "m = tf.keras.Sequential()\nm.fit(x)\n"),
            LoopKind::Keras);
}

// The rewritten TF1 Keras scripts (golden/keras/tf1_*.after.py) have one training loop, model.fit:
// the session that carries the config is not a second one.
TEST(TrainingLoop, RewrittenTf1KerasScriptsHaveOneTrainingLoop) {
  std::vector<std::string> files =
      test::files_with_suffix(test::source_dir() + "/tests/python/golden/keras", ".after.py");
  int n = 0;
  for (const std::string& f : files) {
    if (f.rfind("tf1_", 0) != 0) continue;
    ++n;
    std::string path = test::source_dir() + "/tests/python/golden/keras/" + f;
    ModuleSummary s = summary_M(*parse_module(f, test::read_file(path)));
    EXPECT_EQ(s.loop, LoopKind::Keras) << f;
    ASSERT_EQ(s.evidence.size(), 1u) << f;
    EXPECT_EQ(s.evidence.front().kind, LoopKind::Keras) << f;
  }
  EXPECT_GE(n, 5);
}

TEST(TrainingLoop, UserModelClassesAndCompiledModels) {
  EXPECT_EQ(loop_of("import tensorflow as tf\nclass M(tf.keras.Model): pass\nclass N(M): pass\n"
                    "n = N()\nn.fit(x)\n"),
            LoopKind::Keras);
  EXPECT_EQ(loop_of("import tensorflow as tf\nm = build()\nm.compile(loss='mse')\nm.fit(x)\n"),
            LoopKind::Keras);
  EXPECT_EQ(loop_of("import re\np = re.compile('x')\np.fit(1)\n"), LoopKind::None);
}

TEST(TrainingLoop, LoopsInsideFunctionsAndMainGuards) {
  auto s = summary_M(
      *parse_module("t.py",
                    "import tensorflow as tf\ndef train():\n    with tf.GradientTape() as t: pass\n"
                    "if __name__ == '__main__':\n    train()\n"));
  EXPECT_EQ(s.loop, LoopKind::Tape);
  EXPECT_TRUE(s.diagnostics.empty());
}

TEST(TrainingLoop, KerasTrainStepInAModelClassIsNotATapeLoop) {
  EXPECT_EQ(loop_of("import tensorflow as tf\nclass M(tf.keras.Model):\n"
                    "    def train_step(self, d):\n        with tf.GradientTape() as t: pass\n"
                    "m = M()\nm.fit(x)\n"),
            LoopKind::Keras);
}

TEST(TrainingLoop, ImportsOfHorovodAndTensorFlow) {
  auto s = summary_M(*parse_module("t.py", "import os\nfrom horovod import tensorflow as hvd\n"));
  EXPECT_TRUE(s.horovod_import.known());
  EXPECT_FALSE(s.imports_tensorflow);
  EXPECT_TRUE(
      summary_M(*parse_module("t.py", "from tensorflow import keras\n")).imports_tensorflow);
}

}  // namespace
}  // namespace adlang::py
