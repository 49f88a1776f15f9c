package graph_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/viewer"
)

// agcSetup is two tenants with project headers and the retention status
// configs the pillar children reference (by code).
type agcSetup struct {
	orgSetup
	ph, bph apptest.Headers // acme and beta admins with their main project
	status  map[string]string
	root    string // acme's root audience
}

func newAGCSetup(t *testing.T, env *apptest.Env) agcSetup {
	t.Helper()
	s := agcSetup{orgSetup: newOrgSetup(t, env), status: map[string]string{}}
	s.ph = s.h.With("x-project-id", s.acme.ProjectID.String())
	s.bph = s.bh.With("x-project-id", s.beta.ProjectID.String())
	p := env.App.DB.Client.Project.GetX(viewer.SystemContext(context.Background()), s.acme.ProjectID)
	if p.RootAudienceID == nil {
		t.Fatal("the main project has no root audience")
	}
	s.root = p.RootAudienceID.String()
	for code, stage := range map[string]string{"new": "ACTIVATION", "activated": "ACTIVATION", "low": "ENGAGEMENT",
		"high": "ENGAGEMENT", "mid": "ENGAGEMENT", "at_risk": "RESURRECTION", "dormant": "RESURRECTION"} {
		out := gqlOK(t, env, s.h, `mutation($c: String!, $s: RetentionStatusConfigStage!) { createRetentionStatusConfig(input: {code: $c, label: $c, stage: $s}) { id } }`,
			M{"c": code, "s": stage})
		s.status[code] = str(t, out, "createRetentionStatusConfig", "id")
	}
	return s
}

// createAGC creates an AGC with two children per pillar and returns its id.
func (s agcSetup) createAGC(t *testing.T, env *apptest.Env, name string) string {
	t.Helper()
	out := gqlOK(t, env, s.ph, `mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`,
		M{"in": s.input(name)})
	return str(t, out, "createActivityGenerationConfig", "id")
}

// input is the createActivityGenerationConfig input of an AGC with two
// children per pillar.
func (s agcSetup) input(name string) M {
	return M{"name": name, "description": "d",
		"activationConfig": M{"name": "Act", "sourceTable": "orders", "sourceColumns": L{"order_id"}, "dateColumn": "order_date",
			"aggregationMethod": "nunique", "activationMoments": L{
				M{"statusCode": "new", "userRetentionStatusConfigID": s.status["new"], "minActions": 1, "windowDays": 30, "priority": 1},
				M{"statusCode": "activated", "userRetentionStatusConfigID": s.status["activated"], "minActions": 2, "priority": 2}}},
		"engagementConfig": M{"name": "Eng", "sourceTable": "orders", "dateColumn": "order_date", "engagementWindowDays": 30,
			"minLifetimeActionsForEngaged": 3, "countingMethod": "count", "engagementLevels": L{
				M{"statusCode": "low", "userRetentionStatusConfigID": s.status["low"], "label": "Bajo", "minThreshold": 0, "maxThreshold": 5, "order": 1},
				M{"statusCode": "high", "userRetentionStatusConfigID": s.status["high"], "label": "Alto", "minThreshold": 6, "order": 2}}},
		"resurrectionConfig": M{"name": "Res", "sourceTable": "orders", "dateColumn": "order_date", "resurrectionThresholds": L{
			M{"statusCode": "at_risk", "userRetentionStatusConfigID": s.status["at_risk"], "label": "En riesgo", "thresholdDays": 30, "order": 1},
			M{"statusCode": "dormant", "userRetentionStatusConfigID": s.status["dormant"], "label": "Dormido", "thresholdDays": 60, "order": 2}}}}
}

// agcListing selects every AGC with its three pillars and all children.
const agcListing = `{ activityGenerationConfigs(first: 100, orderBy: {field: NAME}) { totalCount edges { node {
	id name description status audienceID effectiveAudienceID configHashes { activation engagement resurrection }
	activationConfig { id name aggregationMethod sourceColumns activationMoments { id statusCode minActions windowDays timeWindow priority } }
	engagementConfig { id name engagementWindowDays engagementLevels { id statusCode label minThreshold maxThreshold order } }
	resurrectionConfig { id name resurrectionThresholds { id statusCode label thresholdDays order } } } } } }`

