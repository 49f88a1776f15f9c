package querybuilder

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reten-io/reten/internal/lifecycle"
)

// Lifecycle is what the classification statement of an AGC needs: the
// rules, the instant, and the population (the effective audience; nil is a
// root audience without blocks: every identity of the SUBJECTS table).
type Lifecycle struct {
	Rules      lifecycle.Rules
	AsOf       time.Time
	Population *AudienceTree
}

// The output columns of the classification statement, in order; the
// activation metrics follow as moment_0, moment_1, ... in rule order
// (lifecycle.Rules.ActiveMoments).
var LifecycleColumns = []string{"identity", "stage", "code", "lifetime", "days_since_last", "engagement"}

// lifecycleDialect renders what only the classification statement needs.
type lifecycleDialect interface {
	Dialect
	// text casts an identity to the engine's text type.
	text(expr string) string
	// week is the Monday (UTC) starting the ISO week of a timestamp.
	week(ts string) string
	// elapsedDays is floor((to - from) / 86,400 s) as an integer.
	elapsedDays(from, to string) string
	// tuple is a text key of several non-null values, equal exactly when the
	// values are.
	tuple(cols []string) string
}

// CompileLifecycle compiles the classification statement of one AGC: a
// complete SELECT (not a CTE) with one row per identity of the population:
// identity (text), stage and code (NULL when unclassified), the metrics
// that decided it (lifetime, days_since_last, engagement) and one
// activation metric per active moment. docs/lifecycle.md states the rules;
// lifecycle.Evaluate is their plain-Go reference.
func CompileLifecycle(l Lifecycle, cat *Catalog, d Dialect, opts Options) (*Compiled, error) {
	ld, ok := d.(lifecycleDialect)
	if !ok {
		return nil, fmt.Errorf("%w: dialect %v", ErrInvalidOptions, d)
	}
	var head string
	var pop *Compiled
	if l.Population != nil {
		var err error
		if pop, err = CompileAudience(*l.Population, cat, d, opts); err != nil {
			return nil, err
		}
		head = "WITH " + pop.Query + ",\npopulation AS (SELECT DISTINCT " + ld.text(d.quoteIdent(*pop.SubjectColumn)) +
			" AS identity FROM " + pop.FinalCteName + ")"
	}
	c, err := newCompiler(cat, Audience, d, opts)
	if err != nil {
		return nil, err
	}
	if pop != nil {
		c.n = len(pop.Params)
		if c.opts.Format == Parameterized {
			for k, v := range pop.Params {
				c.params[k], c.types[k] = v, pop.Types[k]
			}
			c.args = append(c.args, pop.Args...)
		}
	}
	if l.Population == nil {
		subjects, id, err := subjectsIdentity(cat)
		if err != nil {
			return nil, err
		}
		head = "WITH population AS (SELECT DISTINCT " + ld.text(c.ident(id)) + " AS identity FROM " + c.table(subjects) + ")"
	}
	lc := lifecycleCompiler{c: c, d: ld, t: c.bind(timestampValue(l.AsOf.UTC())), r: l.Rules}
	return lc.statement(head)
}

// subjectsIdentity is the SUBJECTS table and its identity column.
func subjectsIdentity(cat *Catalog) (table, column string, err error) {
	for i := range cat.Tables {
		if t := &cat.Tables[i]; t.Purpose == PurposeSubjects {
			if col := identityColumn(t); col != nil {
				return t.Name, col.Name, nil
			}
		}
	}
	return "", "", fmt.Errorf("%w: the catalog has no SUBJECTS table with an identity column", ErrInvalidOptions)
}

type lifecycleCompiler struct {
	c *compiler
	d lifecycleDialect
	t string // the instant T, bound once
	r lifecycle.Rules
}

// sourceIdentity is a pillar's source table and its identity column.
func sourceIdentity(cat *Catalog, table string) (*Table, *Column, error) {
	t, ok := cat.Table(table)
	if !ok {
		return nil, nil, fmt.Errorf("%w: table %q is not in the catalog", ErrInvalidOptions, table)
	}
	id := identityColumn(t)
	if id == nil {
		return nil, nil, fmt.Errorf("%w: table %q has no identity column", ErrInvalidOptions, table)
	}
	return t, id, nil
}

// grouped is a CTE of one row per identity of a source's rows before T.
func (lc lifecycleCompiler) grouped(name string, src lifecycle.Source, selects ...string) (string, error) {
	_, col, err := sourceIdentity(lc.c.cat, src.Table)
	if err != nil {
		return "", err
	}
	id := col.Name
	return name + " AS (SELECT " + lc.d.text(lc.c.ident(id)) + " AS identity, " + strings.Join(selects, ", ") +
		" FROM " + lc.c.table(src.Table) + " WHERE " + lc.c.ident(src.DateColumn) + " < " + lc.t + " GROUP BY 1)", nil
}

