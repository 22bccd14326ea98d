// Internal: reading and validating Device, System, PriceOffer and Model records from JSON, and
// writing them back (the public writers, device_to_json and the rest, are declared in
// sizer/contract/result_json.h). Shared by the catalog loader (tables), the scenario parser
// (inline objects and overrides) and the scenario and result writers.
#pragma once
#include "sizer/contract/json_read.h"
#include "sizer/formulas/hardware.h"
#include "sizer/formulas/model.h"
#include "sizer/ops/operations.h"

namespace sizer::detail {

// Apply the fields present in `obj` onto the record (missing fields keep their value).
void read_device_fields(Reader& r, const json& obj, const std::string& path, Device* d,
                        std::vector<std::string>* aliases);
void read_model_fields(Reader& r, const json& obj, const std::string& path, Model* m);
bool read_system(Reader& r, const json& obj, const std::string& path, System* s);
bool read_price(Reader& r, const json& obj, const std::string& path, PriceOffer* p);

// assets/operations.json records (core/src/contract/ops_tables.cpp).
bool read_failure_rates(Reader& r, const json& obj, const std::string& path, FailureRates* f);
bool read_capital(Reader& r, const json& obj, const std::string& path, CapitalCost* c);
bool read_grid(Reader& r, const json& obj, const std::string& path, GridIntensity* g);

// Check that a record is complete and consistent; report what is missing. Returns true when valid.
bool validate_device(Reader& r, const Device& d, const std::string& path);
bool validate_model(Reader& r, Model* m, const std::string& path);

// A price offer as the result shows it (training.compute.price_offer, serving.serving_price_offer):
// the whole record, or null when there is no price.
json price_json(const PriceOffer& p);

}  // namespace sizer::detail
