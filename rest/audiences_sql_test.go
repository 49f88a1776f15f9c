package rest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/apptest"
)

func TestAudienceSQLAndPreview(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		quito := f.create(t, map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))})["id"].(string)
		body := map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy")), "compositions": []any{auComp(quito, "INTERSECT_DISTINCT")}}
		id := f.create(t, map[string]any{"name": "Farmacias de Quito", "queryBlocks": body["queryBlocks"], "compositions": body["compositions"]})["id"].(string)

		// The stored audience and the same definition sent compile alike.
		stored := f.ok(t, 200, "GET", "/api/audience-criterias/"+id+"/sql", nil)
		sent := f.ok(t, 201, "POST", "/api/audience-criterias/generate-sql", body)
		if fmt.Sprint(stored) != fmt.Sprint(sent) {
			t.Fatalf("stored %v\nsent %v", stored, sent)
		}
		if stored["format"] != "parameterized" || stored["finalCteName"] != "CTE_VALID_EVENTS" || stored["subjectColumn"] != "commerce_id" ||
			fmt.Sprint(stored["params"]) != "map[p0:pharmacy p1:Quito]" || fmt.Sprint(stored["types"]) != "map[p0:STRING p1:STRING]" {
			t.Fatalf("sql = %v", stored)
		}
		q := stored["query"].(string)
		if len(q) < 22 || q[:22] != "CTE_VALID_EVENTS AS (\n" || !auContainsAll(q, "INTERSECT DISTINCT", "`commerces`", "@p0", "@p1") {
			t.Fatalf("query = %s", q)
		}
		lit := f.ok(t, 200, "GET", "/api/audience-criterias/"+id+"/sql?format=literal", nil)
		if _, has := lit["params"]; has || !auContainsAll(lit["query"].(string), "'pharmacy'", "'Quito'") {
			t.Fatalf("literal = %v", lit)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+id+"/sql?format=x", nil, f.h), 400,
			[]string{"format must be one of the following values: parameterized, literal"})
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/generate-sql", map[string]any{"name": "x", "queryBlocks": body["queryBlocks"]}, f.h),
			400, []string{"property name should not exist"})
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+uuid.NewString()+"/sql", nil, f.h), 404, auNotFound)

		// Preview: sample subjects and the count of all of them.
		pharmaQuito := f.count(t, "SELECT COUNT(*) FROM %scommerces WHERE segment = 'pharmacy' AND city = 'Quito'")
		pharma := f.count(t, "SELECT COUNT(*) FROM %scommerces WHERE segment = 'pharmacy'")
		if pharmaQuito == 0 || pharma <= pharmaQuito || pharma < 3 {
			t.Fatalf("demo data too small: %d %d", pharmaQuito, pharma)
		}
		p := f.ok(t, 201, "POST", "/api/audience-criterias/"+id+"/preview", nil)
		if p["subjectCount"] != float64(pharmaQuito) || p["rowCount"] != float64(min(pharmaQuito, 20)) || fmt.Sprint(p["columns"]) != "[commerce_id]" {
			t.Fatalf("preview = %v", p)
		}
		p = f.ok(t, 201, "POST", "/api/audience-criterias/preview-from-body?limit=2", map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy"))})
		if p["subjectCount"] != float64(pharma) || p["rowCount"] != 2.0 || len(p["rows"].([]any)) != 2 {
			t.Fatalf("preview from body = %v", p)
		}
		for q, msg := range map[string]string{"0": "limit must not be less than 1", "101": "limit must not be greater than 100", "x": "limit must be an integer number"} {
			apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/"+id+"/preview?limit="+q, nil, f.h), 400, []string{msg})
		}
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/"+id+"/preview", map[string]any{"x": 1}, f.h), 400, []string{"property x should not exist"})
		// The root audience has no definition until edited: never a match-all.
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/"+f.root(t)+"/preview", nil, f.h), 400,
			[]string{"queryBlocks should not be empty"})

		// Validation lists issues; only a body that is no definition is a 400.
		v := f.ok(t, 201, "POST", "/api/audience-criterias/validate-from-body", body)
		if v["valid"] != true || len(v["errors"].([]any)) != 0 {
			t.Fatalf("validate = %v", v)
		}
		bad := auSegmentBlock("pharmacy")
		bad["select"] = map[string]any{"distinct": false, "items": []any{map[string]any{"kind": "column", "column": auCol("commerces", "nope")}}}
		v = f.ok(t, 201, "POST", "/api/audience-criterias/validate-from-body", map[string]any{"queryBlocks": auBlocks(bad)})
		if v["valid"] != false || len(v["errors"].([]any)) != 2 {
			t.Fatalf("validate bad = %v", v)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/validate-from-body", map[string]any{}, f.h), 400, []string{"queryBlocks should not be empty"})
	})
}

func auContainsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestAudienceMembershipChange(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		pharma := f.count(t, "SELECT COUNT(*) FROM %scommerces WHERE segment = 'pharmacy'")
		bakery := f.count(t, "SELECT COUNT(*) FROM %scommerces WHERE segment = 'bakery'")
		pharmaQuito := f.count(t, "SELECT COUNT(*) FROM %scommerces WHERE segment = 'pharmacy' AND city = 'Quito'")
		if pharma == 0 || bakery == 0 || pharmaQuito == 0 || pharmaQuito == pharma {
			t.Fatalf("demo data too small: %d %d %d", pharma, bakery, pharmaQuito)
		}
		quito := f.create(t, map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))})["id"].(string)
		created := f.create(t, map[string]any{"name": "Farmacias", "queryBlocks": auBlocks(auSegmentBlock("pharmacy"))})
		id := created["id"].(string)
		path := "/api/audience-criterias/" + id + "/preview-change"
		for _, c := range []struct {
			body map[string]any
			want string
		}{
			{map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy", "bakery"))}, fmt.Sprintf("map[after:%d before:%d entering:%d leaving:0]", pharma+bakery, pharma, bakery)},
			{map[string]any{"queryBlocks": auBlocks(auSegmentBlock("bakery"))}, fmt.Sprintf("map[after:%d before:%d entering:%d leaving:%d]", bakery, pharma, bakery, pharma)},
			{map[string]any{"compositions": []any{auComp(quito, "INTERSECT_DISTINCT")}}, fmt.Sprintf("map[after:%d before:%d entering:0 leaving:%d]", pharmaQuito, pharma, pharma-pharmaQuito)},
			{map[string]any{}, fmt.Sprintf("map[after:%d before:%d entering:0 leaving:0]", pharma, pharma)},
		} {
			if got := f.ok(t, 201, "POST", path, c.body); fmt.Sprint(got) != c.want {
				t.Fatalf("change %v = %v, want %s", c.body, got, c.want)
			}
		}
		// Nothing was saved.
		if got := f.ok(t, 200, "GET", "/api/audience-criterias/"+id, nil); !slices.Equal(auBlockIDs(t, got), auBlockIDs(t, created)) || len(got["compositions"].([]any)) != 0 {
			t.Fatalf("preview-change saved: %v", got)
		}
		// A root audience never edited has no subjects before.
		got := f.ok(t, 201, "POST", "/api/audience-criterias/"+f.root(t)+"/preview-change", map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy"))})
		if fmt.Sprint(got) != fmt.Sprintf("map[after:%d before:0 entering:%d leaving:0]", pharma, pharma) {
			t.Fatalf("root change = %v", got)
		}
		// The proposed definition is validated like the PATCH.
		apptest.ExpectError(t, env.Do("POST", path, map[string]any{"compositions": []any{auComp(id, "UNION_ALL")}}, f.h), 400, []string{auCycle})
		apptest.ExpectError(t, env.Do("POST", path, map[string]any{"name": "x"}, f.h), 400, []string{"property name should not exist"})
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias/"+uuid.NewString()+"/preview-change", map[string]any{}, f.h), 404, auNotFound)
	})
}

