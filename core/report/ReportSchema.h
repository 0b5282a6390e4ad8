#pragma once
// The report's tables, version kReportSchemaVersion (docs/report-schema.md
// documents each column). A change to them bumps the version.

namespace tcx {

inline constexpr const char* kReportSchemaSql = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE model (path TEXT, graph TEXT, nodes INTEGER, data_movement_nodes INTEGER, kernels INTEGER);
CREATE TABLE nodes (id INTEGER PRIMARY KEY, name TEXT, op_type TEXT, op_class TEXT, data_movement INTEGER,
                    kernel TEXT, eliminated INTEGER);
CREATE TABLE tensors (id INTEGER PRIMARY KEY, name TEXT, dtype TEXT, shape TEXT, bytes INTEGER, kind TEXT,
                      producer TEXT, virtual INTEGER, storage TEXT);
CREATE TABLE vtog_edges (id INTEGER PRIMARY KEY, from_tensor TEXT, to_tensor TEXT, op_node TEXT, op_type TEXT,
                         direction TEXT, type TEXT, min_contiguous_dim INTEGER, run_elements INTEGER,
                         partially_contiguous INTEGER, mapping TEXT, user_constraint TEXT, chosen INTEGER);
CREATE TABLE vtog_conflicts (edge_a INTEGER, edge_b INTEGER);
CREATE TABLE strategy_steps (step INTEGER PRIMARY KEY, tensor TEXT, edges TEXT, saving_us REAL, reason TEXT);
CREATE TABLE strategy_notes (note TEXT);
CREATE TABLE kernels (plan TEXT, id INTEGER, name TEXT, category TEXT, kind TEXT, fused_ops TEXT,
                      latency_us REAL, latency_source TEXT, bytes REAL, flops REAL, bound TEXT,
                      virtual_inputs INTEGER, virtual_outputs INTEGER, PRIMARY KEY (plan, id));
CREATE TABLE buffers (plan TEXT, id INTEGER, name TEXT, kind TEXT, bytes INTEGER, arena_offset INTEGER,
                      first_kernel INTEGER, last_kernel INTEGER, layout TEXT, PRIMARY KEY (plan, id));
CREATE TABLE memory (plan TEXT PRIMARY KEY, peak_bytes INTEGER, arena_bytes INTEGER, external_bytes INTEGER);
CREATE TABLE summary (plan TEXT PRIMARY KEY, kernels INTEGER, data_movement_kernels INTEGER, latency_us REAL,
                      data_movement_us REAL, compute_us REAL, peak_memory_bytes INTEGER, latency_source TEXT);
CREATE TABLE verifications (id INTEGER PRIMARY KEY, program_a TEXT, program_b TEXT, verdict TEXT,
                            requested_delta REAL, delta REAL, exp_terms INTEGER, trials INTEGER, redraws INTEGER,
                            seconds REAL, elements_per_trial INTEGER, not_lax TEXT, diff_output INTEGER,
                            diff_element INTEGER, diff_a TEXT, diff_b TEXT);
CREATE TABLE lax_subprograms (id INTEGER PRIMARY KEY, lax INTEGER, nodes INTEGER, first_node TEXT, last_node TEXT,
                              ops TEXT, max_exps INTEGER, cut_reason TEXT);
CREATE TABLE superopt_searches (id INTEGER PRIMARY KEY, program TEXT, nodes INTEGER, lax INTEGER, joined TEXT,
                                settings TEXT, stop_reason TEXT, resumed INTEGER, explored INTEGER, pruned INTEGER,
                                invalid INTEGER, candidates INTEGER, variants INTEGER, slow INTEGER,
                                verified INTEGER, rejected INTEGER, unchecked INTEGER, search_s REAL,
                                passes_cut INTEGER, ranking_s REAL, solver_queries INTEGER, solver_closure INTEGER,
                                solver_closure_missed INTEGER, solver_calls INTEGER,
                                solver_unknown INTEGER, solver_s REAL, reference_us REAL, best_us REAL,
                                speedup REAL, latency_source TEXT);
CREATE TABLE superopt_candidates (search INTEGER, rank INTEGER, hash TEXT, kernels INTEGER, estimated_us REAL,
                                  measured_us REAL, verdict TEXT, delta REAL, trials INTEGER, found_at_s REAL,
                                  mugraph TEXT, PRIMARY KEY (search, rank));
)sql";

} // namespace tcx
