package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/dataset"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// datasetHandlers maps the REST lines of tenancy.datasetMatrix to their handlers.
func (a *api) datasetHandlers() map[string]handler {
	return map[string]handler{
		"GET /tenant-dataset":         a.getDataset,
		"PUT /tenant-dataset":         a.putDataset,
		"GET /tenant-dataset/catalog": a.getDatasetCatalog,
		"PUT /tenant-dataset/catalog": a.putDatasetCatalog,
	}
}

// Type messages of the dataset bodies; catalog ones take the member's path.
const (
	msgDatasetConnString   = "connection must be a string"
	msgDatasetSchemaString = "schemaName must be a string"
	msgDatasetProjString   = "bigqueryProject must be a string"
	msgDatasetDSString     = "bigqueryDataset must be a string"
	msgCatalogTables       = "tables must be an array"
	msgCatalogStringFmt    = "%s must be a string"
	msgCatalogBoolFmt      = "%s must be a boolean value"
	msgCatalogArrayFmt     = "%s must be an array"
	msgCatalogObjectFmt    = "%s must be an object"
	msgCatalogUnknownFmt   = "%s.property %s should not exist"
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
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// nullable presents "" as null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func presentDataset(d *ent.TenantDataset) datasetDTO {
	return datasetDTO{ID: d.ID, Engine: string(d.Engine), SchemaName: nullable(d.SchemaName),
		BigqueryProject: nullable(d.BigqueryProject), BigqueryDataset: nullable(d.BigqueryDataset),
		HasConnection: dataset.HasConnection(d), Managed: d.Managed, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
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
	out := catalogDTO{Tables: make([]catalogTableDTO, len(cat.Tables))}
	for i, t := range cat.Tables {
		td := catalogTableDTO{Name: t.Name, Description: nullable(t.Description), Purpose: t.Purpose,
			DefaultTimeReferenceColumn: nullable(t.DefaultTimeReferenceColumn),
			Columns:                    presentColumns(t.Columns), SemiJoins: make([]semiJoinDTO, len(t.SemiJoins))}
		for j, sj := range t.SemiJoins {
			on := make([]joinKeyDTO, len(sj.On))
			for k, key := range sj.On {
				on[k] = joinKeyDTO(key)
			}
			td.SemiJoins[j] = semiJoinDTO{Name: sj.Name, ToTable: sj.ToTable, On: on}
		}
		out.Tables[i] = td
	}
	return out
}

func presentColumns(cols []qb.Column) []catalogColumnDTO {
	out := make([]catalogColumnDTO, len(cols))
	for i, c := range cols {
		out[i] = catalogColumnDTO{Name: c.Name, Type: string(c.Type), IsRepeated: c.Repeated, IsIdentity: c.IsIdentity,
			IsDefaultTimeReference: c.IsDefaultTimeReference, Description: nullable(c.Description),
			SubFields: presentColumns(c.SubFields)}
	}
	return out
}

func (a *api) getDataset(w http.ResponseWriter, r *http.Request) error {
	d, err := a.Dataset.Get(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentDataset(d))
	return nil
}

func (a *api) putDataset(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "engine", "connection", "schemaName", "bigqueryProject", "bigqueryDataset")
	if err != nil {
		return err
	}
	var in dataset.ConfigInput
	in.Engine, _ = b.str("engine", dataset.MsgEngine)
	in.Connection = b.optStr("connection", msgDatasetConnString)
	in.SchemaName, _ = b.str("schemaName", msgDatasetSchemaString)
	in.BigqueryProject, _ = b.str("bigqueryProject", msgDatasetProjString)
	in.BigqueryDataset, _ = b.str("bigqueryDataset", msgDatasetDSString)
	if err := b.err(); err != nil {
		return err
	}
	d, created, err := a.Dataset.Set(r.Context(), in)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, presentDataset(d))
	return nil
}

func (a *api) getDatasetCatalog(w http.ResponseWriter, r *http.Request) error {
	d, err := a.Dataset.GetCatalog(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCatalog(dataset.ToCatalog(d)))
	return nil
}