// metric is a method over a source's rows since windowDays days before T
// (every row before T when nil); the rows are already those before T.
func (lc lifecycleCompiler) metric(m lifecycle.Method, src lifecycle.Source, windowDays *int) string {
	date := lc.c.ident(src.DateColumn)
	cond := ""
	if windowDays != nil {
		cond = date + " >= " + lc.d.addTime(lc.t, Days, -*windowDays)
	}
	// when is expr inside the window and where the guard holds, NULL elsewhere.
	when := func(guard, expr string) string {
		full := cond
		if full != "" && guard != "" {
			full += " AND "
		}
		if full += guard; full == "" {
			return expr
		}
		return "CASE WHEN " + full + " THEN " + expr + " END"
	}
	cols := make([]string, len(src.Columns))
	for i, col := range src.Columns {
		cols[i] = lc.c.ident(col)
	}
	switch m {
	case lifecycle.Count:
		if cond == "" {
			return "COUNT(*)"
		}
		return "COUNT(" + when("", "1") + ")"
	case lifecycle.Sum:
		return "COALESCE(SUM(" + when("", cols[0]) + "), 0)"
	case lifecycle.ActiveWeeks:
		return "COUNT(DISTINCT " + when("", lc.d.week(date)) + ")"
	}
	if len(cols) == 1 {
		return "COUNT(DISTINCT " + when("", cols[0]) + ")"
	}
	guards := make([]string, len(cols))
	for i, col := range cols {
		guards[i] = col + " IS NOT NULL"
	}
	return "COUNT(DISTINCT " + when(strings.Join(guards, " AND "), lc.d.tuple(cols)) + ")"
}

func (lc lifecycleCompiler) statement(head string) (*Compiled, error) {
	r := lc.r
	moments := r.ActiveMoments()
	res, err := lc.grouped("last_rows", r.Resurrection.Source, "MAX("+lc.c.ident(r.Resurrection.DateColumn)+") AS last_at")
	if err != nil {
		return nil, err
	}
	eng, err := lc.grouped("engagement_rows", r.Engagement.Source,
		lc.metric(r.Engagement.Method, r.Engagement.Source, nil)+" AS lifetime",
		lc.metric(r.Engagement.Method, r.Engagement.Source, &r.Engagement.WindowDays)+" AS engagement")
	if err != nil {
		return nil, err
	}
	acts := []string{"MIN(" + lc.c.ident(r.Activation.DateColumn) + ") AS first_at"}
	metrics := []string{"p.identity", "COALESCE(e.lifetime, 0) AS lifetime",
		lc.d.elapsedDays("l.last_at", lc.t) + " AS days_since_last", "COALESCE(e.engagement, 0) AS engagement", "a.first_at"}
	out := append([]string(nil), LifecycleColumns...)
	for i, m := range moments {
		name := "moment_" + strconv.Itoa(i)
		acts = append(acts, lc.metric(r.Activation.Method, r.Activation.Source, m.WindowDays)+" AS "+name)
		metrics = append(metrics, "COALESCE(a."+name+", 0) AS "+name)
		out = append(out, name)
	}
	act, err := lc.grouped("activation_rows", r.Activation.Source, acts...)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(head + ",\n" + res + ",\n" + eng + ",\n" + act + ",\n")
	b.WriteString("metrics AS (SELECT " + strings.Join(metrics, ", ") + " FROM population AS p" +
		" LEFT JOIN last_rows AS l ON l.identity = p.identity" +
		" LEFT JOIN engagement_rows AS e ON e.identity = p.identity" +
		" LEFT JOIN activation_rows AS a ON a.identity = p.identity),\n")
	b.WriteString("decided AS (SELECT metrics.*, " + lc.rule() + " AS rule_applied FROM metrics),\n")
	b.WriteString("coded AS (SELECT decided.*, " + lc.code() + " AS code FROM decided)\n")
	b.WriteString("SELECT identity, CASE WHEN code IS NULL THEN NULL ELSE rule_applied END AS stage, code, " +
		strings.Join(out[3:], ", ") + " FROM coded")
	compiled := &Compiled{Dialect: lc.d.Name(), Format: lc.c.opts.Format, Query: b.String(),
		Params: lc.c.params, Types: lc.c.types, Args: lc.c.args}
	for i, name := range out {
		t := TypeFloat64 // a sum may have a fraction
		switch {
		case i < 3:
			t = TypeString
		case name == "days_since_last":
			t = TypeInt64
		}
		compiled.Columns = append(compiled.Columns, OutputColumn{Name: name, Type: t})
	}
	return compiled, nil
}

