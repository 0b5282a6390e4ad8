#include "RealModels.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tcx::test {

std::vector<RealModel> realModels(const std::string& size) {
  const std::string root = std::string(TCX_SOURCE_DIR) + "/models/real/";
  std::ifstream in(root + "manifest." + size + ".json");
  if (!in) throw std::runtime_error("models/real/manifest." + size + ".json is missing");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  std::vector<RealModel> models;
  for (const nlohmann::json& e : manifest.at("exports")) {
    if (e.at("status") != "ok") continue;
    models.push_back({e.at("model"), e.at("kind"), e.at("what"), e.at("exporter"), root + e.at("file").get<std::string>()});
  }
  return models;
}

} // namespace tcx::test
