#include "MuGraphPanel.h"

#include "GraphView.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace tcx::viz {

namespace {

constexpr const char* kSeparator = " › ";
constexpr int kDetailsHeight = 160; // the details' share of the height, against four for the graph

// "kernel", "block 3", "thread 4": each level down to `level`, a nested one
// named by the operator it defines.
QStringList crumbs(const mugraph::KernelGraph& graph, const view::MuGraphPath& level) {
  QStringList out{QStringLiteral("kernel")};
  for (size_t depth = 1; depth <= level.size(); ++depth) {
    const view::MuGraphPath prefix(level.begin(), level.begin() + static_cast<std::ptrdiff_t>(depth));
    const std::string_view name = mugraph::levelName(view::muGraphLevel(graph, prefix).level());
    out << QStringLiteral("%1 %2")
               .arg(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())))
               .arg(level[depth - 1]);
  }
  return out;
}

} // namespace

MuGraphPanel::MuGraphPanel(QWidget* parent)
    : QWidget(parent), view_(new GraphView), breadcrumb_(new QLabel), title_(new QLabel), details_(new QPlainTextEdit) {
  details_->setReadOnly(true);
  details_->setPlaceholderText(tr("Select an operator; double-click a graph-defined one to open it."));
  breadcrumb_->setTextFormat(Qt::RichText);
  title_->setWordWrap(true);
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(view_);
  splitter->addWidget(details_);
  splitter->setSizes({4 * kDetailsHeight, kDetailsHeight}); // scaled to the splitter's height
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(breadcrumb_);
  layout->addWidget(title_);
  layout->addWidget(splitter, 1);

  connect(breadcrumb_, &QLabel::linkActivated, this, [this](const QString& depth) { ascend(depth.toInt()); });
  connect(view_, &GraphView::itemSelected, this, &MuGraphPanel::showDetails);
  connect(view_, &GraphView::itemActivated, this, &MuGraphPanel::activate);
  clear(tr("No μGraph shown."));
}

void MuGraphPanel::setGraph(mugraph::KernelGraph graph, const QString& caption) {
  graph_ = std::move(graph);
  caption_ = caption;
  level_.clear();
  showLevel();
}

void MuGraphPanel::clear(const QString& message) {
  graph_.reset();
  level_.clear();
  view_->setGraph({});
  breadcrumb_->clear();
  title_->setText(message);
  details_->clear();
  emit levelChanged();
}

bool MuGraphPanel::descend(int op) {
  if (!graph_) return false;
  const mugraph::OperatorGraph& shown = view::muGraphLevel(*graph_, level_);
  if (op < 0 || op >= static_cast<int>(shown.ops().size()) || !shown.op(op).body) return false;
  level_.push_back(op);
  showLevel();
  return true;
}

void MuGraphPanel::ascend(int depth) {
  if (!graph_ || depth < 0 || depth >= static_cast<int>(level_.size())) return;
  level_.resize(static_cast<size_t>(depth));
  showLevel();
}

bool MuGraphPanel::selectOp(int op) {
  const view::ItemRef ref = view::muOpRef({level_, op});
  if (!graph_ || !view_->select(ref)) return false;
  showDetails(ref);
  return true;
}

// The entries above the shown level are links back to them.
void MuGraphPanel::showLevel() {
  QStringList links = crumbs(*graph_, level_);
  for (qsizetype depth = 0; depth < links.size(); ++depth)
    links[depth] = depth + 1 == links.size()
                       ? QStringLiteral("<b>%1</b>").arg(links[depth].toHtmlEscaped())
                       : QStringLiteral("<a href=\"%1\">%2</a>").arg(depth).arg(links[depth].toHtmlEscaped());
  breadcrumb_->setText(links.join(kSeparator));
  const QString title = QString::fromStdString(view::muGraphTitle(*graph_, level_));
  title_->setText(caption_.isEmpty() ? title : QStringLiteral("%1: %2").arg(caption_, title));
  details_->clear();
  view_->setGraph(view::buildMuGraphView(*graph_, level_));
  emit levelChanged();
}

void MuGraphPanel::showDetails(const view::ItemRef& ref) {
  const std::optional<view::MuOpId> id = view::parseMuOpRef(ref);
  if (!graph_ || !id || id->level != level_) return;
  details_->setPlainText(QString::fromStdString(view::muOpDetails(*graph_, *id)));
}

void MuGraphPanel::activate(const view::ItemRef& ref) {
  if (const std::optional<view::MuOpId> id = view::parseMuOpRef(ref); id && id->level == level_) descend(id->op);
}

QString MuGraphPanel::breadcrumbText() const { return graph_ ? crumbs(*graph_, level_).join(kSeparator) : QString(); }

QString MuGraphPanel::titleText() const { return title_->text(); }
QString MuGraphPanel::detailsText() const { return details_->toPlainText(); }

} // namespace tcx::viz
