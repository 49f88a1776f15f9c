package uplift_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/uplift"
)

const w30 = 30 * 24 * time.Hour

// world writes the decisions of the tests (W = 30 days unless said;
// visits are the dataset's engagement rows, changes the transitions under
// the AGC, results the activities'):
//
//	name commerce rule group   state at t0  t0           engaged                 end state (improved)      result (positive)
//	T1   C01      R1   TREATED ACTIVATION   04-01 10:00  visit at t0: yes        ENGAGEMENT low (yes)      success +1d (yes)
//	K1   C06      R1   CONTROL ACTIVATION   04-01 12:00  yes                     ENGAGEMENT high (yes)
//	T2   C02      R1   TREATED RESURRECTION 04-02 10:00  at t0+W, t0-1ms: no     lost: change at t0+W (no) success at t0+W (no)
//	K2   C07      R2   CONTROL RESURRECTION 04-02 12:00  no                      ACTIVATION new (yes)
//	T3   C03      R2   TREATED ENGAGEMENT   04-03 10:00  at t0+W-1ms: yes        high then low: low (no)   rescheduled, NEGATIVE for Acme (no)
//	K3   C08      R1   CONTROL ENGAGEMENT   04-03 12:00  yes                     high -> low (no)
//	T4   C04      R2   TREATED ENGAGEMENT   04-04 10:00  no                      low -> high (yes)         callback_requested (yes)
//	T5   C05 (no external id) R1 TREATED ACTIVATION 04-05 10:00  no              RESURRECTION lost (no)    none (no)
//	T6   C01      R2   TREATED ENGAGEMENT   04-20 10:00  "c01" only: no          low, no change (no)       none (no)
//	P1   C01      R1   TREATED, 05-20 10:00: pending;  P2 C06 R1 CONTROL, 05-15 12:00: pending
//
// and decisions that never count: a CAPPED one, one of the second AGC,
// and one of tenant Beta naming the AGC.
type world struct {
	*fix
	beta dbtest.Tenant
}

