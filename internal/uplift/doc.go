// Package uplift measures what an AGC's generated activities changed: it
// compares the decisions that created an activity (treated: GENERATED) with
// those that held the commerce out (control: HELD_OUT, reasons
// CONTROL_GROUP and AGC_HOLDOUT), each measured from its own instant.
//
// Population. The AGC's generation decisions of kind GENERATED or HELD_OUT
// of the active project, optionally of one rule of the AGC (rule_id; a rule
// in the trash too: its decisions are history), of the AGC's rules of one
// channel (channel, the rule's: SALESMAN, CALLCENTER, WHATSAPP, EMAIL, SMS,
// PUSH), and decided in [from, to) (RFC 3339 instants). One row per
// decision: a commerce decided several times (by several rules, or on
// several entries into a state) counts once per decision, each with its own
// window. The statistics take the rows as independent, which they are not
// quite when commerces repeat; narrowing the report to one rule counts each
// entry into the rule's state once.
//
// Window. A decision's instant t0 is its decided_at; its window is
// [t0, t0 + W days), W = window_days (1 to 365, 30 by default; a day is
// 86,400 s). Only decisions whose window has elapsed (t0 + W <= now) are
// measured, so that a half-observed window does not lower a rate; the
// others are counted as pending.
//
// Outcomes, each the share of a group's decisions for which it holds:
//
//   - ENGAGED: the commerce has at least one row in the AGC's engagement
//     source (its source_table, dated by date_column, named by the table's
//     identity column: the commerce's external_id) dated in the window. It
//     is computed in the tenant's dataset (PostgreSQL, SQLite), 1,000
//     decisions per statement; no dataset row leaves it. A commerce without
//     external_id is not engaged. The outcome is not computed (null, with a
//     warning) when the tenant has no dataset, when the dataset is BigQuery
//     (Reten runs no statement there), when the AGC has no engagement pillar
//     or the catalog cannot serve its source, or when the dataset cannot be
//     opened.
//   - IMPROVED: the commerce's state under the AGC at the end of the window
//     (its last transition dated in the window, else the decision's state)
//     is better than the decision's state (stage, status_code). Better:
//     from RESURRECTION, any other stage; from ACTIVATION, ENGAGEMENT;
//     within ENGAGEMENT, a level of greater min_threshold (the band of more
//     actions, whatever the levels' order, which only breaks ties between
//     overlapping bands; a code shared by several levels ranks at its
//     smallest min_threshold, and a code that is no level of the AGC is
//     never better nor improved upon). Nothing else is better:
//     ACTIVATION -> RESURRECTION, ENGAGEMENT -> ACTIVATION or
//     RESURRECTION, or another code within ACTIVATION or RESURRECTION.
//   - POSITIVE_RESULT (treated only; the control group has no activity):
//     the decision's activity has a result whose occurred_at is in the
//     window and whose result type is POSITIVE for the tenant (its
//     configuration of the code, else the catalog's default), whatever the
//     result's status.
//
// Statistics, per outcome: each group's n, successes and rate (null when n
// is 0); the uplift (treated rate - control rate) with its 95% interval by
// Newcombe's hybrid score method (method 10 of Newcombe 1998, built from
// the Wilson score intervals of the two rates, z = 1.959963984540054); and
// the two-sided p-value of the pooled two-proportion z-test,
// z = (p1 - p2) / sqrt(p(1 - p)(1/n1 + 1/n2)) with p the pooled rate, null
// when p is 0 or 1 (no variation to test). An outcome carries a warning
// when a group has fewer than 30 decisions, or fewer than 5 successes or 5
// failures: the normal approximations behind the p-value (and, to a lesser
// degree, the interval) are then unreliable.
//
// Report (Service.Report) and rows (Service.Rows, WriteCSV) read the same
// decisions the same way: in keyset pages of 1,000 by (decided_at, id),
// each page measured with one read of its commerces, one of their
// transitions over the page's span of windows, one of its activities'
// results and one dataset statement (read-only, within the preview
// timeout), so memory holds a page, never the AGC's population.
package uplift
