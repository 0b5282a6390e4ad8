#include "ApiFixture.h"

namespace tcx::test {

web::ApiRequest request(const std::string& methodAndTarget, std::string body) {
  web::ApiRequest r;
  const size_t space = methodAndTarget.find(' ');
  r.method = methodAndTarget.substr(0, space);
  const std::string target = methodAndTarget.substr(space + 1);
  const size_t q = target.find('?');
  r.path = target.substr(0, q);
  if (q != std::string::npos) {
    std::string rest = target.substr(q + 1);
    while (!rest.empty()) {
      const size_t amp = rest.find('&');
      const std::string pair = rest.substr(0, amp);
      const size_t eq = pair.find('=');
      r.query.emplace_back(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
      rest = amp == std::string::npos ? "" : rest.substr(amp + 1);
    }
  }
  r.body = std::move(body);
  return r;
}

} // namespace tcx::test