func newWorld(t *testing.T, db *dbtest.DB) *world {
	t.Helper()
	f := newFix(t, db)
	w := &world{fix: f}
	ctx := f.admin
	for _, c := range [][2]string{{"C01", "C01"}, {"C02", "C02"}, {"C03", "C03"}, {"C04", "C04"}, {"C05", ""},
		{"C06", "C06"}, {"C07", "C07"}, {"C08", "C08"}} {
		f.commerce(f.acme, ctx, c[0], c[1])
	}
	cm := f.commerces
	acme := f.acme
	dec := func(name, commerce string, rule uuid.UUID, kind gd.Kind, reason gd.Reason, stage, code string, at time.Time) {
		f.decide(ctx, decision{name: name, tn: acme, agc: f.agc, rule: rule, commerce: cm[commerce], kind: kind, reason: reason,
			stage: stage, code: code, at: at})
	}
	gen, held := gd.KindGENERATED, gd.KindHELD_OUT
	dec("T1", "C01", f.r1, gen, "", "ACTIVATION", "new", day(1, 10))
	dec("K1", "C06", f.r1, held, gd.ReasonCONTROL_GROUP, "ACTIVATION", "new", day(1, 12))
	dec("T2", "C02", f.r1, gen, "", "RESURRECTION", "lost", day(2, 10))
	dec("K2", "C07", f.r2, held, gd.ReasonAGC_HOLDOUT, "RESURRECTION", "lost", day(2, 12))
	dec("T3", "C03", f.r2, gen, "", "ENGAGEMENT", "low", day(3, 10))
	dec("K3", "C08", f.r1, held, gd.ReasonAGC_HOLDOUT, "ENGAGEMENT", "high", day(3, 12))
	dec("T4", "C04", f.r2, gen, "", "ENGAGEMENT", "low", day(4, 10))
	dec("T5", "C05", f.r1, gen, "", "ACTIVATION", "new", day(5, 10))
	dec("T6", "C01", f.r2, gen, "", "ENGAGEMENT", "low", day(20, 10))
	dec("P1", "C01", f.r1, gen, "", "ENGAGEMENT", "low", time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC))
	dec("P2", "C06", f.r1, held, gd.ReasonCONTROL_GROUP, "ENGAGEMENT", "high", time.Date(2026, 5, 15, 12, 0, 0, 0, time.UTC))
	dec("X1", "C02", f.r1, gd.KindCAPPED, gd.ReasonMIN_GAP, "RESURRECTION", "lost", day(10, 10))
	f.decide(ctx, decision{name: "X2", tn: acme, agc: f.agc2, rule: f.other, commerce: cm["C03"], kind: gen,
		stage: "ENGAGEMENT", code: "low", at: day(5, 10)})

	trans := func(commerce, stage, code string, at time.Time) {
		f.transition(acme, f.agc, cm[commerce], stage, code, at)
	}
	trans("C01", "ENGAGEMENT", "low", day(1, 10).Add(5*24*time.Hour))
	trans("C02", "ENGAGEMENT", "low", day(2, 10).Add(w30)) // at t0 + W: outside
	trans("C03", "ENGAGEMENT", "high", day(3, 10).Add(2*24*time.Hour))
	trans("C03", "ENGAGEMENT", "low", day(3, 10).Add(10*24*time.Hour))
	trans("C04", "ENGAGEMENT", "high", day(4, 10).Add(24*time.Hour))
	trans("C05", "RESURRECTION", "lost", day(5, 10).Add(24*time.Hour))
	trans("C06", "ENGAGEMENT", "high", day(1, 12).Add(3*24*time.Hour))
	trans("C07", "ACTIVATION", "new", day(2, 12).Add(4*24*time.Hour))
	trans("C08", "ENGAGEMENT", "low", day(3, 12).Add(24*time.Hour))
	// Under the second AGC: not this AGC's history.
	f.transition(acme, f.agc2, cm["C01"], "ENGAGEMENT", "high", day(20, 12))

	f.result(acme, ctx, "T1", "success", day(1, 10).Add(24*time.Hour))
	f.result(acme, ctx, "T2", "success", day(2, 10).Add(w30)) // outside
	f.result(acme, ctx, "T3", "rescheduled", day(3, 10).Add(3*24*time.Hour))
	f.result(acme, ctx, "T4", "callback_requested", day(4, 10).Add(2*24*time.Hour))
	_, err := resulttype.NewService(db.Client).Put(ctx, resulttype.Input{Code: "rescheduled", IsActive: new(true),
		Polarity: new(resulttype.Negative), RequiresFutureScheduledAt: new(true)})
	dbtest.NoError(t, err)

	ms := time.Millisecond
	f.hostDataset(t, acme, []visit{
		{"C01", day(1, 10)},               // at t0: inside T1's window
		{"C02", day(2, 10).Add(w30)},      // at t0 + W: outside
		{"C02", day(2, 10).Add(-ms)},      // before t0
		{"C03", day(3, 10).Add(w30 - ms)}, // the window's last millisecond
		{"C05", day(5, 12)},               // T5's commerce has no external id
		{"C06", day(1, 13)},               // K1
		{"C08", day(5, 12)},               // K3
		{"c01", day(20, 12)},              // identities compare exactly
		{"C99", day(20, 12)},              // nobody's
	})

	// Tenant Beta: its own AGC and decision, and a decision naming Acme's AGC.
	w.beta = db.Tenant(t, "Beta")
	bctx := w.beta.Admin()
	betaAGC := f.createAGC(t, w.beta, bctx, "Retail", "visits")
	betaRule := f.rule(t, w.beta, bctx, betaAGC, "R1", "TASK", "SALESMAN")
	bc := f.commerce(w.beta, bctx, "B01", "C01")
	f.decide(bctx, decision{name: "B1", tn: w.beta, agc: betaAGC, rule: betaRule, commerce: bc, kind: gen, stage: "ACTIVATION", code: "new", at: day(1, 10)})
	f.decide(bctx, decision{name: "B2", tn: w.beta, agc: f.agc, rule: f.r1, commerce: bc, kind: held, reason: gd.ReasonCONTROL_GROUP,
		stage: "ACTIVATION", code: "new", at: day(1, 11)})
	f.decisions["betaAGC"] = betaAGC
	return w
}

