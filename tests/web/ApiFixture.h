#pragma once
// Helpers for the web explorer's tests: an ExplorerApi over the repository
// (the samples under its root) and requests written as one line each.

#include "web/api/ExplorerApi.h"

#include <string>

namespace tcx::test {

inline web::ExplorerApi makeApi(web::ApiOptions options = {}) {
  return web::ExplorerApi(web::RootDirectory(TCX_SOURCE_DIR), std::move(options));
}

// "GET /api/view?name=vtog&expand=a": the query decoded as given (no escapes).
web::ApiRequest request(const std::string& methodAndTarget, std::string body = {});

inline web::ApiResponse call(web::ExplorerApi& api, const std::string& methodAndTarget, std::string body = {}) {
  return api.handle(request(methodAndTarget, std::move(body)));
}

} // namespace tcx::test
