// The inputs panel's "Reliability & cost" block (docs/operations.md): goodput assumed or predicted,
// checkpointing and restarts, spares, the scenario's storage, owning (purchase price,
// depreciation, electricity, colocation), the grid region and the uncertainty ranges of MFU and
// price. Every field edits the scenario draft by JSON path (scenario_edit.h).
#pragma once
#include "widgets.h"

namespace sizer_web {

void ops_block(Ui& ui);

}  // namespace sizer_web