// figures renders an outcome as "treated x/n control x/n".
func figures(o uplift.Outcome) string {
	s := "treated -"
	if o.Treated != nil {
		s = fmt.Sprintf("treated %d/%d", o.Treated.Successes, o.Treated.N)
	}
	if o.Control != nil {
		s += fmt.Sprintf(" control %d/%d", o.Control.Successes, o.Control.N)
	}
	return s
}

// expectReport checks the sizes, pending and every outcome's figures.
func expectReport(t *testing.T, r *uplift.Report, treated, control, pending int, outcomes ...string) {
	t.Helper()
	if r.Treated.Decisions != treated || r.Control.Decisions != control || r.Pending != pending {
		t.Fatalf("sizes: treated %d control %d pending %d, want %d %d %d", r.Treated.Decisions, r.Control.Decisions, r.Pending,
			treated, control, pending)
	}
	var got []string
	for _, o := range r.Outcomes {
		got = append(got, o.Outcome+" "+figures(o))
	}
	if strings.Join(got, "; ") != strings.Join(outcomes, "; ") {
		t.Fatalf("outcomes:\n got %q\nwant %q", got, outcomes)
	}
}

// TestReport: the figures of the world, by hand; the interval and p-value
// are the statistics functions' for those figures.
func TestReport(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		r, err := w.svc.Report(w.admin, w.agc, uplift.Input{})
		dbtest.NoError(t, err)
		expectReport(t, r, 6, 3, 2,
			"ENGAGED treated 2/6 control 2/3", "IMPROVED treated 2/6 control 2/3", "POSITIVE_RESULT treated 2/6")
		if r.ActivityGenerationConfigID != w.agc || r.WindowDays != 30 || !r.AsOf.Equal(now) || r.RuleID != nil ||
			r.Channel != nil || r.From != nil || r.To != nil || len(r.Warnings) != 0 {
			t.Fatalf("report = %+v", r)
		}
		lo, hi := uplift.Newcombe(2, 6, 2, 3, uplift.Z95)
		pv, _ := uplift.PooledZTest(2, 6, 2, 3)
		small := fmt.Sprintf(uplift.MsgSmallFmt, "treated 2/6, control 2/3")
		for _, o := range r.Outcomes[:2] {
			if *o.Treated.Rate != 2.0/6 || *o.Control.Rate != 2.0/3 || *o.Uplift != 2.0/6-2.0/3 ||
				*o.CILow != lo || *o.CIHigh != hi || *o.PValue != pv || *o.Warning != small {
				t.Fatalf("%s = %+v", o.Outcome, o)
			}
		}
		// By hand: pooled 4/9, z = -0.948683, P = 0.342782.
		if math.Abs(pv-0.342782) > 1e-6 || lo >= -1.0/3 || hi <= -1.0/3 {
			t.Fatalf("p %v, interval %v to %v", pv, lo, hi)
		}
		pos := r.Outcomes[2]
		if pos.Control != nil || pos.Uplift != nil || pos.CILow != nil || pos.PValue != nil || *pos.Treated.Rate != 2.0/6 ||
			*pos.Warning != fmt.Sprintf(uplift.MsgSmallTreatedFmt, 2, 6) {
			t.Fatalf("POSITIVE_RESULT = %+v", pos)
		}
	})
}