// rule is the rule that applies: RESURRECTION, ACTIVATION or ENGAGEMENT.
func (lc lifecycleCompiler) rule() string {
	var b strings.Builder
	b.WriteString("CASE")
	if ts := lc.r.ActiveThresholds(); len(ts) > 0 {
		b.WriteString(" WHEN days_since_last >= " + strconv.Itoa(ts[len(ts)-1].ThresholdDays) + " THEN 'RESURRECTION'")
	}
	b.WriteString(" WHEN lifetime < " + strconv.Itoa(lc.r.Engagement.MinLifetime) + " THEN 'ACTIVATION' ELSE 'ENGAGEMENT' END")
	return b.String()
}

// code is the status code the applying rule finds, NULL when it finds none.
func (lc lifecycleCompiler) code() string {
	str := func(s string) string { return lc.d.literal(scalarValue{typ: TypeString, str: s}) }
	var b strings.Builder
	if ts := lc.r.ActiveThresholds(); len(ts) > 0 {
		b.WriteString(" WHEN 'RESURRECTION' THEN CASE")
		for _, t := range ts {
			b.WriteString(" WHEN days_since_last >= " + strconv.Itoa(t.ThresholdDays) + " THEN " + str(t.StatusCode))
		}
		b.WriteString(" END")
	}
	if ms := lc.r.ActiveMoments(); len(ms) > 0 {
		b.WriteString(" WHEN 'ACTIVATION' THEN CASE")
		for i, m := range ms {
			minActions := 0
			if m.MinActions != nil {
				minActions = *m.MinActions
			}
			cond := "moment_" + strconv.Itoa(i) + " >= " + strconv.Itoa(minActions)
			if m.TimeWindow != nil {
				cond += " AND first_at >= " + lc.d.addTime(lc.t, Days, -*m.TimeWindow)
			}
			b.WriteString(" WHEN " + cond + " THEN " + str(m.StatusCode))
		}
		b.WriteString(" END")
	}
	if ls := lc.r.ActiveLevels(); len(ls) > 0 {
		b.WriteString(" WHEN 'ENGAGEMENT' THEN CASE")
		for _, l := range ls {
			cond := "engagement >= " + strconv.Itoa(l.MinThreshold)
			if l.MaxThreshold != nil {
				cond += " AND engagement <= " + strconv.Itoa(*l.MaxThreshold)
			}
			b.WriteString(" WHEN " + cond + " THEN " + str(l.StatusCode))
		}
		b.WriteString(" END")
	}
	if b.Len() == 0 {
		return lc.d.text("NULL")
	}
	return "CASE rule_applied" + b.String() + " END"
}

func (postgres) text(expr string) string { return "CAST(" + expr + " AS text)" }

func (postgres) week(ts string) string { return "date_trunc('week', " + ts + " AT TIME ZONE 'UTC')" }

func (postgres) elapsedDays(from, to string) string {
	return "CAST(floor(extract(epoch FROM (" + to + " - " + from + ")) / 86400) AS bigint)"
}

func (postgres) tuple(cols []string) string {
	return "CAST(jsonb_build_array(" + strings.Join(cols, ", ") + ") AS text)"
}

func (sqlite) text(expr string) string { return "CAST(" + expr + " AS TEXT)" }

func (sqlite) week(ts string) string { return "date(" + ts + ", 'weekday 0', '-6 days')" }

// elapsedDays counts whole milliseconds (the precision of the catalog's
// SQLite timestamps) and divides them as integers.
func (sqlite) elapsedDays(from, to string) string {
	return "(CAST(round((julianday(" + to + ") - julianday(" + from + ")) * 86400000) AS INTEGER) / 86400000)"
}

func (sqlite) tuple(cols []string) string { return "json_array(" + strings.Join(cols, ", ") + ")" }

func (bigQuery) text(expr string) string { return "CAST(" + expr + " AS STRING)" }

func (bigQuery) week(ts string) string { return "DATE_TRUNC(DATE(" + ts + "), ISOWEEK)" }

func (bigQuery) elapsedDays(from, to string) string {
	return "DIV(TIMESTAMP_DIFF(" + to + ", " + from + ", MICROSECOND), 86400000000)"
}

func (bigQuery) tuple(cols []string) string {
	return "TO_JSON_STRING(STRUCT(" + strings.Join(cols, ", ") + "))"
}