func (a *api) putDatasetCatalog(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "tables")
	if err != nil {
		return err
	}
	raws, _ := b.array("tables", msgCatalogTables)
	if raw, sent := b.fields["tables"]; !sent || string(raw) == "null" {
		b.fail(msgCatalogTables) // required: [] clears the catalog
	}
	dec := &catalogDecoder{body: b}
	cat := qb.Catalog{Tables: make([]qb.Table, 0, len(raws))}
	for i, raw := range raws {
		cat.Tables = append(cat.Tables, dec.table(fmt.Sprintf("tables[%d]", i), raw))
	}
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.Dataset.SetCatalog(r.Context(), cat)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCatalog(dataset.ToCatalog(d)))
	return nil
}

// catalogDecoder reads the nested members of a catalog body strictly,
// adding one message (named by path) per type error or unknown member.
type catalogDecoder struct{ body *body }

// object decodes raw as an object whose members must be in allowed.
func (d *catalogDecoder) object(path string, raw json.RawMessage, allowed ...string) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		d.body.fail(fmt.Sprintf(msgCatalogObjectFmt, path))
		return nil
	}
	names := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(allowed, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		d.body.fail(fmt.Sprintf(msgCatalogUnknownFmt, path, k))
	}
	return m
}

// member decodes m[key] into v unless missing or null; a type mismatch adds
// the message format typeMsg with the member's path.
func (d *catalogDecoder) member(m map[string]json.RawMessage, path, key, typeMsg string, v any) bool {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return false
	}
	if json.Unmarshal(raw, v) != nil {
		d.body.fail(fmt.Sprintf(typeMsg, path+"."+key))
		return false
	}
	return true
}

func (d *catalogDecoder) str(m map[string]json.RawMessage, path, key string) string {
	var s string
	d.member(m, path, key, msgCatalogStringFmt, &s)
	return s
}

func (d *catalogDecoder) boolean(m map[string]json.RawMessage, path, key string) bool {
	var v bool
	d.member(m, path, key, msgCatalogBoolFmt, &v)
	return v
}

func (d *catalogDecoder) list(m map[string]json.RawMessage, path, key string) []json.RawMessage {
	var l []json.RawMessage
	d.member(m, path, key, msgCatalogArrayFmt, &l)
	return l
}

func (d *catalogDecoder) table(path string, raw json.RawMessage) qb.Table {
	m := d.object(path, raw, "name", "description", "purpose", "defaultTimeReferenceColumn", "columns", "semiJoins")
	if m == nil {
		return qb.Table{}
	}
	t := qb.Table{Name: d.str(m, path, "name"), Description: d.str(m, path, "description"), Purpose: d.str(m, path, "purpose"),
		DefaultTimeReferenceColumn: d.str(m, path, "defaultTimeReferenceColumn")}
	for i, c := range d.list(m, path, "columns") {
		t.Columns = append(t.Columns, d.column(fmt.Sprintf("%s.columns[%d]", path, i), c))
	}
	for i, raw := range d.list(m, path, "semiJoins") {
		sp := fmt.Sprintf("%s.semiJoins[%d]", path, i)
		sm := d.object(sp, raw, "name", "toTable", "on")
		if sm == nil {
			continue
		}
		sj := qb.SemiJoin{Name: d.str(sm, sp, "name"), ToTable: d.str(sm, sp, "toTable")}
		for k, raw := range d.list(sm, sp, "on") {
			kp := fmt.Sprintf("%s.on[%d]", sp, k)
			if km := d.object(kp, raw, "left", "right"); km != nil {
				sj.On = append(sj.On, qb.JoinKey{Left: d.str(km, kp, "left"), Right: d.str(km, kp, "right")})
			}
		}
		t.SemiJoins = append(t.SemiJoins, sj)
	}
	return t
}

func (d *catalogDecoder) column(path string, raw json.RawMessage) qb.Column {
	m := d.object(path, raw, "name", "type", "isRepeated", "isIdentity", "isDefaultTimeReference", "description", "subFields")
	if m == nil {
		return qb.Column{}
	}
	c := qb.Column{Name: d.str(m, path, "name"), Type: qb.FieldType(d.str(m, path, "type")),
		Repeated: d.boolean(m, path, "isRepeated"), IsIdentity: d.boolean(m, path, "isIdentity"),
		IsDefaultTimeReference: d.boolean(m, path, "isDefaultTimeReference"), Description: d.str(m, path, "description")}
	for i, f := range d.list(m, path, "subFields") {
		c.SubFields = append(c.SubFields, d.column(fmt.Sprintf("%s.subFields[%d]", path, i), f))
	}
	return c
}
