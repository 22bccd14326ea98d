// Sizer core: one include for front ends (CLI, web UI, JS bindings).
//
//   const sizer::Catalog& cat = sizer::bundled_catalog();
//   sizer::ParsedScenario p = sizer::parse_scenario(json_text, cat);
//   if (p.ok()) { auto e = sizer::evaluate(p.scenario); auto j = sizer::result_to_json(p.scenario, e); }
#pragma once
#include "sizer/contract/catalog_load.h"
#include "sizer/contract/planner_json.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/contract/serve_search_json.h"
#include "sizer/contract/version.h"
#include "sizer/formulas/format.h"
#include "sizer/io/model_import.h"
#include "sizer/io/portable.h"
#include "sizer/planners/catalog.h"
#include "sizer/planners/comparison.h"
#include "sizer/planners/estimate.h"
#include "sizer/planners/ops_curves.h"
#include "sizer/planners/planner.h"
#include "sizer/planners/serving_search.h"
#include "sizer/share/embed.h"
#include "sizer/share/export.h"
#include "sizer/share/share.h"
#include "sizer/validation/validation.h"
