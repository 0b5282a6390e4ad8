#pragma once
// An explorer session as a JSON file: the model, the strategy constraints
// (edges named as `tcx optimize` takes them: "e3"), the current tab, the
// selection and the bookmarked views.
//
//   {"format": "tcx-explorer-session", "version": 1,
//    "model": "../samples/gqa_decode.onnx",          (relative to the file)
//    "constraints": {"accepted": [], "forced": ["e3"], "forbidden": ["e5"]},
//    "tab": "vtog", "selection": "node:/attn/Transpose",
//    "bookmarks": [{"name": "...", "tab": "computation",
//                   "transform": [m11, m12, m21, m22, dx, dy], "centre": [x, y]}]}

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <QPointF>
#include <QString>
#include <QTransform>
#include <QVector>

#include <optional>

namespace tcx::viz {

struct ViewBookmark {
  QString name;
  QString tab; // GraphTabs::tabKey
  QTransform transform;
  QPointF centre; // scene coordinates
};

struct SessionState {
  QString modelPath; // absolute once loaded
  EdgeConstraintSpecs constraints;
  QString tab;
  std::optional<view::ItemRef> selection;
  QVector<ViewBookmark> bookmarks;
};

class SessionFile {
public:
  // Raises tcx::Error (Io, InvalidArgument) naming the file and what is wrong.
  static SessionState load(const QString& path);
  static void save(const QString& path, const SessionState& state);
};

} // namespace tcx::viz
