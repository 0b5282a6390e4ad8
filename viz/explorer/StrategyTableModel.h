#pragma once
// The strategy table: one row per VTOG edge with what VTC knows of it
// (tensors, op, Type I/II, mapping function, contiguity, saving and where
// the saving came from, whether the strategy chose it) and its editable
// state. Editing the state re-runs selection through the ExplorerModel.

#include "ExplorerModel.h"

#include "view/VtogView.h"

#include <QAbstractTableModel>

namespace tcx::viz {

class StrategyTableModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Edge, From, To, Op, Type, Mapping, Contiguity, Saving, Chosen, State, NumColumns };
  static constexpr int kSortRole = Qt::UserRole;

  explicit StrategyTableModel(ExplorerModel& model, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  // The State column takes a state's name ("forced").
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

private:
  void reload();
  void refresh();
  QVariant cell(const VtogEdge& edge, int column, bool sortKey) const;

  ExplorerModel& model_;
  view::VtogAnnotations annotations_;
};

} // namespace tcx::viz
