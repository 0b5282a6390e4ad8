#pragma once
// What the explorer's GUI tests share: sample paths, a main window that has
// opened a model with every layout done, and settings kept out of the
// user's own (recent files).

#include "MainWindow.h"

#include <QString>

#include <memory>
#include <string>

namespace tcx::test {

QString samplePath(const std::string& name);

// Recent files and other QSettings go to a temporary folder for this process.
void useScratchSettings();

// Opens a model or session as the command line does and waits until the
// model opened (true) or failed to (false).
bool openAndWait(viz::MainWindow& window, const QString& path, int timeoutMs = 60000);
// Waits until no graph view has a layout pending.
bool waitLayouts(viz::MainWindow& window, int timeoutMs = 60000);

// A shown main window with `sample` open and laid out.
std::unique_ptr<viz::MainWindow> openSample(const std::string& sample);
// The model file at `path`, opened the same way.
std::unique_ptr<viz::MainWindow> openModel(const QString& path);

} // namespace tcx::test
