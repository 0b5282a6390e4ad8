#pragma once
// The explorer's light and dark palettes (Fusion style colours), applied
// application-wide so docks, tables and charts agree.

#include <QPalette>

namespace tcx::viz {

QPalette explorerPalette(bool dark);

} // namespace tcx::viz
