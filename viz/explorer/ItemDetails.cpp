#include "ItemDetails.h"
#include "ops/OpDef.h"

#include "EdgeState.h"
#include "view/ItemLinks.h"

#include "view/GroupTree.h"
#include "view/VtogView.h"

#include <QObject>
#include <QStringList>

namespace tcx::viz {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// A titled table of (field, value) rows; values are already HTML.
class Html {
public:
  explicit Html(const QString& title) { out_ = "<h3>" + title + "</h3><table cellspacing='4'>"; }
  Html& row(const QString& field, const QString& value) {
    out_ += "<tr><td><b>" + field + "</b></td><td>" + value + "</td></tr>";
    return *this;
  }
  QString done() { return out_ + "</table>"; }

private:
  QString out_;
};

QString typed(const Value* v) {
  if (!v) return QObject::tr("(omitted)");
  return q(v->name()) + " : <code>" + q(v->type().toString()) + "</code>";
}

QString listed(const std::vector<Value*>& values) {
  QStringList items;
  for (const Value* v : values) items << typed(v);
  return items.join("<br>");
}

QString kernelLatency(const VtcSession& s, const view::ItemRef& ref) {
  std::optional<size_t> k = view::planKernelOf(s.optimizedPlan(), ref);
  if (!k) return QObject::tr("no kernel in the optimised plan");
  return QObject::tr("%1 µs in %2, %3")
      .arg(s.optimizedLatency().perKernel[*k].seconds * 1e6, 0, 'f', 2)
      .arg(q(s.optimizedPlan().kernels[*k].name))
      .arg(q(s.latencySource()));
}

QString nodeDetails(const VtcSession& s, const Node& n) {
  Html html(q(n.opType()) + " " + q(n.name()));
  html.row(QObject::tr("Op"), q(n.opType()) + (n.op().isDataMovement() ? QObject::tr(" (data movement)") : ""));
  for (const auto& [name, attr] : n.attrs().all()) html.row(q(name), "<code>" + q(attr.toString()) + "</code>");
  html.row(QObject::tr("Inputs"), listed(n.inputs())).row(QObject::tr("Outputs"), listed(n.outputs()));
  html.row(QObject::tr("Kernel"), q(s.kernels().kernelOf(&n).name));
  return html.row(QObject::tr("Latency"), kernelLatency(s, {view::ItemKind::Node, n.name()})).done();
}

QString valueDetails(const VtcSession& s, const Value& v) {
  Html html(QObject::tr("Tensor ") + q(v.name()));
  html.row(QObject::tr("Type"), "<code>" + q(v.type().toString()) + "</code>");
  QString role = v.isGraphInput() ? QObject::tr("graph input") : v.isConstant() ? QObject::tr("constant") : "";
  if (v.isGraphOutput()) role += (role.isEmpty() ? "" : ", ") + QObject::tr("graph output");
  if (!role.isEmpty()) html.row(QObject::tr("Role"), role);
  if (v.producer()) html.row(QObject::tr("Producer"), q(v.producer()->describe()));
  QStringList users;
  for (const Use& u : v.uses()) users << q(u.user->describe());
  if (!users.isEmpty()) html.row(QObject::tr("Users"), users.join("<br>"));
  const bool inVtog = !s.vtog().outgoing(&v).empty() || !s.vtog().incoming(&v).empty();
  if (inVtog) {
    const bool isVirtual = s.strategy().isVirtual(&v);
    html.row(QObject::tr("Strategy"), isVirtual ? QObject::tr("virtual") : QObject::tr("physical"));
    if (isVirtual)
      html.row(QObject::tr("Resolves to"), "<code>" + q(s.strategy().resolve(&v).mapping.toString()) + "</code>");
  }
  return html.done();
}

QString edgeDetails(const VtcSession& s, const VtogEdge& e) {
  const view::VtogAnnotations notes = view::vtogAnnotations(s);
  Html html(QObject::tr("VTOG edge ") + q(view::vtogEdgeRef(e.id).name));
  html.row(QObject::tr("Virtual"), typed(e.from)).row(QObject::tr("Over"), typed(e.to));
  html.row(QObject::tr("Eliminates"), q(e.op->describe()) + ", " + edgeDirectionName(e.direction));
  html.row(QObject::tr("Type"), opportunityTypeName(e.type));
  html.row(QObject::tr("Mapping"), "<code>" + q(e.mapping.toString({e.to->name()})) + "</code>");
  html.row(QObject::tr("Contiguity"), QObject::tr("from dim %1, %2 elements per run%3")
                                          .arg(e.contiguity.minContiguousDim)
                                          .arg(e.contiguity.runElements)
                                          .arg(e.contiguity.full ? QObject::tr(" (whole tensor)") : ""));
  QStringList conflicts;
  for (const view::ItemRef& c : view::conflictSetOf(s.vtog(), e.id)) conflicts << q(c.name);
  html.row(QObject::tr("Conflicts"), conflicts.isEmpty() ? QObject::tr("none") : conflicts.join(", "));
  html.row(QObject::tr("State"), edgeStateName(edgeState(s.constraints(), e.id)));
  html.row(QObject::tr("Chosen"), notes.chosen.count(e.id) ? QObject::tr("yes") : QObject::tr("no"));
  if (auto it = notes.savings.find(e.id); it != notes.savings.end())
    html.row(QObject::tr("Saving"), QObject::tr("%1 µs (%2)").arg(it->second * 1e6, 0, 'f', 2).arg(q(notes.savingSource)));
  return html.done();
}

QString kernelDetails(const VtcSession& s, const FusedKernel& k) {
  Html html(QObject::tr("Kernel ") + q(k.name));
  html.row(QObject::tr("Kind"), kernelKindName(k.kind)).row(QObject::tr("Ops"), q(k.opSummary()));
  QStringList nodes;
  for (const Node* n : k.nodes) nodes << q(n->name());
  html.row(QObject::tr("Nodes"), nodes.join("<br>"));
  html.row(QObject::tr("Inputs"), listed(k.inputs)).row(QObject::tr("Outputs"), listed(k.outputs));
  return html.row(QObject::tr("Latency"), kernelLatency(s, {view::ItemKind::Kernel, k.name})).done();
}

QString groupDetails(const VtcSession& s, const view::ItemRef& ref) {
  const view::GroupTree scopes = view::scopeTree(s.graph());
  const int g = scopes.find(ref);
  if (g < 0) return {};
  const view::OpGroup& group = scopes.groups()[g];
  return Html(QObject::tr("Scope ") + q(ref.name))
      .row(QObject::tr("Ops"), QString::number(group.totalOps))
      .row(QObject::tr("Sub-scopes"), QString::number(group.children.size()))
      .done();
}

} // namespace

QString itemDetailsHtml(const VtcSession& s, const view::ItemRef& ref) {
  switch (ref.kind) {
  case view::ItemKind::Node:
    if (const Node* n = s.graph().findNode(ref.name)) return nodeDetails(s, *n);
    break;
  case view::ItemKind::Value:
    if (const Value* v = s.graph().findValue(ref.name)) return valueDetails(s, *v);
    break;
  case view::ItemKind::Edge:
    if (std::optional<int> id = view::edgeIdOf(ref); id && *id >= 0 && *id < static_cast<int>(s.vtog().edges().size()))
      return edgeDetails(s, s.vtog().edge(*id));
    break;
  case view::ItemKind::Kernel:
    for (const FusedKernel& k : s.kernels().kernels())
      if (k.name == ref.name) return kernelDetails(s, k);
    break;
  case view::ItemKind::Group: return groupDetails(s, ref);
  }
  return {};
}

} // namespace tcx::viz
