#include "Palettes.h"

#include <QColor>

namespace tcx::viz {

QPalette explorerPalette(bool dark) {
  if (!dark) return QPalette(QColor("#f3f3f3"), QColor("#ffffff"));
  QPalette p;
  const QColor window("#2b2b2b"), base("#1e1e1e"), text("#dcdcdc"), disabled("#7f7f7f");
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, base);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Link, QColor("#4ea1f3"));
  p.setColor(QPalette::Highlight, QColor("#2f65ca"));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::PlaceholderText, disabled);
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

} // namespace tcx::viz
