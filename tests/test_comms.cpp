// Communication: the four interconnect cases and their verdicts.
#include <catch2/catch.hpp>

#include "sizer/formulas/comms.h"

using namespace sizer;

TEST_CASE("ring all-reduce factor is 2(n−1)/n and tends to 2", "[comms]") {
  CHECK(comms::ring_allreduce_factor(1) == 0);
  CHECK(comms::ring_allreduce_factor(2) == Approx(1));
  CHECK(comms::ring_allreduce_factor(8) == Approx(1.75));
  CHECK(comms::ring_allreduce_factor(1e6) == Approx(2).epsilon(1e-5));
}

TEST_CASE("case 1: data-parallel all-reduce moves about twice the gradient shard", "[comms]") {
  CHECK(comms::dp_allreduce_bytes_per_device(1e12 / 512, 2) == Approx(2 * 2 * 1e12 / 512));
}

TEST_CASE("case 2: pipeline boundary carries s·b·h activations", "[comms]") {
  CHECK(comms::pp_boundary_bytes(2048, 1, 25600, 2) == Approx(2048.0 * 25600 * 2));
  CHECK(comms::pp_boundary_bytes(2048, 4, 25600, 2) == Approx(4 * 2048.0 * 25600 * 2));
}

TEST_CASE("case 3: tensor-parallel decode all-reduces", "[comms]") {
  const double msg = comms::tp_message_bytes(25600, 32, 2);
  CHECK(msg == Approx(25600.0 * 32 * 2));
  CHECK(comms::tp_allreduce_bytes_per_step(msg, 8, 256) == Approx(msg * 1.75 * 256));
  CHECK(comms::tp_allreduce_bytes_per_step(msg, 1, 256) == 0);  // no group, no traffic
}

TEST_CASE("case 4: MoE all-to-all bytes per token", "[comms]") {
  CHECK(comms::moe_alltoall_bytes_per_token(7168, 8, 60, 1, 2) == Approx((7168.0 * 8 + 7168.0 * 8 * 2) * 60));
}

TEST_CASE("verdicts compare needs with the scale-out and scale-up links", "[comms]") {
  using comms::Verdict;
  CHECK(comms::bandwidth_verdict(10e9, 900e9, 50e9) == Verdict::fits_scale_out);
  CHECK(comms::bandwidth_verdict(81e9, 900e9, 50e9) == Verdict::scale_up_only);
  CHECK(comms::bandwidth_verdict(1e12, 900e9, 50e9) == Verdict::too_slow);
  // No scale-out figure (MI3xx tables) gives no verdict, not "scale_up_only".
  CHECK(comms::bandwidth_verdict(10e9, 900e9, 0) == Verdict::unknown);
  CHECK(comms::bandwidth_verdict(0, 900e9, 0) == Verdict::fits_scale_out);  // no traffic at all
  CHECK(comms::time_verdict(7.8e9, 75, 0.25, 900e9, 0) == Verdict::unknown);
  CHECK(comms::time_verdict(7.8e9, 0, 0.25, 900e9, 50e9) == Verdict::unknown);  // no step time: no peak
  CHECK(comms::time_verdict(7.8e9, 75, 0.25, 900e9, 50e9) == Verdict::fits_scale_out);
  CHECK(comms::time_verdict(7.8e9, 0.05, 0.25, 900e9, 50e9) == Verdict::scale_up_only);
  CHECK(comms::time_verdict(7.8e9, 0.001, 0.25, 900e9, 50e9) == Verdict::too_slow);
  CHECK(std::string(comms::describe(Verdict::scale_up_only)).find("scale-up") != std::string::npos);
}
