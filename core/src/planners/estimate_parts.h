// Internal: the pieces of evaluate() (estimate.h), one file per part of the seed's method:
// estimate.cpp (model, memory, compute, power), estimate_comms.cpp (the interconnect cases for
// training) and estimate_serving_ceiling.cpp (serving). Shared here: the sources each working line cites.
#pragma once
#include <vector>

#include "sizer/planners/estimate.h"

namespace sizer::detail {


inline const char* const kSrcModel = "Kaplan et al. 2020 §2.1 (12·L·h²); seed post 'The two models'";
inline const char* const kSrcZero = "Rajbhandari et al. 2020 (ZeRO) §3.1, §5; seed post Part 1";
inline const char* const kSrcAct = "Korthikanti et al. 2022 Table 2, §4.2.3; seed post Part 1";
inline const char* const kSrcFlops = "Kaplan et al. 2020 §2.1 (C ≈ 6ND); seed post Part 2, step 3";
inline const char* const kSrcHours = "seed post Part 2 'GPU hours and cost', step 4";
inline const char* const kSrcCluster = "seed post 'Cluster size for a target wall clock', step 5";
inline const char* const kSrcPower = "seed post Part 6, step 6";
inline const char* const kSrcCase1 = "seed post Part 4, case 1 (ring all-reduce ≈ 2× buffer)";
inline const char* const kSrcCase2 = "seed post Part 4, case 2; Narayanan et al. 2021";
inline const char* const kSrcCase3 = "seed post Part 4, case 3; Shoeybi et al. 2019 (2 all-reduces/layer)";
inline const char* const kSrcCase4 = "seed post Part 4, case 4; DeepSeek-V3 report §3.2";
inline const char* const kSrcWeights = "seed post Part 5 'Weights at each precision', step 7";
inline const char* const kSrcKv = "seed post Part 5 'The KV cache'; Pope et al. 2022";
inline const char* const kSrcReplica = "seed post Part 5 'Minimum devices per replica'; seed 001 sequence";
inline const char* const kSrcDecode = "seed post Part 5 'Decode: the memory bandwidth bound', step 8";
inline const char* const kSrcExperts = "seed post Part 5 'How many experts does a batch touch?'";
inline const char* const kSrcPrefill = "seed post Part 5 'Prefill: the compute bound', step 9";
inline const char* const kSrcDisagg = "seed post Part 5 'Disaggregated prefill and decode'";
inline const char* const kSrcCost = "seed post Part 5 'Cost per million tokens', step 10";
inline const char* const kSrcFleet = "seed post Part 5 'Fleet size for a given demand'";
inline const char* const kSrc001 = "seed 001 'A practical sizing sequence' (+20–30% headroom)";
inline const char* const kSrcCkpt = "Llama 3 paper §3.3.4 (2 TB/s sustained storage); seed 001";


// Division that yields 0 instead of inf/NaN when the denominator is not positive.
inline double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }

void evaluate_training_comms(const Scenario& s, Estimate& e, WorkingLog& w);
// The layout model's step for a written training.layout (estimate_layout.cpp).
void evaluate_layout_prediction(const Scenario& s, Estimate& e, WorkingLog& w);
void evaluate_serving(const Scenario& s, Estimate& e, WorkingLog& w);
// The serving performance model when serving.workload is given (estimate_serving_model.cpp).
void evaluate_serving_performance(const Scenario& s, Estimate& e, WorkingLog& w);

}  // namespace sizer::detail
