#include "CudaHighlighter.h"

namespace tcx::viz {

namespace {

constexpr const char* kKeywords =
    R"(\b(?:if|else|for|while|do|return|break|continue|switch|case|default|struct|class|template|typename|)"
    R"(namespace|using|const|constexpr|static|inline|extern|auto|sizeof|static_assert|true|false|nullptr)\b)";
constexpr const char* kCuda =
    R"(\b(?:__global__|__device__|__host__|__shared__|__constant__|__restrict__|__forceinline__|)"
    R"(__launch_bounds__|__syncthreads|threadIdx|blockIdx|blockDim|gridDim|warpSize)\b)";
constexpr const char* kTypes =
    R"(\b(?:void|bool|char|short|int|long|unsigned|float|double|half|__half|__nv_bfloat16|bf16|)"
    R"(u?int(?:8|16|32|64)_t|size_t)\b)";

QTextCharFormat textFormat(const QColor& colour, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(colour);
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

} // namespace

CudaHighlighter::CudaHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) { setDark(false); }

void CudaHighlighter::setDark(bool dark) {
  auto pick = [dark](const char* light, const char* darkColour) { return QColor(dark ? darkColour : light); };
  rules_ = {
      {QRegularExpression(kKeywords), textFormat(pick("#0033b3", "#cc7832"), true)},
      {QRegularExpression(kCuda), textFormat(pick("#871094", "#c77dbb"), true)},
      {QRegularExpression(kTypes), textFormat(pick("#1750eb", "#6897bb"))},
      {QRegularExpression(R"(\b(?:0x[0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?[fFuUlL]*)\b)"),
       textFormat(pick("#1750eb", "#6897bb"))},
      {QRegularExpression(R"("(?:[^"\\]|\\.)*")"), textFormat(pick("#067d17", "#6a8759"))},
      {QRegularExpression(R"(^\s*#\s*\w+.*$)"), textFormat(pick("#9e880d", "#bbb529"))},
      {QRegularExpression(R"(//.*$)"), textFormat(pick("#8c8c8c", "#808080"), false, true)},
  };
  comment_ = textFormat(pick("#8c8c8c", "#808080"), false, true);
  rehighlight();
}

void CudaHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : rules_) {
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      QRegularExpressionMatch m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), rule.format);
    }
  }
  // Block comments, carried across lines through the block state (1: inside).
  static const QRegularExpression open(R"(/\*)"), close(R"(\*/)");
  qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(open);
  setCurrentBlockState(0);
  while (start >= 0) {
    QRegularExpressionMatch end = close.match(text, start);
    qsizetype length = end.hasMatch() ? end.capturedEnd() - start : text.length() - start;
    if (!end.hasMatch()) setCurrentBlockState(1);
    setFormat(static_cast<int>(start), static_cast<int>(length), comment_);
    start = end.hasMatch() ? text.indexOf(open, start + length) : -1;
  }
}

} // namespace tcx::viz