// TestReportFilters: rule, channel, period and window narrow the population.
func TestReportFilters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		report := func(in uplift.Input) *uplift.Report {
			t.Helper()
			r, err := w.svc.Report(w.admin, w.agc, in)
			dbtest.NoError(t, err)
			return r
		}
		r := report(uplift.Input{RuleID: w.r2.String()})
		expectReport(t, r, 3, 1, 0, "ENGAGED treated 1/3 control 0/1", "IMPROVED treated 1/3 control 1/1", "POSITIVE_RESULT treated 1/3")
		if *r.RuleID != w.r2 {
			t.Fatalf("ruleId %v", r.RuleID)
		}
		r = report(uplift.Input{Channel: "SALESMAN"})
		expectReport(t, r, 3, 2, 2, "ENGAGED treated 1/3 control 2/2", "IMPROVED treated 1/3 control 1/2", "POSITIVE_RESULT treated 1/3")
		r = report(uplift.Input{Channel: "EMAIL"})
		expectReport(t, r, 0, 0, 0, "ENGAGED treated 0/0 control 0/0", "IMPROVED treated 0/0 control 0/0", "POSITIVE_RESULT treated 0/0")
		if *r.Outcomes[0].Warning != uplift.MsgNoneAtAll || r.Outcomes[0].Treated.Rate != nil || r.Outcomes[0].Uplift != nil ||
			r.Outcomes[2].Warning != nil {
			t.Fatalf("empty report = %+v", r.Outcomes)
		}
		expectReport(t, report(uplift.Input{RuleID: w.r2.String(), Channel: "SALESMAN"}), 0, 0, 0,
			"ENGAGED treated 0/0 control 0/0", "IMPROVED treated 0/0 control 0/0", "POSITIVE_RESULT treated 0/0")
		// [from, to): T2 at from is in, T4 at to is out.
		r = report(uplift.Input{From: "2026-04-02T10:00:00Z", To: "2026-04-04T07:00:00-03:00"})
		expectReport(t, r, 2, 2, 0, "ENGAGED treated 1/2 control 1/2", "IMPROVED treated 0/2 control 1/2", "POSITIVE_RESULT treated 0/2")
		if !r.From.Equal(day(2, 10)) || !r.To.Equal(day(4, 10)) {
			t.Fatalf("from %v to %v", r.From, r.To)
		}
		// Only the treated: the uplift needs a control group.
		r = report(uplift.Input{From: "2026-04-04T00:00:00Z", To: "2026-04-30T00:00:00Z"})
		expectReport(t, r, 3, 0, 0, "ENGAGED treated 0/3 control 0/0", "IMPROVED treated 1/3 control 0/0", "POSITIVE_RESULT treated 1/3")
		if *r.Outcomes[1].Warning != uplift.MsgNoControl || r.Outcomes[1].Uplift != nil {
			t.Fatalf("no control: %+v", r.Outcomes[1])
		}
		// W = 5: the pending decisions are complete; T1's change at t0 + 5 days is outside.
		r = report(uplift.Input{WindowDays: "5"})
		expectReport(t, r, 7, 4, 0, "ENGAGED treated 1/7 control 2/4", "IMPROVED treated 2/7 control 2/4", "POSITIVE_RESULT treated 2/7")
		// W = 365: nothing has elapsed.
		expectReport(t, report(uplift.Input{WindowDays: "365"}), 0, 0, 11,
			"ENGAGED treated 0/0 control 0/0", "IMPROVED treated 0/0 control 0/0", "POSITIVE_RESULT treated 0/0")
	})
}

