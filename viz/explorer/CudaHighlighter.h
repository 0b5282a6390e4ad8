#pragma once
// Syntax colours for the generated CUDA C++: keywords, CUDA qualifiers and
// built-ins, types, numbers, strings, preprocessor lines and comments
// (block comments may span lines).

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace tcx::viz {

class CudaHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

public:
  explicit CudaHighlighter(QTextDocument* document);
  // Colours for a dark background (true) or a light one.
  void setDark(bool dark);

protected:
  void highlightBlock(const QString& text) override;

private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

} // namespace tcx::viz
