// Rewriting a generated training script of about 10,000 lines: parsing through CPython's ast,
// training-loop identification, the GradientTape rules, the edits, and the check that the
// result parses. Issue 4 asks for under 1 s.
#include <benchmark/benchmark.h>

#include <string>

#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/pyrewrite.hpp"

namespace {

// A GradientTape script: imports, a model and an optimizer, then `blocks` training-step
// functions (each with a tape, apply_gradients, a dataset take, prints, a checkpoint, comments),
// then a loop calling them. About 25 lines per block.
std::string generate(int blocks) {
  std::string s =
      "\"\"\"Generated GradientTape training script.\"\"\"\n"
      "import os\n"
      "import tensorflow as tf\n\n"
      "os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
      "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
      "opt = tf.keras.optimizers.Adam(learning_rate=0.001)\n"
      "dataset = tf.data.Dataset.range(1000).batch(10)\n"
      "ckpt = tf.train.Checkpoint(model=model, opt=opt)\n\n";
  for (int i = 0; i < blocks; ++i) {
    std::string n = std::to_string(i);
    s += "\n# Step variant " + n +
         ": a comment that must survive.\n"
         "@tf.function\n"
         "def train_step_" +
         n +
         "(x, y):\n"
         "    \"\"\"Train on one batch (variant " +
         n +
         ").\"\"\"\n"
         "    with tf.GradientTape() as tape:\n"
         "        pred = model(x, training=True)\n"
         "        loss = tf.reduce_mean(tf.square(pred - y))  # mse\n"
         "    grads = tape.gradient(loss, model.trainable_variables)\n"
         "    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
         "    return loss\n\n\n"
         "def run_" +
         n +
         "(epochs):\n"
         "    for epoch in range(epochs):\n"
         "        for x, y in dataset.take(100):\n"
         "            loss = train_step_" +
         n +
         "(x, y)\n"
         "            if epoch % 10 == 0:\n"
         "                print('variant', " +
         n +
         ", 'epoch', epoch, 'loss', float(loss))\n"
         "        values = {k: v for k, v in enumerate([loss, epoch])}\n"
         "        total = sum(v for v in values.values() if v is not None)\n"
         "    ckpt.save('/tmp/ckpt_" +
         n +
         "')\n"
         "    return total\n";
  }
  s += "\nif __name__ == '__main__':\n";
  for (int i = 0; i < blocks; ++i)
    s += "    run_" + std::to_string(i) + "(1)\n";
  return s;
}

std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

const std::string& script() {
  static const std::string s = generate(455);  // about 10,000 lines
  return s;
}

void BM_RewriteTenThousandLines(benchmark::State& state) {
  const std::string& s = script();
  for (auto _ : state) {
    adlang::py::RewriteResult r = adlang::py::rewrite_python("generated.py", s);
    if (r.status != adlang::py::RewriteStatus::Rewritten) state.SkipWithError("not rewritten");
    benchmark::DoNotOptimize(r.output);
  }
  state.counters["lines"] = static_cast<double>(lines(s));
}
BENCHMARK(BM_RewriteTenThousandLines)->Unit(benchmark::kMillisecond);

// Parsing alone (CPython's ast.parse plus the conversion to the C++ mirror), for the ratio.
void BM_ParseTenThousandLines(benchmark::State& state) {
  const std::string& s = script();
  for (auto _ : state)
    benchmark::DoNotOptimize(adlang::py::parse_module("generated.py", s));
  state.counters["lines"] = static_cast<double>(lines(s));
}
BENCHMARK(BM_ParseTenThousandLines)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
