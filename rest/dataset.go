package rest

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/dataset"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// datasetDTO is the tenant's dataset configuration (designed shape). The
// connection is write-only: hasConnection says whether one is stored;
// managed, whether the service hosts it (its location cannot change).
type datasetDTO struct {
	ID              uuid.UUID `json:"id"`
	Engine          string    `json:"engine"`
	SchemaName      *string   `json:"schemaName"`
	BigqueryProject *string   `json:"bigqueryProject"`
	BigqueryDataset *string   `json:"bigqueryDataset"`
	HasConnection   bool      `json:"hasConnection"`
	Managed         bool      `json:"managed"`
	stamps
}

func presentDataset(d *ent.TenantDataset) datasetDTO {
	return datasetDTO{ID: d.ID, Engine: string(d.Engine), SchemaName: nullable(d.SchemaName),
		BigqueryProject: nullable(d.BigqueryProject), BigqueryDataset: nullable(d.BigqueryDataset),
		HasConnection: dataset.HasConnection(d), Managed: d.Managed, stamps: stamps{d.CreatedAt, d.UpdatedAt}}
}

// catalogDTO is the catalog, in the shape PUT /api/tenant-dataset/catalog takes.
type catalogDTO struct {
	Tables []catalogTableDTO `json:"tables"`
}

type catalogTableDTO struct {
	Name                       string             `json:"name"`
	Description                *string            `json:"description"`
	Purpose                    string             `json:"purpose"`
	DefaultTimeReferenceColumn *string            `json:"defaultTimeReferenceColumn"`
	Columns                    []catalogColumnDTO `json:"columns"`
	SemiJoins                  []semiJoinDTO      `json:"semiJoins"`
}

type catalogColumnDTO struct {
	Name                   string             `json:"name"`
	Type                   string             `json:"type"`
	IsRepeated             bool               `json:"isRepeated"`
	IsIdentity             bool               `json:"isIdentity"`
	IsDefaultTimeReference bool               `json:"isDefaultTimeReference"`
	Description            *string            `json:"description"`
	SubFields              []catalogColumnDTO `json:"subFields"`
}

type semiJoinDTO struct {
	Name    string       `json:"name"`
	ToTable string       `json:"toTable"`
	On      []joinKeyDTO `json:"on"`
}

type joinKeyDTO struct {
	Left  string `json:"left"`
	Right string `json:"right"`
}

func presentCatalog(cat *qb.Catalog) catalogDTO {
	return catalogDTO{Tables: presentAll(cat.Tables, func(t qb.Table) catalogTableDTO {
		return catalogTableDTO{Name: t.Name, Description: nullable(t.Description), Purpose: t.Purpose,
			DefaultTimeReferenceColumn: nullable(t.DefaultTimeReferenceColumn),
			Columns:                    presentAll(t.Columns, presentCatalogColumn), SemiJoins: presentAll(t.SemiJoins, presentSemiJoin)}
	})}
}

func presentCatalogColumn(c qb.Column) catalogColumnDTO {
	return catalogColumnDTO{Name: c.Name, Type: string(c.Type), IsRepeated: c.Repeated, IsIdentity: c.IsIdentity,
		IsDefaultTimeReference: c.IsDefaultTimeReference, Description: nullable(c.Description),
		SubFields: presentAll(c.SubFields, presentCatalogColumn)}
}

func presentSemiJoin(sj qb.SemiJoin) semiJoinDTO {
	return semiJoinDTO{Name: sj.Name, ToTable: sj.ToTable, On: presentAll(sj.On, func(k qb.JoinKey) joinKeyDTO { return joinKeyDTO(k) })}
}

// presentDatasetCatalog presents the stored catalog of a dataset.
func presentDatasetCatalog(d *ent.TenantDataset) catalogDTO {
	return presentCatalog(dataset.ToCatalog(d))
}

var datasetBody = bodyOf(func(b *body) dataset.ConfigInput {
	return dataset.ConfigInput{Engine: b.str("engine", dataset.MsgEngine).OrZero(), Connection: b.str("connection").Ptr(),
		SchemaName: b.str("schema_name").OrZero(), BigqueryProject: b.str("bigquery_project").OrZero(),
		BigqueryDataset: b.str("bigquery_dataset").OrZero()}
}, "engine", "connection", "schema_name", "bigquery_project", "bigquery_dataset")

func (a *api) putDataset(w http.ResponseWriter, r *http.Request) error {
	in, err := datasetBody(r)
	if err != nil {
		return err
	}
	d, created, err := a.Dataset.Set(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, createdOr200(created), presentDataset(d))
	return nil
}

// catalogBody reads the catalog: {tables: [...]}, required ([] clears it).
// Its members are named by path with bracketed indices
// ("tables[0].columns[1].name must be a string").
var catalogBody = func(r *http.Request) (qb.Catalog, error) {
	b, err := decodeBody(r, "tables")
	if err != nil {
		return qb.Catalog{}, err
	}
	b.brackets = true
	raws := b.requiredArray("tables")
	cat := qb.Catalog{Tables: make([]qb.Table, 0, len(raws))}
	for i, raw := range raws {
		cat.Tables = append(cat.Tables, catalogTable(b.elem("tables", i, raw, "name", "description", "purpose",
			"default_time_reference_column", "columns", "semi_joins")))
	}
	return cat, b.err()
}

func catalogTable(b *body) qb.Table {
	if b == nil {
		return qb.Table{}
	}
	t := qb.Table{Name: b.str("name").OrZero(), Description: b.str("description").OrZero(), Purpose: b.str("purpose").OrZero(),
		DefaultTimeReferenceColumn: b.str("default_time_reference_column").OrZero()}
	for i, raw := range b.array("columns").OrZero() {
		t.Columns = append(t.Columns, catalogColumn(b.elem("columns", i, raw, catalogColumnMembers...)))
	}
	for i, raw := range b.array("semi_joins").OrZero() {
		sb := b.elem("semi_joins", i, raw, "name", "to_table", "on")
		if sb == nil {
			continue
		}
		sj := qb.SemiJoin{Name: sb.str("name").OrZero(), ToTable: sb.str("to_table").OrZero()}
		for k, raw := range sb.array("on").OrZero() {
			if kb := sb.elem("on", k, raw, "left", "right"); kb != nil {
				sj.On = append(sj.On, qb.JoinKey{Left: kb.str("left").OrZero(), Right: kb.str("right").OrZero()})
			}
		}
		t.SemiJoins = append(t.SemiJoins, sj)
	}
	return t
}

var catalogColumnMembers = []string{"name", "type", "is_repeated", "is_identity", "is_default_time_reference", "description", "sub_fields"}

func catalogColumn(b *body) qb.Column {
	if b == nil {
		return qb.Column{}
	}
	c := qb.Column{Name: b.str("name").OrZero(), Type: qb.FieldType(b.str("type").OrZero()),
		Repeated: b.boolean("is_repeated").OrZero(), IsIdentity: b.boolean("is_identity").OrZero(),
		IsDefaultTimeReference: b.boolean("is_default_time_reference").OrZero(), Description: b.str("description").OrZero()}
	for i, raw := range b.array("sub_fields").OrZero() {
		c.SubFields = append(c.SubFields, catalogColumn(b.elem("sub_fields", i, raw, catalogColumnMembers...)))
	}
	return c
}
