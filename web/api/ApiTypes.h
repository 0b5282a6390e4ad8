#pragma once
// One request to the explorer's API and its answer, independent of how they
// travel: the HTTP server (web/server) fills an ApiRequest from the wire,
// `tcx report --html` fills them itself to record a snapshot, and tests call
// the API directly.

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcx::web {

struct ApiRequest {
  std::string method; // "GET", "POST"
  std::string path;   // "/api/view"
  std::vector<std::pair<std::string, std::string>> query; // decoded, in order; keys may repeat
  std::string body;

  // The first value of query parameter `name`, or `fallback`.
  std::string param(std::string_view name, std::string fallback = {}) const;
  std::vector<std::string> params(std::string_view name) const;
  bool has(std::string_view name) const;
};

struct ApiResponse {
  int status = 200;
  nlohmann::json body;
};

// A request the API refuses: the status (4xx; 500 for a bug) and a message
// naming what is wrong. Raised by handlers, answered as {"error": message}.
class ApiError : public std::runtime_error {
public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

private:
  int status_;
};

// The request body as a JSON object; ApiError 400 naming the parse error.
nlohmann::json parseJsonBody(const ApiRequest& request);

} // namespace tcx::web
