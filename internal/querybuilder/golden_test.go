package querybuilder

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenCase is testdata/golden/<case>.json: a definition (an audience
// tree when kind is audience) and the catalog it compiles against.
type goldenCase struct {
	Kind      string          `json:"kind"` // eventFilter or audience
	Catalog   string          `json:"catalog"`
	Qualifier string          `json:"qualifier"`
	Tree      goldenTree      `json:"tree"`
	Blocks    json.RawMessage `json:"queryBlocks"`
}

type goldenTree struct {
	ID           string              `json:"id"`
	Blocks       json.RawMessage     `json:"queryBlocks"`
	Compositions []goldenComposition `json:"compositions"`
}

type goldenComposition struct {
	SetOperator SetOperator `json:"setOperator"`
	Operand     goldenTree  `json:"operand"`
}

var catalogs = map[string]func() *Catalog{"test": testCatalog}

func (g goldenTree) tree(t *testing.T) AudienceTree {
	tree := AudienceTree{ID: g.ID, Definition: decodeDef(t, string(g.Blocks))}
	for _, c := range g.Compositions {
		op := c.Operand.tree(t)
		tree.Compositions = append(tree.Compositions, Composition{SetOperator: c.SetOperator, Operand: &op})
	}
	return tree
}

// compileGolden compiles a case in one dialect and format.
func compileGolden(t *testing.T, g goldenCase, d Dialect, f Format) *Compiled {
	t.Helper()
	cat := catalogs[g.Catalog]()
	opts := Options{Format: f, Qualifier: g.Qualifier}
	var c *Compiled
	var err error
	if g.Kind == "audience" {
		c, err = CompileAudience(g.Tree.tree(t), cat, d, opts)
	} else {
		c, err = Compile(decodeDef(t, string(g.Blocks)), cat, EventFilter, d, opts)
	}
	if err != nil {
		t.Fatalf("compile %s %s: %v", d.Name(), f, err)
	}
	return c
}

func loadGolden(t *testing.T, path string) goldenCase {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g goldenCase
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if catalogs[g.Catalog] == nil {
		t.Fatalf("%s: unknown catalog %q", path, g.Catalog)
	}
	return g
}

// TestGolden compiles every case to BigQuery in both formats and compares
// the SQL (and params/types) byte for byte with the committed files. It
// also checks that compiling twice gives identical bytes and that every
// case compiles on postgres and sqlite.
func TestGolden(t *testing.T) {
	for _, path := range goldenCasePaths(t) {
		name := strings.TrimSuffix(path, ".json")
		t.Run(filepath.Base(name), func(t *testing.T) {
			g := loadGolden(t, path)
			param := compileGolden(t, g, BigQuery, Parameterized)
			lit := compileGolden(t, g, BigQuery, Literal)
			if again := compileGolden(t, g, BigQuery, Parameterized); again.Query != param.Query {
				t.Fatal("compiling twice gave different SQL")
			}
			for _, c := range []*Compiled{param, lit} {
				if !strings.HasPrefix(c.Query, "CTE_VALID_EVENTS AS (\n") || !strings.HasSuffix(c.Query, "\n)") {
					t.Fatalf("query must be one CTE named CTE_VALID_EVENTS:\n%s", c.Query)
				}
			}
			meta, _ := json.MarshalIndent(map[string]any{
				"params": param.Params, "types": param.Types,
				"subjectColumn": param.SubjectColumn, "columns": param.Columns,
			}, "", "  ")
			checkGolden(t, name+".bigquery.parameterized.sql", []byte(param.Query+"\n"))
			checkGolden(t, name+".bigquery.params.json", append(meta, '\n'))
			checkGolden(t, name+".bigquery.literal.sql", []byte(lit.Query+"\n"))
			for _, d := range []Dialect{Postgres, SQLite} {
				compileGolden(t, g, d, Parameterized)
				compileGolden(t, g, d, Literal)
			}
		})
	}
}

// goldenCasePaths lists the case files (not the <case>.bigquery.params.json outputs).
func goldenCasePaths(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob("testdata/golden/*.json")
	if err != nil || len(all) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	var cases []string
	for _, p := range all {
		if strings.Count(filepath.Base(p), ".") == 1 {
			cases = append(cases, p)
		}
	}
	return cases
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
