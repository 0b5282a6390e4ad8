#include "web/api/ApiTypes.h"

namespace tcx::web {

std::string ApiRequest::param(std::string_view name, std::string fallback) const {
  for (const auto& [key, value] : query)
    if (key == name) return value;
  return fallback;
}

std::vector<std::string> ApiRequest::params(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [key, value] : query)
    if (key == name) out.push_back(value);
  return out;
}

bool ApiRequest::has(std::string_view name) const {
  for (const auto& entry : query)
    if (entry.first == name) return true;
  return false;
}

nlohmann::json parseJsonBody(const ApiRequest& request) {
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(request.body);
  } catch (const nlohmann::json::parse_error& e) {
    throw ApiError(400, std::string("the request body is not JSON: ") + e.what());
  }
  if (!body.is_object()) throw ApiError(400, "the request body must be a JSON object");
  return body;
}

} // namespace tcx::web
