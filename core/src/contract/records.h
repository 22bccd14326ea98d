// Internal: reading and validating Device, System, PriceOffer and Model records from JSON.
// Shared by the catalog loader (tables) and the scenario parser (inline objects and overrides).
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

}  // namespace sizer::detail
