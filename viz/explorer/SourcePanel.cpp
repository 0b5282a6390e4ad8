#include "SourcePanel.h"

#include "CudaHighlighter.h"
#include "view/ItemLinks.h"
#include "PlanChoice.h"

#include "codegen/CudaCodegen.h"
#include "codegen/SlotBinding.h"
#include "support/Error.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStringList>
#include <QTextBlock>
#include <QVBoxLayout>

#include <chrono>

namespace tcx::viz {

SourcePanel::SourcePanel(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), planChoice_(new PlanChoice), status_(new QLabel), text_(new QPlainTextEdit) {
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  highlighter_ = new CudaHighlighter(text_->document());
  status_->setWordWrap(true);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(planChoice_);
  layout->addWidget(status_);
  layout->addWidget(text_, 1);

  connect(&model_, &ExplorerModel::strategyChanged, this, &SourcePanel::regenerate);
  connect(planChoice_, &QComboBox::currentIndexChanged, this, &SourcePanel::regenerate);
  connect(&model_, &ExplorerModel::selectionChanged, this, &SourcePanel::showSelection);
  connect(text_, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    if (!syncing_) selectLine(text_->textCursor().blockNumber() + 1);
  });
  if (model_.isOpen()) regenerate();
}

QString SourcePanel::status() const { return status_->text(); }

const ExecPlan& SourcePanel::shownPlan() const { return planChoice_->plan(model_.session()); }

void SourcePanel::regenerate() {
  if (!model_.isOpen()) return;
  const auto start = std::chrono::steady_clock::now();
  code_.reset();
  try {
    code_ = generateCuda(shownPlan());
    summary_ = tr("%1 kernels, %2 launches: the module tcx compiles with NVRTC")
                   .arg(shownPlan().kernels.size())
                   .arg(code_->launches.size());
  } catch (const Error& e) {
    summary_ = tr("No CUDA for this plan: %1").arg(QString::fromStdString(e.what()));
  }
  status_->setText(summary_);
  generateSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  syncing_ = true;
  text_->setPlainText(code_ ? QString::fromStdString(code_->source) : QString());
  syncing_ = false;
  span_ = {};
  if (model_.selection()) showSelection(*model_.selection());
}

void SourcePanel::showSelection(const view::ItemRef& ref) {
  if (!code_) return;
  std::optional<size_t> kernel = view::planKernelOf(shownPlan(), ref);
  span_ = kernel ? code_->kernelSpans[*kernel] : SourceSpan{};
  // What the kernel's b.p[...] hold: its launches bind them, so its code may be another kernel's.
  QStringList bound;
  if (kernel)
    for (const std::string& slot : describeSlots(shownPlan(), *code_, static_cast<int>(*kernel)))
      bound << QString::fromStdString(slot);
  status_->setText(bound.isEmpty() ? summary_ : summary_ + "\n" + bound.join(", "));
  QList<QTextEdit::ExtraSelection> marks;
  if (!span_.empty()) {
    QTextEdit::ExtraSelection mark;
    QColor tint = palette().color(QPalette::Highlight);
    tint.setAlpha(60); // the code's colours stay readable under the mark
    mark.format.setBackground(tint);
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    QTextCursor cursor(text_->document()->findBlockByNumber(span_.firstLine - 1));
    cursor.movePosition(QTextCursor::Down, QTextCursor::KeepAnchor, span_.lastLine - span_.firstLine);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    mark.cursor = cursor;
    marks.append(mark);
    syncing_ = true;
    // Scroll so the kernel's first line is at the top, its code below it.
    text_->moveCursor(QTextCursor::End);
    text_->setTextCursor(QTextCursor(text_->document()->findBlockByNumber(span_.firstLine - 1)));
    syncing_ = false;
  }
  text_->setExtraSelections(marks);
}

void SourcePanel::selectLine(int line) {
  if (!code_) return;
  const ExecPlan& plan = shownPlan();
  for (size_t k = 0; k < code_->kernelSpans.size(); ++k) {
    const SourceSpan& s = code_->kernelSpans[k];
    if (!s.empty() && s.firstLine <= line && line <= s.lastLine) {
      model_.select(view::kernelRef(plan.kernels[k]));
      return;
    }
  }
}

QString SourcePanel::source() const { return text_->toPlainText(); }

void SourcePanel::setDark(bool dark) { highlighter_->setDark(dark); }

} // namespace tcx::viz