// TestCSV: one row per decision, by decided_at, exactly.
func TestCSV(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		var b bytes.Buffer
		dbtest.NoError(t, w.svc.WriteCSV(w.admin, &b, w.agc, uplift.Input{}))
		c := w.commerces
		row := func(name, commerce, ext string, rule uuid.UUID, channel, group string, t0 time.Time, stage, code, engaged,
			endStage, endCode, improved, result, positive string) string {
			act := ""
			if group == "TREATED" {
				act = w.acts[name].String()
			}
			return strings.Join([]string{w.decisions[name].String(), c[commerce].String(), ext, rule.String(), channel, group,
				t0.Format(time.RFC3339), t0.Add(w30).Format(time.RFC3339), stage, code, engaged, endStage, endCode, improved,
				act, result, positive}, ",") + "\n"
		}
		want := "decision_id,commerce_id,external_id,rule_id,channel,group,decided_at,window_end,stage,status_code,engaged," +
			"end_stage,end_status_code,improved,activity_id,result_code,positive_result\n" +
			row("T1", "C01", "C01", w.r1, "SALESMAN", "TREATED", day(1, 10), "ACTIVATION", "new", "true", "ENGAGEMENT", "low", "true", "success", "true") +
			row("K1", "C06", "C06", w.r1, "SALESMAN", "CONTROL", day(1, 12), "ACTIVATION", "new", "true", "ENGAGEMENT", "high", "true", "", "") +
			row("T2", "C02", "C02", w.r1, "SALESMAN", "TREATED", day(2, 10), "RESURRECTION", "lost", "false", "RESURRECTION", "lost", "false", "", "false") +
			row("K2", "C07", "C07", w.r2, "WHATSAPP", "CONTROL", day(2, 12), "RESURRECTION", "lost", "false", "ACTIVATION", "new", "true", "", "") +
			row("T3", "C03", "C03", w.r2, "WHATSAPP", "TREATED", day(3, 10), "ENGAGEMENT", "low", "true", "ENGAGEMENT", "low", "false", "rescheduled", "false") +
			row("K3", "C08", "C08", w.r1, "SALESMAN", "CONTROL", day(3, 12), "ENGAGEMENT", "high", "true", "ENGAGEMENT", "low", "false", "", "") +
			row("T4", "C04", "C04", w.r2, "WHATSAPP", "TREATED", day(4, 10), "ENGAGEMENT", "low", "false", "ENGAGEMENT", "high", "true", "callback_requested", "true") +
			row("T5", "C05", "", w.r1, "SALESMAN", "TREATED", day(5, 10), "ACTIVATION", "new", "false", "RESURRECTION", "lost", "false", "", "false") +
			row("T6", "C01", "C01", w.r2, "WHATSAPP", "TREATED", day(20, 10), "ENGAGEMENT", "low", "false", "ENGAGEMENT", "low", "false", "", "false")
		if b.String() != want {
			t.Fatalf("csv:\n%s\nwant\n%s", b.String(), want)
		}

		// Nothing to export: the header alone.
		b.Reset()
		dbtest.NoError(t, w.svc.WriteCSV(w.admin, &b, w.agc, uplift.Input{Channel: "PUSH"}))
		if b.String() != strings.Join(uplift.CSVHeader, ",")+"\n" {
			t.Fatalf("empty csv: %q", b.String())
		}
		// A refused request writes nothing.
		b.Reset()
		err := w.svc.WriteCSV(w.admin, &b, w.agc, uplift.Input{WindowDays: "0"})
		dbtest.ExpectError(t, err, http.StatusBadRequest, uplift.MsgWindowDays)
		if b.Len() != 0 {
			t.Fatalf("a refused export wrote %q", b.String())
		}
	})
}

// TestParameters: every broken parameter in one 400 (before the AGC is
// looked at), then the AGC and the rule (404).
func TestParameters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		_, err := f.svc.Report(f.admin, uuid.New(), uplift.Input{RuleID: "r1", Channel: "FAX", From: "yesterday",
			To: "2026-04-01", WindowDays: "0"})
		dbtest.ExpectError(t, err, http.StatusBadRequest, "rule_id must be a UUID",
			"channel must be one of the following values: SALESMAN, CALLCENTER, WHATSAPP, EMAIL, SMS, PUSH",
			"from must be a valid ISO 8601 date string", "to must be a valid ISO 8601 date string",
			"window_days must be an integer from 1 to 365")
		_, err = f.svc.Report(f.admin, f.agc, uplift.Input{From: "2026-04-02T00:00:00Z", To: "2026-04-01T21:00:00-03:00", WindowDays: "366"})
		dbtest.ExpectError(t, err, http.StatusBadRequest, "to must be later than from", "window_days must be an integer from 1 to 365")
		for _, days := range []string{"abc", "1.5", "-3", " 30"} {
			_, err = f.svc.Report(f.admin, f.agc, uplift.Input{WindowDays: days})
			dbtest.ExpectError(t, err, http.StatusBadRequest, "window_days must be an integer from 1 to 365")
		}
		missing := uuid.New()
		_, err = f.svc.Report(f.admin, missing, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusNotFound, "Activity generation config "+missing.String()+" not found")
		err = f.svc.Rows(f.admin, missing, uplift.Input{}, func(uplift.Row) error { return nil })
		dbtest.ExpectError(t, err, http.StatusNotFound, "Activity generation config "+missing.String()+" not found")
		// A rule of another AGC, and no rule at all.
		for _, id := range []uuid.UUID{f.other, uuid.New()} {
			_, err = f.svc.Report(f.admin, f.agc, uplift.Input{RuleID: id.String()})
			dbtest.ExpectError(t, err, http.StatusNotFound, "Generation rule not found")
		}
		// Another project of the tenant does not see the AGC.
		second := db.Project(t, f.acme, "Second")
		_, err = f.svc.Report(f.acme.InProject(second), f.agc, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusNotFound, "Activity generation config "+f.agc.String()+" not found")
		// A tenant-level access has no project.
		_, err = f.svc.Report(f.acme.InProject(uuid.Nil), f.agc, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusBadRequest, tenancy.MsgProjectHeaderNeeded)
	})
}

