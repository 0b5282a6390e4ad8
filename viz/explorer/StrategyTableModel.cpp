#include "StrategyTableModel.h"

namespace tcx::viz {

StrategyTableModel::StrategyTableModel(ExplorerModel& model, QObject* parent)
    : QAbstractTableModel(parent), model_(model) {
  connect(&model_, &ExplorerModel::opened, this, &StrategyTableModel::reload);
  connect(&model_, &ExplorerModel::strategyChanged, this, &StrategyTableModel::refresh);
  if (model_.isOpen()) reload();
}

void StrategyTableModel::reload() {
  beginResetModel();
  annotations_ = view::vtogAnnotations(model_.session());
  endResetModel();
}

// The same edges with a new strategy: cells change, rows stay (a reset here
// would pull the rows from under an editor that is committing a state).
void StrategyTableModel::refresh() {
  annotations_ = view::vtogAnnotations(model_.session());
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, NumColumns - 1));
}

int StrategyTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !model_.isOpen() ? 0 : static_cast<int>(model_.session().vtog().edges().size());
}

int StrategyTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : NumColumns; }

QVariant StrategyTableModel::data(const QModelIndex& index, int role) const {
  const VtogEdge& edge = model_.session().vtog().edge(index.row());
  if (role == Qt::DisplayRole || role == Qt::EditRole) return cell(edge, index.column(), false);
  if (role == kSortRole) return cell(edge, index.column(), true);
  if (role == Qt::ToolTipRole) return QString::fromStdString(edge.describe());
  return {};
}

QVariant StrategyTableModel::cell(const VtogEdge& e, int column, bool sortKey) const {
  auto text = [](const std::string& s) { return QString::fromStdString(s); };
  switch (column) {
  case Edge: return sortKey ? QVariant(e.id) : QVariant(text(view::vtogEdgeRef(e.id).name));
  case From: return text(e.from->name());
  case To: return text(e.to->name());
  case Op: return text(e.op->opType() + " " + e.op->name());
  case Type: return text(opportunityTypeName(e.type));
  case Mapping: return text(e.mapping.toString({e.to->name()}));
  case Contiguity:
    return sortKey ? QVariant(static_cast<qlonglong>(e.contiguity.runElements))
                   : QVariant(tr("from dim %1, %2 per run").arg(e.contiguity.minContiguousDim).arg(e.contiguity.runElements));
  case Saving: {
    auto it = annotations_.savings.find(e.id);
    if (it == annotations_.savings.end()) return sortKey ? QVariant(0.0) : QVariant(QString());
    return sortKey ? QVariant(it->second)
                   : QVariant(tr("%1 µs (%2)").arg(it->second * 1e6, 0, 'f', 2).arg(text(annotations_.savingSource)));
  }
  case Chosen: return annotations_.chosen.count(e.id) ? tr("yes") : QString();
  case State: return QString(edgeStateName(model_.edgeState(e.id)));
  }
  return {};
}

QVariant StrategyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kHeaders[NumColumns] = {"Edge",       "From",   "To",     "Op",    "Type",
                                                  "Mapping",    "Contiguity", "Saving", "Chosen", "State"};
  return tr(kHeaders[section]);
}

Qt::ItemFlags StrategyTableModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  return index.column() == State ? f | Qt::ItemIsEditable : f;
}

bool StrategyTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (index.column() != State || role != Qt::EditRole) return false;
  std::optional<EdgeState> state = parseEdgeState(value.toString().toStdString());
  if (!state) return false;
  // On success strategyChanged reloads every row; on failure the old state stays shown.
  return model_.setEdgeState(index.row(), *state);
}

} // namespace tcx::viz