// children returns the sorted values of key in the list at path.
func children(t *testing.T, v any, key string, path ...any) []string {
	t.Helper()
	items, _ := get(t, v, path...).([]any)
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprint(get(t, it, key))
	}
	slices.Sort(out)
	return out
}

func TestAGCsOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		id := s.createAGC(t, env, "Zeta")

		// The connection carries pillars and children, the effective audience and the hashes.
		list := gqlOK(t, env, s.ph, agcListing, nil)
		node := get(t, list, "activityGenerationConfigs", "edges", 0, "node")
		if str(t, node, "id") != id || str(t, node, "name") != "Zeta" || str(t, node, "status") != "draft" ||
			get(t, node, "audienceID") != nil || str(t, node, "effectiveAudienceID") != s.root {
			t.Fatalf("node = %v", node)
		}
		if got := children(t, node, "statusCode", "activationConfig", "activationMoments"); !slices.Equal(got, []string{"activated", "new"}) {
			t.Fatalf("moments = %v", got)
		}
		if got := children(t, node, "label", "engagementConfig", "engagementLevels"); !slices.Equal(got, []string{"Alto", "Bajo"}) {
			t.Fatalf("levels = %v", got)
		}
		if got := children(t, node, "thresholdDays", "resurrectionConfig", "resurrectionThresholds"); !slices.Equal(got, []string{"30", "60"}) {
			t.Fatalf("thresholds = %v", got)
		}
		hashes := get(t, node, "configHashes").(map[string]any)
		for _, k := range []string{"activation", "engagement", "resurrection"} {
			if h, _ := hashes[k].(string); len(h) != 64 {
				t.Fatalf("configHashes.%s = %v", k, hashes[k])
			}
		}
		// The same hashes as REST.
		rest := env.Do("GET", "/api/activity-generation-configs/"+id, nil, s.ph).Map(t)
		if canon(t, rest["configHashes"]) != canon(t, hashes) || rest["effectiveAudienceId"] != s.root {
			t.Fatalf("REST configHashes = %v effectiveAudienceId = %v, GraphQL %v", rest["configHashes"], rest["effectiveAudienceId"], hashes)
		}
		expectFieldError(t, env.GraphQL(`mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`,
			M{"in": s.input("Zeta")}, s.ph),
			"createActivityGenerationConfig", `An activity generation config with name "Zeta" already exists`, "CONFLICT", 409)

		t.Run("update metadata", func(t *testing.T) {
			aud := s.root
			expectData(t, env.GraphQL(`mutation($id: ID!, $a: ID!) { updateActivityGenerationConfig(id: $id, input: {name: "Alfa", description: "nueva", audienceID: $a}) {
				name description audienceID effectiveAudienceID } }`, M{"id": id, "a": aud}, s.ph),
				M{"updateActivityGenerationConfig": M{"name": "Alfa", "description": "nueva", "audienceID": aud, "effectiveAudienceID": aud}})
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {clearAudience: true}) { name audienceID } }`, M{"id": id}, s.ph),
				M{"updateActivityGenerationConfig": M{"name": "Alfa", "audienceID": nil}})
			expectInvalid(t, env.GraphQL(`mutation($id: ID!, $a: ID!) { updateActivityGenerationConfig(id: $id, input: {audienceID: $a, clearAudience: true}) { id } }`,
				M{"id": id, "a": aud}, s.ph), "updateActivityGenerationConfig", "audienceID and clearAudience cannot be sent together")
			expectInvalid(t, env.GraphQL(`mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {name: " "}) { id } }`, M{"id": id}, s.ph),
				"updateActivityGenerationConfig", "name should not be empty")
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {audienceID: $id}) { id } }`, M{"id": id}, s.ph),
				"updateActivityGenerationConfig", "La audiencia no existe en este proyecto.", "BAD_REQUEST", 400)
		})

		t.Run("replace lifecycle", func(t *testing.T) {
			eng := get(t, gqlOK(t, env, s.ph, agcListing, nil), "activityGenerationConfigs", "edges", 0, "node", "engagementConfig")
			var low string
			for _, l := range get(t, eng, "engagementLevels").([]any) {
				if str(t, l, "statusCode") == "low" {
					low = str(t, l, "id")
				}
			}
			// "low" updated in place, "high" deleted, "mid" inserted.
			expectData(t, env.GraphQL(`mutation($id: ID!, $in: LifecycleInput!) { replaceActivityGenerationConfigLifecycle(id: $id, input: $in) }`,
				M{"id": id, "in": M{"engagementConfig": M{"engagementLevels": L{
					M{"id": low, "statusCode": "low", "userRetentionStatusConfigID": s.status["low"], "label": "Bajo", "minThreshold": 0, "maxThreshold": 9, "order": 1},
					M{"statusCode": "mid", "userRetentionStatusConfigID": s.status["mid"], "label": "Medio", "minThreshold": 10, "order": 2}}}}}, s.ph),
				M{"replaceActivityGenerationConfigLifecycle": true})
			after := get(t, gqlOK(t, env, s.ph, agcListing, nil), "activityGenerationConfigs", "edges", 0, "node")
			if str(t, after, "engagementConfig", "id") != str(t, eng, "id") {
				t.Fatal("the engagement pillar id changed")
			}
			if got := children(t, after, "statusCode", "engagementConfig", "engagementLevels"); !slices.Equal(got, []string{"low", "mid"}) {
				t.Fatalf("levels = %v", got)
			}
			if got := children(t, after, "id", "engagementConfig", "engagementLevels"); !slices.Contains(got, low) {
				t.Fatalf("level %s was not kept: %v", low, got)
			}
			h := get(t, after, "configHashes").(map[string]any)
			if h["engagement"] == hashes["engagement"] || h["activation"] != hashes["activation"] || h["resurrection"] != hashes["resurrection"] {
				t.Fatalf("hashes before %v after %v", hashes, h)
			}
			// A pillar id is rejected (by the schema: pillar inputs carry none); a foreign child id is a 400.
			foreign := str(t, after, "activationConfig", "activationMoments", 0, "id")
			expectInvalid(t, env.GraphQL(`mutation($id: ID!, $in: LifecycleInput!) { replaceActivityGenerationConfigLifecycle(id: $id, input: $in) }`,
				M{"id": id, "in": M{"engagementConfig": M{"engagementLevels": L{
					M{"id": foreign, "statusCode": "low", "userRetentionStatusConfigID": s.status["low"], "label": "B", "minThreshold": 0, "order": 1}}}}}, s.ph),
				"replaceActivityGenerationConfigLifecycle", "engagementConfig.engagementLevels[0].id "+foreign+" does not belong to this engagement config")
			// The service's paths in GraphQL names (REST: engagement.levels.0.max_threshold).
			expectInvalid(t, env.GraphQL(`mutation($id: ID!, $in: LifecycleInput!) { replaceActivityGenerationConfigLifecycle(id: $id, input: $in) }`,
				M{"id": id, "in": M{"engagementConfig": M{"engagementLevels": L{
					M{"statusCode": "low", "userRetentionStatusConfigID": s.status["low"], "label": "B", "minThreshold": 5, "maxThreshold": 1, "order": 1}}}}}, s.ph),
				"replaceActivityGenerationConfigLifecycle", "engagementConfig.engagementLevels[0].maxThreshold must not be less than minThreshold")
		})

		t.Run("publish, pause and archive", func(t *testing.T) {
			expectData(t, env.GraphQL(`mutation($id: ID!) { publishActivityGenerationConfig(id: $id) { status engagementConfig { name } } }`, M{"id": id}, s.ph),
				M{"publishActivityGenerationConfig": M{"status": "active", "engagementConfig": M{"name": "Eng"}}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { publishActivityGenerationConfig(id: $id) { status } }`, M{"id": id}, s.ph),
				"publishActivityGenerationConfig", "Activity generation config "+id+" is already active", "CONFLICT", 409)
			expectData(t, env.GraphQL(`mutation($id: ID!) { pauseActivityGenerationConfig(id: $id) { status } }`, M{"id": id}, s.ph),
				M{"pauseActivityGenerationConfig": M{"status": "paused"}})
			expectData(t, env.GraphQL(`{ activityGenerationConfigs(where: {status: paused}) { totalCount } }`, nil, s.ph),
				M{"activityGenerationConfigs": M{"totalCount": 1}})

			// Another project's (and tenant's) AGC is not found.
			missing := "Activity generation config " + id + " not found"
			for _, q := range []string{
				`mutation($id: ID!) { publishActivityGenerationConfig(id: $id) { id } }`,
				`mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`,
				`mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {description: "x"}) { id } }`,
			} {
				field := strings.Fields(strings.SplitN(q, "{", 2)[1])[0]
				field = field[:strings.IndexByte(field, '(')]
				expectFieldError(t, env.GraphQL(q, M{"id": id}, s.bph), field, missing, "NOT_FOUND", 404)
			}
			other := gqlOK(t, env, s.h, `mutation { createProject(input: {name: "Otro"}) { id } }`, nil)
			oh := s.h.With("x-project-id", str(t, other, "createProject", "id"))
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { pauseActivityGenerationConfig(id: $id) { id } }`, M{"id": id}, oh),
				"pauseActivityGenerationConfig", missing, "NOT_FOUND", 404)
			expectData(t, env.GraphQL(`{ activityGenerationConfigs { totalCount } }`, nil, oh), M{"activityGenerationConfigs": M{"totalCount": 0}})

			expectData(t, env.GraphQL(`mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`, M{"id": id}, s.ph),
				M{"archiveActivityGenerationConfig": true})
			expectData(t, env.GraphQL(`{ activityGenerationConfigs { totalCount edges { node { id } } } }`, nil, s.ph),
				M{"activityGenerationConfigs": M{"totalCount": 0, "edges": L{}}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`, M{"id": id}, s.ph),
				"archiveActivityGenerationConfig", missing, "NOT_FOUND", 404)
		})

		t.Run("project header and permissions", func(t *testing.T) {
			expectFieldError(t, env.GraphQL(`{ activityGenerationConfigs { totalCount } }`, nil, s.h),
				"activityGenerationConfigs", "Falta el header obligatorio x-project-id.", "BAD_REQUEST", 400)
			expectFieldError(t, env.GraphQL(`mutation { archiveActivityGenerationConfig(id: "`+uuid.NewString()+`") }`, nil, s.h),
				"archiveActivityGenerationConfig", "Falta el header obligatorio x-project-id.", "BAD_REQUEST", 400)
			// lifecycleDefaults is tenant-level: the REST payload in GraphQL names.
			d := gqlOK(t, env, s.h, `{ lifecycleDefaults {
				activationConfig { name sourceTable sourceColumns dateColumn aggregationMethod activationMoments { statusCode minActions windowDays timeWindow priority } }
				engagementConfig { name sourceTable sourceColumns dateColumn engagementWindowDays minLifetimeActionsForEngaged countingMethod
					engagementLevels { statusCode label minThreshold maxThreshold order } }
				resurrectionConfig { name sourceTable sourceColumns dateColumn resurrectionThresholds { statusCode label thresholdDays order } } } }`, nil)
			rest := env.Do("GET", "/api/lifecycle-defaults", nil, s.h).Map(t)
			if want := graphQLNames(rest); canon(t, d["lifecycleDefaults"]) != canon(t, want) || str(t, d, "lifecycleDefaults", "activationConfig", "activationMoments", 0, "statusCode") != "activated" {
				t.Fatalf("lifecycleDefaults = %v\nwant %v", d["lifecycleDefaults"], want)
			}
		})
	})
}

// TestAGCConnectionHasNoNPlusOne counts the SQL statements of the listing
// with every pillar and child selected: 50 AGCs cost what 1 costs.
func TestAGCConnectionHasNoNPlusOne(t *testing.T) {
	eachCounting(t, func(t *testing.T, env *apptest.Env, statements *atomic.Int64) {
		s := newAGCSetup(t, env)
		count := func(want int) int64 {
			t.Helper()
			statements.Store(0)
			out := gqlOK(t, env, s.ph, agcListing, nil)
			n := statements.Load()
			edges := get(t, out, "activityGenerationConfigs", "edges").([]any)
			if len(edges) != want {
				t.Fatalf("%d AGCs listed, want %d", len(edges), want)
			}
			for _, e := range edges {
				if len(get(t, e, "node", "activationConfig", "activationMoments").([]any)) != 2 ||
					len(get(t, e, "node", "engagementConfig", "engagementLevels").([]any)) != 2 ||
					len(get(t, e, "node", "resurrectionConfig", "resurrectionThresholds").([]any)) != 2 {
					t.Fatalf("children missing: %v", e)
				}
			}
			return n
		}
		s.createAGC(t, env, "AGC 00")
		one := count(1)
		for i := 1; i < 50; i++ {
			s.createAGC(t, env, fmt.Sprintf("AGC %02d", i))
		}
		fifty := count(50)
		t.Logf("%d statements for 1 AGC, %d for 50", one, fifty)
		if one != fifty || one > 15 {
			t.Fatalf("statements: %d for 1 AGC, %d for 50 (want equal and at most 15)", one, fifty)
		}
	})
}

// graphQLNames renames the keys of a REST payload as GraphQL names them:
// camelCase, and the pillars and their children lists as their edges.
func graphQLNames(v any) any {
	edges := map[string]string{"moments": "activationMoments", "levels": "engagementLevels", "thresholds": "resurrectionThresholds",
		"activation": "activationConfig", "engagement": "engagementConfig", "resurrection": "resurrectionConfig"}
	switch x := v.(type) {
	case map[string]any:
		out := M{}
		for k, val := range x {
			name, ok := edges[k]
			if !ok {
				parts := strings.Split(k, "_")
				for i := 1; i < len(parts); i++ {
					parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
				}
				name = strings.Join(parts, "")
			}
			out[name] = graphQLNames(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = graphQLNames(e)
		}
		return out
	}
	return v
}

// TestAGCSourcesCheckedOverGraphQL: the pillar source check of the service,
// with its paths in GraphQL names.
func TestAGCSourcesCheckedOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})
		in := s.input("Orders")
		act := in["activationConfig"].(M)
		act["sourceTable"], act["dateColumn"], act["aggregationMethod"], act["sourceColumns"] = "transactions", "transacted_at", "sum", L{"status"}
		res := env.GraphQL(`mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`, M{"in": in}, s.ph)
		expectInvalid(t, res, "createActivityGenerationConfig",
			`activationConfig.sourceColumns[0] must be a numeric column for the sum method`,
			`engagementConfig.sourceTable "orders" is not a table of the dataset catalog`,
			`resurrectionConfig.sourceTable "orders" is not a table of the dataset catalog`)
	})
}

// TestLifecycleSQLOverGraphQL: the classification statement through the
// same service, the dialect an enum, the instant a Time.
func TestLifecycleSQLOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})
		in := s.input("Lifecycle")
		for _, p := range []string{"activationConfig", "engagementConfig", "resurrectionConfig"} {
			in[p].(M)["sourceTable"], in[p].(M)["dateColumn"], in[p].(M)["sourceColumns"] = "transactions", "transacted_at", L{"transaction_id"}
		}
		out := gqlOK(t, env, s.ph, `mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`, M{"in": in})
		id := str(t, out, "createActivityGenerationConfig", "id")
		q := `query($id: ID!, $at: Time) { lifecycleSQL(activityGenerationConfigID: $id, dialect: BIGQUERY, asOf: $at) { dialect query params } }`
		got := gqlOK(t, env, s.ph, q, M{"id": id, "at": "2026-01-02T03:04:05.5Z"})
		if str(t, got, "lifecycleSQL", "dialect") != "BIGQUERY" || !strings.Contains(str(t, got, "lifecycleSQL", "query"), "`transactions`") ||
			str(t, got, "lifecycleSQL", "params", "p0") != "2026-01-02T03:04:05.5Z" {
			t.Fatalf("lifecycleSQL = %v", got)
		}
		res := env.GraphQL(q, M{"id": id, "at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, s.ph)
		expectInvalid(t, res, "lifecycleSQL", "asOf must not be in the future")
	})
}
