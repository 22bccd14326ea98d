// Collectives on a device's links: which link a parallel group uses and how long its collectives
// take (ring and tree algorithms, NCCL's latency model). The layout model (training) and the
// serving model share them.
#pragma once
#include <algorithm>
#include <cmath>

#include "sizer/formulas/hardware.h"

namespace sizer {

// Which link a parallel group's collectives use.
enum class Link { none, scale_up, scale_out };
const char* to_string(Link l);

// Smallest link that a group of `span` consecutive ranks (its size times its stride) stays on.
inline Link place(double group, double span, double domain) {
  if (group <= 1) return Link::none;
  return span <= domain ? Link::scale_up : Link::scale_out;
}

inline double link_bw(const Device& d, Link l) {
  const double bw = l == Link::scale_up ? d.scale_up_bytes_per_s : d.scale_out_bytes_per_s;
  return bw * d.link_efficiency;
}

// Seconds for `count` collectives moving `bytes` each per device on link `l`.
inline double collective_s(const Device& d, Link l, double count, double bytes) {
  if (l == Link::none || count <= 0) return 0;
  const double bw = link_bw(d, l);
  if (bw <= 0) return count * d.collective_latency_s;  // unknown link: latency only
  return count * (bytes / bw + d.collective_latency_s);
}

// Collectives whose cost depends on the group: the latency model of NCCL's tuner (NVIDIA/nccl
// src/graph/tuning.cc, ncclTopoTuneModel, read at commit 01afd20a): a ring all-gather or
// reduce-scatter over n ranks on `nodes` scale-up domains takes n − 1 steps, nodes − 1 of them
// across the network (all-reduce twice both), each step paying its link's latency; NCCL's tree
// all-reduce pays 2·((n/nodes − 1) intra + log2(nodes) inter) steps instead, and NCCL picks the
// faster. The bytes go hierarchically as in data_parallel.cpp: (k−1)/k of the message on the
// scale-up link among the k ranks of a domain, (nodes−1)/nodes of a 1/k slice across domains.
enum class Coll { all_gather, reduce_scatter, all_reduce };

inline double collective_latency_s(const Device& d, Coll c, double n, double k) {
  if (n <= 1) return 0;
  k = std::max(1.0, std::min(k, n));
  const double nodes = n / k, twice = c == Coll::all_reduce ? 2.0 : 1.0;
  const double out_lat = nodes > 1 ? d.scale_out_latency_s : 0.0;
  const double ring = twice * ((n - nodes) * d.collective_latency_s + (nodes - 1) * out_lat);
  if (c != Coll::all_reduce || nodes <= 1) return ring;
  const double tree = 2 * ((k - 1) * d.collective_latency_s + std::log2(nodes) * out_lat);
  return std::min(ring, tree);
}

// Seconds for `count` collectives of kind `c` over a group of `n` ranks, `k` of them sharing a
// scale-up domain, moving a message of `bytes` (the whole gathered / reduced tensor).
inline double collective_s(const Device& d, Coll c, double n, double k, double count, double bytes) {
  if (n <= 1 || count <= 0) return 0;
  k = std::max(1.0, std::min(k, n));
  const double nodes = n / k, twice = c == Coll::all_reduce ? 2.0 : 1.0;
  double t = collective_latency_s(d, c, n, k);
  const double up = link_bw(d, Link::scale_up), out = link_bw(d, Link::scale_out);
  if (k > 1 && up > 0) t += twice * (k - 1) / k * bytes / up;
  if (nodes > 1 && out > 0) t += twice * (nodes - 1) / nodes * bytes / k / out;
  return count * t;
}

// Ranks of a group of `n` consecutive ranks at stride `stride` that share one scale-up domain.
inline double ranks_per_domain(double n, double stride, double domain) {
  return std::max(1.0, std::min(n, std::floor(domain / std::max(1.0, stride))));
}

}  // namespace sizer
