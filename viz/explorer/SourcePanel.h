#pragma once
// The generated CUDA of the optimised or the baseline plan, highlighted,
// with the selected kernel's lines (GeneratedPlan::kernelSpans) marked and
// scrolled to; a click inside a kernel's lines selects that kernel. Code
// generation raises for ops without a CUDA form: the panel then shows why.

#include "ExplorerModel.h"

#include "codegen/GeneratedPlan.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace tcx::viz {

class PlanChoice;
class CudaHighlighter;

class SourcePanel : public QWidget {
  Q_OBJECT

public:
  explicit SourcePanel(ExplorerModel& model, QWidget* parent = nullptr);

  QString source() const;
  // The line above the code: the module's size, and what the selected
  // kernel's buffer slots hold.
  QString status() const;
  // The marked kernel's lines, or an empty span.
  SourceSpan highlightedSpan() const { return span_; }
  // Selects the kernel whose code holds `line` (1-based), as a click does.
  void selectLine(int line);
  // Seconds the last code generation took.
  double lastGenerateSeconds() const { return generateSeconds_; }
  void setDark(bool dark);

private:
  void regenerate();
  void showSelection(const view::ItemRef& ref);
  const ExecPlan& shownPlan() const;

  ExplorerModel& model_;
  PlanChoice* planChoice_;
  QLabel* status_;
  QPlainTextEdit* text_;
  CudaHighlighter* highlighter_;
  std::optional<GeneratedPlan> code_;
  QString summary_; // what the status says with no kernel selected
  SourceSpan span_;
  double generateSeconds_ = 0;
  bool syncing_ = false;
};

} // namespace tcx::viz
