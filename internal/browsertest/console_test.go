package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/viewer"
)

const demoPassword = "console-demo-password"

// screenshotDir is where the console test writes a screenshot of each
// view, for people to look at: CONSOLE_SCREENSHOTS, else a new temporary
// directory that outlives the test (its path is logged).
func screenshotDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("CONSOLE_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d, err := os.MkdirTemp("", "reten-console-")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// pageQuery is a GraphQL request the page sent: its operation's variables.
type pageQuery struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

// lastQuery returns the last GraphQL request of the page whose query holds
// operation.
func (tr *traffic) lastQuery(t *testing.T, operation string) pageQuery {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for i := len(tr.graphql) - 1; i >= 0; i-- {
		var q pageQuery
		if json.Unmarshal([]byte(tr.graphql[i]), &q) == nil && strings.Contains(q.Query, "query "+operation+"(") {
			return q
		}
	}
	t.Fatalf("the page never sent %s", operation)
	return pageQuery{}
}

// chartData reads a Chart.js chart of the page: its labels and datasets.
type chartData struct {
	Labels   []string `json:"labels"`
	Datasets []struct {
		Label string `json:"label"`
		Data  []any  `json:"data"`
	} `json:"datasets"`
}

func readChart(t *testing.T, ctx context.Context, id string) chartData {
	t.Helper()
	raw := read(t, ctx, "chart "+id, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const c = Chart.getChart(document.getElementById(%s));
		if (!c || c.canvas.width === 0 || c.canvas.height === 0) return '';
		return JSON.stringify({labels: c.data.labels, datasets: c.data.datasets.map(d => ({label: d.label, data: d.data}))});
	})()`, jsString(id))))
	if raw == "" {
		t.Fatalf("chart %s is not drawn", id)
	}
	var c chartData
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// num is a chart value as a number (null: 0).
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// shot writes a screenshot of the viewport as name.png into dir.
func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png := read(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConsoleInChromium drives /console on the demo (`reten demo`, then
// `reten engine run`) at 1280x800: every view draws the numbers the API
// answers, the runs start from the page, the CSV export is the REST
// export's bytes, and nothing leaves the service's address.
func TestConsoleInChromium(t *testing.T) {
	env := apptest.New(t, "sqlite")
	ctx := t.Context()
	demo, err := env.App.Demo(ctx, dataset.DemoInput{Password: demoPassword})
	if err != nil {
		t.Fatal(err)
	}
	tenantID, agcID := uuid.MustParse(demo.TenantID), uuid.MustParse(demo.ActivityGenerationConfigID)
	if run, err := env.App.RunEngine(ctx, tenantID, agcID, engine.StartInput{}); err != nil || run.Status != lifecyclerun.StatusSUCCEEDED {
		t.Fatalf("reten engine run: %v %v", run, err)
	}
	// The replicas' workers: the page's runs are executed by them.
	workers, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go env.App.Runs.Run(workers, time.Second)
	go env.App.Generator.Run(workers, time.Second)

	srv := httptest.NewServer(env.App.Handler)
	t.Cleanup(srv.Close)
	origin, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	// The API, as the same user.
	login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": dataset.DemoUsername, "password": demoPassword}, nil)
	if login.Status != http.StatusCreated {
		t.Fatalf("login: %d %s", login.Status, login.Body)
	}
	var session struct{ AccessToken string }
	login.JSON(t, &session)
	h := apptest.JWT(session.AccessToken, tenantID, uuid.MustParse(demo.ProjectID))
	api := func(q pageQuery, v any) {
		t.Helper()
		res := env.GraphQL(q.Query, q.Variables, h)
		var out struct {
			Data   json.RawMessage
			Errors []any
		}
		res.JSON(t, &out)
		if res.Status != http.StatusOK || len(out.Errors) > 0 {
			t.Fatalf("API: %d %s", res.Status, res.Body)
		}
		if err := json.Unmarshal(out.Data, v); err != nil {
			t.Fatal(err)
		}
	}
	sys := viewer.SystemContext(ctx)
	db := env.App.DB.Client
	dir := screenshotDir(t)
	t.Logf("console screenshots: %s", dir)

	trf := &traffic{}
	bctx := browser(t, trf)
	step(t, bctx, "a laptop screen", chromedp.EmulateViewport(1280, 800))
	step(t, bctx, "sign in",
		chromedp.Navigate(srv.URL+"/console"),
		chromedp.WaitVisible(chromedp.CSS(`#identifier`)),
		chromedp.SendKeys(chromedp.CSS(`#identifier`), dataset.DemoUsername),
		chromedp.SendKeys(chromedp.CSS(`#password`), demoPassword),
		chromedp.Click(chromedp.CSS(`#signin-submit`)),
		chromedp.WaitVisible(chromedp.CSS(`#workspace`)),
		poll(`Chart.getChart(document.getElementById('chart-evolution')) !== undefined && document.getElementById('status').textContent === ''`),
	)
	selected := read(t, bctx, "selection", chromedp.Evaluate[[]string](
		`['tenant', 'project', 'agc'].map(id => document.getElementById(id).value)`))
	if want := []string{demo.TenantID, demo.ProjectID, demo.ActivityGenerationConfigID}; !slices.Equal(selected, want) {
		t.Fatalf("selected tenant, project, AGC %q, want %q", selected, want)
	}
	if name := read(t, bctx, "AGC name", chromedp.Evaluate[string](`document.getElementById('agc').selectedOptions[0].text`)); name != app.DemoAGCName+" (active)" {
		t.Errorf("the AGC is shown as %q", name)
	}
	// Every control has an accessible name.
	unnamed := read(t, bctx, "accessible names", chromedp.Evaluate[[]string](`[...document.querySelectorAll('button, select, input')]
		.filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).map(e => e.id || e.outerHTML)`))
	if len(unnamed) > 0 {
		t.Errorf("controls without an accessible name: %q", unnamed)
	}

	// Lifecycle: the distribution is the snapshots', the evolution the API's
	// and its last day the distribution.
	var snaps []struct {
		Stage string `json:"stage"`
		Code  string `json:"code"`
		Count int    `json:"count"`
	}
	if err := db.CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.ActivityGenerationConfigID(agcID)).
		GroupBy(commercelifecyclesnapshot.FieldStage, commercelifecyclesnapshot.FieldCode).Aggregate(ent.Count()).Scan(sys, &snaps); err != nil {
		t.Fatal(err)
	}
	dist := readChart(t, bctx, "chart-distribution")
	total := 0
	want := map[string]int{}
	for _, s := range snaps {
		want[s.Code+" ("+strings.ToLower(s.Stage)+")"] = s.Count
		total += s.Count
	}
	got := map[string]int{}
	for _, d := range dist.Datasets {
		for _, v := range d.Data {
			got[d.Label] += int(num(v))
		}
	}
	if total == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("distribution chart %v, want the snapshots %v", got, want)
	}
	var evo struct {
		LifecycleEvolution struct {
			Days   []string
			Series []struct {
				Stage, Code string
				Counts      []int
			}
		}
	}
	api(trf.lastQuery(t, "ConsoleLifecycle"), &evo)
	chartEvo := readChart(t, bctx, "chart-evolution")
	days := evo.LifecycleEvolution.Days
	if !slices.Equal(chartEvo.Labels, days) || len(days) < 90 || len(chartEvo.Datasets) != len(evo.LifecycleEvolution.Series) {
		t.Fatalf("evolution chart days %d %q.., series %d; API %d days, %d series", len(chartEvo.Labels), chartEvo.Labels[:1],
			len(chartEvo.Datasets), len(days), len(evo.LifecycleEvolution.Series))
	}
	lastDay, firstDay := 0, 0
	for i, s := range evo.LifecycleEvolution.Series {
		var counts []int
		for _, v := range chartEvo.Datasets[i].Data {
			counts = append(counts, int(num(v)))
		}
		if !slices.Equal(counts, s.Counts) || chartEvo.Datasets[i].Label != s.Code+" ("+strings.ToLower(s.Stage)+")" {
			t.Errorf("evolution series %d: %s %v, API %s/%s %v", i, chartEvo.Datasets[i].Label, counts, s.Stage, s.Code, s.Counts)
		}
		lastDay += s.Counts[len(s.Counts)-1]
		firstDay += s.Counts[0]
	}
	if lastDay != total || firstDay >= total {
		t.Errorf("evolution: %d commerces on the first day, %d on the last; %d snapshots", firstDay, lastDay, total)
	}
	if summary := read(t, bctx, "summary", chromedp.Text(chromedp.CSS(`#lifecycle-summary`))); summary != fmt.Sprintf("%d commerces in %d states", total, len(snaps)) {
		t.Errorf("lifecycle summary %q", summary)
	}
	shot(t, bctx, dir, "1-lifecycle")

	// Transitions: the matrix is the API's counts, and they are the
	// history's transitions of the period.
	step(t, bctx, "transitions", chromedp.Click(chromedp.CSS(`#tab-transitions`)),
		poll(`document.querySelectorAll('#table-transitions td').length > 0 && document.getElementById('status').textContent === ''`))
	q := trf.lastQuery(t, "ConsoleTransitions")
	var trans struct {
		LifecycleTransitionCounts []struct {
			From  *struct{ Stage, Code string }
			To    struct{ Stage, Code string }
			Count int
		}
	}
	api(q, &trans)
	cells := read(t, bctx, "matrix", chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll('#table-transitions td')]
		.filter(td => td.textContent !== '0').map(td => [td.dataset.from + '>' + td.dataset.to, td.textContent]))`))
	wantCells := map[string]string{}
	sum := 0
	for _, c := range trans.LifecycleTransitionCounts {
		from := "/(first state)"
		if c.From != nil {
			from = c.From.Stage + "/" + c.From.Code
		}
		wantCells[from+">"+c.To.Stage+"/"+c.To.Code] = fmt.Sprint(c.Count)
		sum += c.Count
	}
	since, err := time.Parse(time.RFC3339Nano, q.Variables["from"].(string))
	if err != nil {
		t.Fatal(err)
	}
	inPeriod, err := db.CommerceLifecycleTransition.Query().Where(tr.ActivityGenerationConfigID(agcID), tr.StateChangedAtGTE(since)).Count(sys)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cells) != fmt.Sprint(wantCells) || sum != inPeriod || sum == 0 {
		t.Errorf("transition matrix %v (sum %d), API %v; %d transitions since %s", cells, sum, wantCells, inPeriod, since)
	}
	if top := readChart(t, bctx, "chart-transitions"); len(top.Datasets) != 1 || len(top.Labels) != min(12, len(wantCells)) ||
		int(num(top.Datasets[0].Data[0])) != trans.LifecycleTransitionCounts[0].Count {
		t.Errorf("top transitions chart %+v", top)
	}
	shot(t, bctx, dir, "2-transitions")

	// Engine runs: the table lists the runs; a run and a dry run start
	// from the page and are executed by the workers.
	runs := func() int {
		n, err := db.LifecycleRun.Query().Where(lifecyclerun.ActivityGenerationConfigID(agcID)).Count(sys)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := runs()
	step(t, bctx, "runs", chromedp.Click(chromedp.CSS(`#tab-runs`)),
		poll(`document.querySelectorAll('#table-runs tbody tr').length > 0`))
	if rows := read(t, bctx, "run rows", chromedp.Evaluate[int](`document.querySelectorAll('#table-runs tbody tr').length`)); rows != min(20, before) {
		t.Errorf("runs table has %d rows, want %d", rows, min(20, before))
	}
	step(t, bctx, "run now", chromedp.Click(chromedp.CSS(`#run-now`)),
		poll(`document.getElementById('status').textContent.startsWith('Run SUCCEEDED')`))
	step(t, bctx, "dry run", chromedp.Click(chromedp.CSS(`#dry-run`)),
		poll(`document.getElementById('status').textContent.startsWith('Dry run SUCCEEDED')`))
	step(t, bctx, "runs redrawn", poll(`document.querySelector('#table-runs tbody tr td:nth-child(3)').textContent === 'yes'`))
	if after := runs(); after != before+2 {
		t.Errorf("runs: %d before, %d after a run and a dry run", before, after)
	}
	first := read(t, bctx, "newest run", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#table-runs tbody tr:first-child td')].map(td => td.textContent)`))
	newest, err := db.LifecycleRun.Query().Where(lifecyclerun.ActivityGenerationConfigID(agcID)).Order(lifecyclerun.ByCreatedAt()).All(sys)
	if err != nil {
		t.Fatal(err)
	}
	dry := newest[len(newest)-1]
	if len(first) != 10 || first[1] != "MANUAL" || first[3] != "SUCCEEDED" || first[5] != fmt.Sprint(dry.Counts.Evaluated) ||
		first[6] != fmt.Sprint(dry.Counts.Classified) || !dry.DryRun {
		t.Errorf("newest run row %q, the dry run %+v", first, dry.Counts)
	}
	runChart := readChart(t, bctx, "chart-runs")
	if len(runChart.Labels) != min(20, before+2) || !strings.HasSuffix(runChart.Labels[len(runChart.Labels)-1], " (dry)") {
		t.Errorf("runs chart labels %q", runChart.Labels)
	}
	shot(t, bctx, dir, "3-runs")

	// Generation: decisions by rule and kind, activities by status.
	step(t, bctx, "generation", chromedp.Click(chromedp.CSS(`#tab-generation`)),
		poll(`Chart.getChart(document.getElementById('chart-activities')) !== undefined && document.getElementById('status').textContent === ''`))
	q = trf.lastQuery(t, "ConsoleGeneration")
	var gen struct {
		GenerationDecisionCounts []struct {
			RuleName, Kind string
			Count          int
		}
		GeneratedActivityCounts []struct {
			Status string
			Count  int
		}
	}
	api(q, &gen)
	decChart := readChart(t, bctx, "chart-decisions")
	gotDec, wantDec := map[string]int{}, map[string]int{}
	for _, d := range decChart.Datasets {
		for i, v := range d.Data {
			if v != nil {
				gotDec[decChart.Labels[i]+"/"+d.Label] = int(num(v))
			}
		}
	}
	decisions := 0
	for _, d := range gen.GenerationDecisionCounts {
		wantDec[d.RuleName+"/"+d.Kind] = d.Count
		decisions += d.Count
	}
	since, _ = time.Parse(time.RFC3339Nano, q.Variables["since"].(string))
	dbDecisions, err := db.GenerationDecision.Query().Where(generationdecision.ActivityGenerationConfigID(agcID), generationdecision.DecidedAtGTE(since)).Count(sys)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gotDec) != fmt.Sprint(wantDec) || decisions != dbDecisions || decisions == 0 {
		t.Errorf("decisions chart %v, API %v (%d); %d decisions since %s", gotDec, wantDec, decisions, dbDecisions, since)
	}
	actChart := readChart(t, bctx, "chart-activities")
	gotAct, wantAct := map[string]int{}, map[string]int{}
	for i, v := range actChart.Datasets[0].Data {
		gotAct[actChart.Labels[i]] = int(num(v))
	}
	for _, a := range gen.GeneratedActivityCounts {
		wantAct[a.Status] = a.Count
	}
	if fmt.Sprint(gotAct) != fmt.Sprint(wantAct) || len(wantAct) == 0 {
		t.Errorf("activities chart %v, API %v", gotAct, wantAct)
	}
	shot(t, bctx, dir, "4-generation")

	// Uplift: the chart is the REST report's uplift and interval, in points;
	// the CSV export is the REST export.
	step(t, bctx, "uplift", chromedp.Click(chromedp.CSS(`#tab-uplift`)),
		poll(`Chart.getChart(document.getElementById('chart-uplift')) !== undefined && document.getElementById('status').textContent === ''`))
	rep := env.Do("GET", "/api/activity-generation-configs/"+agcID.String()+"/uplift", nil, h)
	if rep.Status != http.StatusOK {
		t.Fatalf("REST uplift: %d %s", rep.Status, rep.Body)
	}
	var report struct {
		Treated, Control struct{ Decisions int }
		Pending          int
		WindowDays       int
		Outcomes         []struct {
			Outcome               string
			Uplift, CiLow, CiHigh *float64
		}
	}
	rep.JSON(t, &report)
	if report.Treated.Decisions == 0 || report.Control.Decisions == 0 {
		t.Errorf("the demo's uplift measured %d treated and %d control decisions", report.Treated.Decisions, report.Control.Decisions)
	}
	upChart := readChart(t, bctx, "chart-uplift")
	points := func(f *float64) string {
		if f == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%.2f", *f*100)
	}
	measured := 0
	for i, o := range report.Outcomes {
		if upChart.Labels[i] != o.Outcome {
			t.Errorf("uplift chart outcome %d %q, want %q", i, upChart.Labels[i], o.Outcome)
		}
		gotPoint, gotCI := "<nil>", "<nil> <nil>"
		if v := upChart.Datasets[0].Data[i]; v != nil {
			gotPoint = fmt.Sprintf("%.2f", num(v))
		}
		if ci, ok := upChart.Datasets[1].Data[i].([]any); ok {
			gotCI = fmt.Sprintf("%.2f %.2f", num(ci[0]), num(ci[1]))
		}
		if gotPoint != points(o.Uplift) || gotCI != points(o.CiLow)+" "+points(o.CiHigh) {
			t.Errorf("uplift chart %s: %s [%s], REST %s [%s %s]", o.Outcome, gotPoint, gotCI, points(o.Uplift), points(o.CiLow), points(o.CiHigh))
		}
		if o.Uplift != nil {
			measured++
		}
	}
	if measured == 0 {
		t.Errorf("no outcome of the demo's uplift report has an uplift: %s", rep.Body)
	}
	if s := read(t, bctx, "uplift summary", chromedp.Text(chromedp.CSS(`#uplift-summary`))); s != fmt.Sprintf(
		"Measured decisions: %d treated, %d control; %d pending (window %d days)", report.Treated.Decisions, report.Control.Decisions, report.Pending, report.WindowDays) {
		t.Errorf("uplift summary %q", s)
	}
	shot(t, bctx, dir, "5-uplift")

	downloads := t.TempDir()
	step(t, bctx, "export the CSV",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads})
			return err
		}),
		chromedp.Click(chromedp.CSS(`#export-csv`)),
		poll(`document.getElementById('status').textContent.startsWith('Exported ')`),
	)
	file := filepath.Join(downloads, "uplift-"+agcID.String()+".csv")
	var csv []byte
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if csv, err = os.ReadFile(file); err == nil && len(csv) > 0 {
			break
		}
	}
	export := env.Do("GET", "/api/activity-generation-configs/"+agcID.String()+"/uplift.csv", nil, h)
	if export.Status != http.StatusOK || len(export.Body) == 0 {
		t.Fatalf("REST export: %d", export.Status)
	}
	if string(csv) != string(export.Body) {
		t.Errorf("the console's CSV (%d bytes) differs from the REST export (%d bytes):\n%.600s\n---\n%.600s", len(csv), len(export.Body), csv, export.Body)
	}
	rows := strings.Count(string(export.Body), "\n") - 1
	if s := read(t, bctx, "export status", chromedp.Text(chromedp.CSS(`#status`))); s != fmt.Sprintf("Exported %d rows.", rows) || rows < report.Treated.Decisions+report.Control.Decisions {
		t.Errorf("export status %q; the export has %d rows", s, rows)
	}

	// The layout holds at 1280x800: nothing wider than the screen, every
	// chart of a view within it.
	if w := read(t, bctx, "page width", chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 1280 {
		t.Errorf("the page is %d px wide at 1280x800", w)
	}
	overflow := read(t, bctx, "charts within the screen", chromedp.Evaluate[[]string](`[...document.querySelectorAll('canvas')]
		.filter(c => c.offsetParent !== null).filter(c => { const r = c.getBoundingClientRect(); return r.width < 200 || r.right > 1280; })
		.map(c => c.id)`))
	if len(overflow) > 0 {
		t.Errorf("charts cut or squeezed at 1280x800: %q", overflow)
	}

	// The views sent the requests whose cost TestConsoleViewsCostFixedStatements measures.
	for op, q := range consoleQueries {
		if got := trf.lastQuery(t, op).Query; got != q {
			t.Errorf("the page's %s is\n%s\nnot, as TestConsoleViewsCostFixedStatements measures,\n%s", op, got, q)
		}
	}

	trf.check(t, origin, "/console/assets/chart.umd.min.js", "/api/auth/login", "/graphql")

	// An expired access token is renewed from the refresh cookie: the one
	// request it failed is sent again with the new token.
	step(t, bctx, "renew the access token",
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = JSON.parse(sessionStorage.getItem('reten-console-session'));
			s.token = 'expired';
			sessionStorage.setItem('reten-console-session', JSON.stringify(s));
		})()`),
		chromedp.Navigate(srv.URL+"/console"),
		poll(`Chart.getChart(document.getElementById('chart-distribution')) !== undefined && document.getElementById('status').textContent === ''`),
	)
	if token := read(t, bctx, "renewed token", chromedp.Evaluate[string](
		`JSON.parse(sessionStorage.getItem('reten-console-session')).token`)); token == "expired" || token == "" {
		t.Errorf("the token was not renewed: %q", token)
	}
	_, failures, exceptions := trf.snapshot()
	if want := []string{"401 " + srv.URL + "/graphql"}; !slices.Equal(failures, want) || len(exceptions) > 0 {
		t.Errorf("renewing the token: failures %q (want %q), exceptions %q", failures, want, exceptions)
	}
}
