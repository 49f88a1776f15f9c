package agc

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/lifecycle"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Catalogs gives the tenant's dataset catalog (a 404 apperr when the tenant
// has no dataset); the dataset service is one.
type Catalogs interface {
	Catalog(ctx context.Context) (*qb.Catalog, *ent.TenantDataset, error)
}

// Message formats of the source checks (path is e.g. "activation").
const (
	MsgSourceTableFmt    = "%s.source_table %q is not a table of the dataset catalog"
	MsgSourceIdentityFmt = "%s.source_table %q has no identity column"
	MsgDateColumnFmt     = "%s.date_column %q must be a TIMESTAMP column of %q"
	MsgSourceColumnFmt   = "%s.source_columns.%d %q is not a column of %q"
	MsgSumColumnFmt      = "%s.source_columns.0 must be a numeric column for the sum method"
	MsgColumnsNeededFmt  = "%s.source_columns should not be empty for the %s method"
)

// pillarSource is what the engine reads of one pillar: its source and method
// ("" for resurrection, which reads only the instants).
type pillarSource struct {
	path   string
	source lifecycle.Source
	method string
}

// checkSources refuses pillars whose source the lifecycle engine could not
// read, when the tenant has a dataset: the table must be in the catalog
// with an identity column, the date column a TIMESTAMP, the source columns
// columns of the table, suited to the method (sum reads a numeric first
// column; nunique and sum need one). Without a dataset nothing is checked.
func (s *Service) checkSources(ctx context.Context, pillars []pillarSource) error {
	if s.catalogs == nil || len(pillars) == 0 {
		return nil
	}
	cat, _, err := s.catalogs.Catalog(ctx)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	var msgs []string
	for _, p := range pillars {
		msgs = append(msgs, sourceIssues(cat, p)...)
	}
	if len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	return nil
}

func sourceIssues(cat *qb.Catalog, p pillarSource) []string {
	src := p.source
	t, ok := cat.Table(src.Table)
	if !ok {
		return []string{fmt.Sprintf(MsgSourceTableFmt, p.path, src.Table)}
	}
	var msgs []string
	if !slices.ContainsFunc(t.Columns, func(c qb.Column) bool { return c.IsIdentity }) {
		msgs = append(msgs, fmt.Sprintf(MsgSourceIdentityFmt, p.path, src.Table))
	}
	if c, ok := t.Column(src.DateColumn); !ok || c.Type != qb.TypeTimestamp || c.Repeated {
		msgs = append(msgs, fmt.Sprintf(MsgDateColumnFmt, p.path, src.DateColumn, src.Table))
	}
	for i, name := range src.Columns {
		c, ok := t.Column(name)
		switch {
		case !ok || c.Repeated:
			msgs = append(msgs, fmt.Sprintf(MsgSourceColumnFmt, p.path, i, name, src.Table))
		case i == 0 && p.method == string(lifecycle.Sum) && !qb.IsNumeric(c.Type):
			msgs = append(msgs, fmt.Sprintf(MsgSumColumnFmt, p.path))
		}
	}
	switch lifecycle.Method(p.method) {
	case "", lifecycle.Count, lifecycle.ActiveWeeks:
	case lifecycle.NUnique, lifecycle.Sum:
		if len(src.Columns) == 0 {
			msgs = append(msgs, fmt.Sprintf(MsgColumnsNeededFmt, p.path, p.method))
		}
	default: // only engagement's counting_method is free text
		msgs = append(msgs, lifecycle.MethodsMessage(p.path+".counting_method"))
	}
	return msgs
}

// createdSources are the sources of a create body (validated: every field set).
func createdSources(in CreateInput) []pillarSource {
	return []pillarSource{
		{"activation", sourceOf(in.Activation.PillarFields, lifecycle.Source{}), *in.Activation.AggregationMethod},
		{"engagement", sourceOf(in.Engagement.PillarFields, lifecycle.Source{}), *in.Engagement.CountingMethod},
		{"resurrection", sourceOf(in.Resurrection.PillarFields, lifecycle.Source{}), ""},
	}
}

// StoredSourceIssues are the reasons the lifecycle engine cannot read the
// stored pillars of a (loaded with its pillars) from cat, in the messages of
// the save-time check; none when it can.
func StoredSourceIssues(cat *qb.Catalog, a *ent.ActivityGenerationConfig) []string {
	var msgs []string
	for _, p := range storedSources(a) {
		msgs = append(msgs, sourceIssues(cat, p)...)
	}
	return msgs
}

// storedSources are the sources of the stored pillars of a.
func storedSources(a *ent.ActivityGenerationConfig) []pillarSource {
	var out []pillarSource
	if p := a.Edges.ActivationConfig; p != nil {
		out = append(out, pillarSource{"activation", stored(p.SourceTable, p.DateColumn, p.SourceColumns), string(p.AggregationMethod)})
	}
	if p := a.Edges.EngagementConfig; p != nil {
		out = append(out, pillarSource{"engagement", stored(p.SourceTable, p.DateColumn, p.SourceColumns), p.CountingMethod})
	}
	if p := a.Edges.ResurrectionConfig; p != nil {
		out = append(out, pillarSource{"resurrection", stored(p.SourceTable, p.DateColumn, p.SourceColumns), ""})
	}
	return out
}

// editedSources are the sources of the pillars a lifecycle edit touches,
// each field sent replacing the stored one.
func editedSources(a *ent.ActivityGenerationConfig, in LifecycleInput) []pillarSource {
	var out []pillarSource
	for _, p := range storedSources(a) {
		f, method, ok := in.sent(p.path)
		if !ok || !touchesSource(f, method) {
			continue
		}
		p.source = sourceOf(f, p.source)
		if method != nil {
			p.method = *method
		}
		out = append(out, p)
	}
	return out
}

// sent is what the edit sends of pillar path: its fields and its method.
func (in LifecycleInput) sent(path string) (PillarFields, *string, bool) {
	switch {
	case path == "activation" && in.Activation != nil:
		return in.Activation.PillarFields, in.Activation.AggregationMethod, true
	case path == "engagement" && in.Engagement != nil:
		return in.Engagement.PillarFields, in.Engagement.CountingMethod, true
	case path == "resurrection" && in.Resurrection != nil:
		return in.Resurrection.PillarFields, nil, true
	}
	return PillarFields{}, nil, false
}

func stored(table, date string, cols []string) lifecycle.Source {
	return lifecycle.Source{Table: table, DateColumn: date, Columns: cols}
}

// touchesSource: the edit sends a field the engine reads.
func touchesSource(f PillarFields, method *string) bool {
	return f.SourceTable != nil || f.DateColumn != nil || f.SourceColumns != nil || method != nil
}

// sourceOf is cur with the fields f sends.
func sourceOf(f PillarFields, cur lifecycle.Source) lifecycle.Source {
	if f.SourceTable != nil {
		cur.Table = *f.SourceTable
	}
	if f.DateColumn != nil {
		cur.DateColumn = *f.DateColumn
	}
	if f.SourceColumns != nil {
		cur.Columns = cols(f.SourceColumns)
	}
	return cur
}
