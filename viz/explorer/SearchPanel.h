#pragma once
// Find (Ctrl+F): items of the current view by name, op type or regular
// expression (core's view::search, collapsed groups included). Results are
// listed and highlighted in the view; choosing one selects it everywhere.

#include "ExplorerModel.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace tcx::viz {

class GraphTabs;

class SearchPanel : public QWidget {
  Q_OBJECT

public:
  SearchPanel(ExplorerModel& model, GraphTabs& tabs, QWidget* parent = nullptr);

  // Runs a search as typing into the box does; mode 0 name, 1 op type, 2 regex.
  void search(const QString& query, int mode);
  const std::vector<view::ItemRef>& results() const { return results_; }
  // Selects result `row`, as clicking it does.
  void choose(int row);
  void focusQuery();

private:
  void run();

  ExplorerModel& model_;
  GraphTabs& tabs_;
  QLineEdit* query_;
  QComboBox* mode_;
  QListWidget* list_;
  QLabel* status_;
  std::vector<view::ItemRef> results_;
};

} // namespace tcx::viz