// TestTenancyAndDatasets: another tenant's AGC is a 404 and its decisions
// never count (Acme's figures are TestReport's); ENGAGED is left out with
// a warning without a dataset, on BigQuery, and when the catalog cannot
// serve the engagement source.
func TestTenancyAndDatasets(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		betaAGC := w.decisions["betaAGC"]
		_, err := w.svc.Report(w.admin, betaAGC, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusNotFound, "Activity generation config "+betaAGC.String()+" not found")

		bctx := w.beta.Admin()
		r, err := w.svc.Report(bctx, betaAGC, uplift.Input{})
		dbtest.NoError(t, err)
		expectReport(t, r, 1, 0, 0, "ENGAGED treated -", "IMPROVED treated 0/1 control 0/0", "POSITIVE_RESULT treated 0/1")
		if r.Outcomes[0].Control != nil || *r.Outcomes[0].Warning != uplift.MsgNoDataset ||
			fmt.Sprint(r.Warnings) != fmt.Sprint([]string{uplift.MsgNoDataset}) {
			t.Fatalf("without a dataset: %+v %v", r.Outcomes[0], r.Warnings)
		}
		// Beta's decision naming Acme's AGC is not Beta's either: its AGC is not Beta's.
		_, err = w.svc.Report(bctx, w.agc, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusNotFound, "Activity generation config "+w.agc.String()+" not found")

		ctx, err := tenancy.EnterAsSuperAdmin(context.Background(), uuid.New(), w.beta.TenantID, uuid.Nil, "PUT /tenant-dataset")
		dbtest.NoError(t, err)
		_, _, err = w.datasets.Set(ctx, dataset.ConfigInput{Engine: dataset.EngineBigQuery, BigqueryProject: "beta-analytics", BigqueryDataset: "events"})
		dbtest.NoError(t, err)
		r, err = w.svc.Report(bctx, betaAGC, uplift.Input{})
		dbtest.NoError(t, err)
		if *r.Outcomes[0].Warning != uplift.MsgBigQuery || fmt.Sprint(r.Warnings) != fmt.Sprint([]string{uplift.MsgBigQuery}) {
			t.Fatalf("on BigQuery: %+v %v", r.Outcomes[0], r.Warnings)
		}
		var rows []uplift.Row
		dbtest.NoError(t, w.svc.Rows(bctx, betaAGC, uplift.Input{}, func(r uplift.Row) error { rows = append(rows, r); return nil }))
		if len(rows) != 1 || rows[0].Engaged != nil || rows[0].DecisionID != w.decisions["B1"] {
			t.Fatalf("rows on BigQuery: %+v", rows)
		}

		// Acme's second AGC reads a table the catalog does not have.
		r, err = w.svc.Report(w.admin, w.agc2, uplift.Input{})
		dbtest.NoError(t, err)
		msg := uplift.MsgNotComputed + `engagement.source_table "orders" is not a table of the dataset catalog`
		expectReport(t, r, 1, 0, 0, "ENGAGED treated -", "IMPROVED treated 0/1 control 0/0", "POSITIVE_RESULT treated 0/1")
		if fmt.Sprint(r.Warnings) != fmt.Sprint([]string{msg}) {
			t.Fatalf("warnings %q, want %q", r.Warnings, msg)
		}

		// A dataset that fails the statement is the tenant's 422, and an
		// export refused before its first row writes nothing.
		w.dropVisits(t)
		_, err = w.svc.Report(w.admin, w.agc, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusUnprocessableEntity, dataset.MsgQueryFailed)
		var b bytes.Buffer
		err = w.svc.WriteCSV(w.admin, &b, w.agc, uplift.Input{})
		dbtest.ExpectError(t, err, http.StatusUnprocessableEntity, dataset.MsgQueryFailed)
		if b.Len() != 0 {
			t.Fatalf("a failed export wrote %q", b.String())
		}
	})
}
