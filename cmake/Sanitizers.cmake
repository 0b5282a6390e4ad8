# TCX_SANITIZE=ON builds everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (the `asan` preset); bad-input tests run under it.
option(TCX_SANITIZE "Build with address and undefined-behaviour sanitizers" OFF)
if(TCX_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
