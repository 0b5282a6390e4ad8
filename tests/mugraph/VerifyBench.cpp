// Verification time and throughput: the hand-written pairs of the tests at
// the full bound δ = 2^-40, then Mirage's samples (imported, converted, and
// verified against their canonical form) with a capped number of trials,
// since at 4096 keys attention has k = 2 * 4096^2 terms. Not a test.
//
//   mugraph_verify_bench [--samples NAME,...] [--trials N]
// Elements/s counts the output elements compared, both programs evaluated,
// per second of wall time.
#include "Programs.h"

#include "Samples.h"
#include "mugraph/Canonical.h"
#include "mugraph/Conversion.h"
#include "verify/FiniteFieldVerifier.h"

#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <sstream>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;
using namespace tcx::verify;

namespace {

void row(const std::string& name, const VerifyResult& r) {
  double perSecond = static_cast<double>(r.elementsPerTrial * r.trials) / r.seconds;
  fmt::print("{:<34} {:<22} {:>10} {:>8} {:>10.3g} {:>10.4f} {:>12.3g}\n", name, verdictName(r.verdict), r.k, r.trials,
             r.delta, r.seconds, perSecond);
}

void header(const char* title) {
  fmt::print("\n{}\n{:<34} {:<22} {:>10} {:>8} {:>10} {:>10} {:>12}\n", title, "pair", "verdict", "k", "trials", "δ",
             "seconds", "elements/s");
}

} // namespace

int main(int argc, char** argv) {
  std::set<std::string> wanted = {"gqa_decode", "mha_decode", "mqa_decode", "lora", "gated_mlp", "rmsnorm_matmul"};
  int64_t sampleTrials = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--trials")) sampleTrials = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--samples")) {
      wanted.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string name; std::getline(list, name, ',');) wanted.insert(name);
    }
  }
  VerifyOptions options;
  options.seed = 1;
  FiniteFieldVerifier verifier(options);

  header("Hand-written μGraphs against the reference program (δ = 2^-40)");
  AttentionShape dec{2, 2, 1, 8, 4}, gqa{8, 2, 1, 8, 4}, pre{2, 2, 8, 16, 4};
  row("FlashDecoding (4b) vs attention", verifier.verify(flashDecoding(dec, 2, 2), attention(dec)));
  row("Mirage GQA (4c) vs attention", verifier.verify(mirageGqa(gqa, 2, 2), attention(gqa)));
  row("FlashAttention vs attention", verifier.verify(flashAttention(pre, 2, 4), attention(pre)));
  row("LoRA concat-matmul vs two matmuls", verifier.verify(loraConcat({}), lora({})));
  row("mutant: wrong imap", verifier.verify(flashDecoding(dec, 2, 2, Mutation::WrongImap), attention(dec)));
  row("mutant: swapped Div operands",
      verifier.verify(flashDecoding(dec, 2, 2, Mutation::SwappedOperands), attention(dec)));
  row("mutant: misaligned partition",
      verifier.verify(flashDecoding(dec, 2, 2, Mutation::MisalignedPartition), attention(dec)));
  row("mutant: dropped LoRA term", verifier.verify(loraConcat({}, Mutation::DroppedTerm), lora({})));

  options.maxTrials = sampleTrials;
  FiniteFieldVerifier capped(options);
  header(
      fmt::format("Mirage samples, paper shapes, against their canonical form ({} trial cap)", sampleTrials).c_str());
  for (const samples::SampleInfo& s : samples::allSamples()) {
    if (!wanted.count(s.name)) continue;
    KernelGraph k = toMuGraph(s.build());
    row(s.name, capped.verify(k, canonicalize(k)));
  }
  return 0;
}