func TestAudienceCatalog(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		res := env.Do("GET", "/api/audience-criterias/tables", nil, f.h)
		var tables []map[string]any
		res.JSON(t, &tables)
		if res.Status != 200 || len(tables) != 4 {
			t.Fatalf("tables: %d %s", res.Status, res.Body)
		}
		if ev := tables[1]; ev["name"] != "events" || ev["purpose"] != "EVENTS" || ev["identityColumn"] != "commerce_id" || ev["defaultTimeReferenceColumn"] != "event_timestamp" {
			t.Fatalf("events table = %v", ev)
		}
		if pp := tables[2]; pp["name"] != "product_properties" || pp["identityColumn"] != nil || pp["defaultTimeReferenceColumn"] != nil {
			t.Fatalf("product table = %v", pp)
		}
		cols := f.ok(t, 200, "GET", "/api/audience-criterias/tables/events/columns", nil)
		if cols["table"] != "events" {
			t.Fatalf("columns = %v", cols)
		}
		byName := map[string]map[string]any{}
		for _, c := range cols["columns"].([]any) {
			byName[c.(map[string]any)["name"].(string)] = c.(map[string]any)
		}
		if c := byName["commerce_id"]; c["isIdentity"] != true || c["isDefaultTimeReference"] != false || c["type"] != "STRING" {
			t.Fatalf("commerce_id = %v", c)
		}
		if c := byName["event_timestamp"]; c["isDefaultTimeReference"] != true || c["isIdentity"] != false || c["type"] != "TIMESTAMP" {
			t.Fatalf("event_timestamp = %v", c)
		}
		if c := byName["items"]; c["type"] != "RECORD" || c["isRepeated"] != true || len(c["subFields"].([]any)) != 3 {
			t.Fatalf("items = %v", c)
		}
		if _, has := cols["semiJoins"]; has {
			t.Fatalf("audience columns carry semi-joins: %v", cols)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/tables/nope/columns", nil, f.h), 404, "Table not found")
	})
}

// A tenant without a dataset: reads and name edits work, everything that
// needs the catalog answers 404.
func TestAudienceWithoutDataset(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", false)
		root := f.root(t)
		def := map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy"))}
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/tables", nil},
			{"GET", "/tables/events/columns", nil},
			{"POST", "", map[string]any{"name": "X", "queryBlocks": def["queryBlocks"]}},
			{"PATCH", "/" + root, def},
			{"GET", "/" + root + "/sql", nil},
			{"POST", "/" + root + "/preview", nil},
			{"POST", "/" + root + "/preview-change", def},
			{"POST", "/generate-sql", def},
			{"POST", "/validate-from-body", def},
			{"POST", "/preview-from-body", def},
		} {
			apptest.ExpectError(t, env.Do(c.method, "/api/audience-criterias"+c.path, c.body, f.h), 404, auNoDataset)
		}
		if got := f.ok(t, 200, "PATCH", "/api/audience-criterias/"+root, map[string]any{"name": "Todos"}); got["name"] != "Todos" {
			t.Fatalf("rename = %v", got)
		}
		f.ok(t, 200, "GET", "/api/audience-criterias", nil)
	})
}

// Audiences of another project or tenant are not found, on every route.
func TestAudienceIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		beta := newAUFix(t, env, "Beta", true)
		id := f.create(t, map[string]any{"name": "Farmacias", "queryBlocks": auBlocks(auSegmentBlock("pharmacy"))})["id"].(string)
		other := f.ok(t, 201, "POST", "/api/projects", map[string]any{"name": "Otro"})["id"].(string)
		otherProject := apptest.JWT(env.Login(f.tenant.Email), f.tenant.TenantID, uuid.MustParse(other))
		def := map[string]any{"queryBlocks": auBlocks(auSegmentBlock("bakery"))}
		for _, h := range []apptest.Headers{beta.h, otherProject} {
			for _, c := range []struct {
				method, path string
				body         any
			}{
				{"GET", "", nil}, {"PATCH", "", def}, {"DELETE", "", nil}, {"GET", "/sql", nil},
				{"POST", "/preview", nil}, {"POST", "/preview-change", def},
			} {
				apptest.ExpectError(t, env.Do(c.method, "/api/audience-criterias/"+id+c.path, c.body, h), 404, auNotFound)
			}
			res := env.Do("GET", "/api/audience-criterias", nil, h)
			if res.Status != 200 || strings.Contains(string(res.Body), id) {
				t.Fatalf("list of another project: %d %s", res.Status, res.Body)
			}
		}
		if got := f.ok(t, 200, "GET", "/api/audience-criterias/"+id, nil); got["name"] != "Farmacias" {
			t.Fatalf("changed by others: %v", got)
		}
	})
}
