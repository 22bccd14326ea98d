// Sizer core: one include for front ends (CLI, web UI, JS bindings).
//
//   const sizer::Catalog& cat = sizer::bundled_catalog();
//   sizer::ParsedScenario p = sizer::parse_scenario(json_text, cat);
//   if (p.ok()) { auto e = sizer::evaluate(p.scenario); auto j = sizer::result_to_json(p.scenario, e); }
#pragma once
#include "sizer/catalog.h"
#include "sizer/comparison.h"
#include "sizer/embed.h"
#include "sizer/estimate.h"
#include "sizer/export.h"
#include "sizer/format.h"
#include "sizer/model_import.h"
#include "sizer/ops_curves.h"
#include "sizer/planner.h"
#include "sizer/planner_json.h"
#include "sizer/portable.h"
#include "sizer/share.h"
#include "sizer/validation.h"
#include "sizer/result_json.h"
#include "sizer/scenario_parse.h"
#include "sizer/serve_search.h"
#include "sizer/version.h"
