// The storage check (see sizer/ops/storage.h).
//
// Sources: seed 001 (the practical sizing sequence: "verify interconnect and storage can sustain
// the workload"); Llama 3 (Meta 2024, §3.3.1): Tectonic storage of 240 PB on 7,500 SSD servers,
// 2 TB/s sustained and 7 TB/s peak throughput, sized for bursty checkpoint writes; tokenised data
// as uint32 ids (Megatron-LM's indexed datasets store int32 ids for vocabularies over 65,536).
#include "sizer/ops/storage.h"

namespace sizer::storage {

double checkpoint_capacity_bytes(double checkpoint_bytes, double retained) { return checkpoint_bytes * retained; }

double write_bytes_per_s_needed(double checkpoint_bytes, double interval_s, double overhead, bool async) {
  if (interval_s <= 0) return 0;
  if (async) return checkpoint_bytes / interval_s;
  if (overhead <= 0 || overhead >= 1) return 0;
  return checkpoint_bytes * (1 - overhead) / (overhead * interval_s);
}

double dataset_bytes(double tokens, double repeat, double bytes_per_token) {
  return repeat > 0 ? tokens / repeat * bytes_per_token : 0;
}

double read_bytes_per_s_needed(double tokens_per_s, double bytes_per_token) { return tokens_per_s * bytes_per_token; }

}  // namespace sizer::storage
