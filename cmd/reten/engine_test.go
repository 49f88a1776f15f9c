package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/internal/lifecycle"
)

// runLine is the JSON line `reten engine run` prints: the REST shape of a
// run (GET /api/lifecycle-runs/:runId).
type runLine struct {
	ID                         string                  `json:"id"`
	ActivityGenerationConfigID string                  `json:"activityGenerationConfigId"`
	Status                     string                  `json:"status"`
	Trigger                    string                  `json:"trigger"`
	AsOf                       time.Time               `json:"asOf"`
	DryRun                     bool                    `json:"dryRun"`
	ConfigHashes               *lifecycle.ConfigHashes `json:"configHashes"`
	StartedAt                  *time.Time              `json:"startedAt"`
	FinishedAt                 *time.Time              `json:"finishedAt"`
	Counts                     lifecycle.RunCounts     `json:"counts"`
	ByState                    []lifecycle.StateCount  `json:"byState"`
	Error                      *string                 `json:"error"`
	CreatedAt                  time.Time               `json:"createdAt"`
	UpdatedAt                  time.Time               `json:"updatedAt"`
}

// runEngine runs `reten engine run args...` in this process and decodes
// its one line.
func runEngine(t *testing.T, args ...string) runLine {
	t.Helper()
	var out bytes.Buffer
	if err := run(append([]string{"engine", "run"}, args...), &out); err != nil {
		t.Fatalf("reten engine run %v: %v (output %q)", args, err, out.String())
	}
	return decodeRun(t, out.String())
}

func decodeRun(t *testing.T, out string) runLine {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want one line, got %q", out)
	}
	var line runLine
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&line); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	return line
}

// defaultCodes reads the status codes of the lifecycle defaults (GET
// /api/lifecycle-defaults).
func defaultCodes(t *testing.T, d map[string]any) []string {
	t.Helper()
	var codes []string
	for pillar, children := range map[string]string{"activation": "moments", "engagement": "levels", "resurrection": "thresholds"} {
		p, _ := d[pillar].(map[string]any)
		list, _ := p[children].([]any)
		for _, c := range list {
			codes = append(codes, c.(map[string]any)["status_code"].(string))
		}
	}
	if len(codes) == 0 {
		t.Fatalf("no status code in the lifecycle defaults %v", d)
	}
	slices.Sort(codes)
	return codes
}

// TestEngineRunFlags: bad flags fail before anything runs, naming the flag.
func TestEngineRunFlags(t *testing.T) {
	id := uuid.NewString()
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"engine"}, "reten: engine: missing subcommand (run)\n"},
		{[]string{"engine", "go"}, "reten: engine: unknown subcommand \"go\" (run)\n"},
		{[]string{"engine", "run", "--agc", id}, "reten: --tenant is required\n"},
		{[]string{"engine", "run", "--tenant", id}, "reten: --agc is required\n"},
		{[]string{"engine", "run", "--tenant", "acme", "--agc", id}, "reten: --tenant must be a UUID, got \"acme\"\n"},
		{[]string{"engine", "run", "--tenant", id, "--agc", "1"}, "reten: --agc must be a UUID, got \"1\"\n"},
		{[]string{"engine", "run", "--tenant", id, "--agc", id, "--as-of", "2026-03-02"}, "reten: --as-of: as_of must be an RFC 3339 instant\n"},
		{[]string{"engine", "run", "--tenant", id, "--agc", id, "--as-of", future}, "reten: --as-of: as_of must not be in the future\n"},
		{[]string{"engine", "run", "--tenant", id, "--agc", id, "now"}, "reten: engine run: unexpected argument \"now\"\n"},
		{[]string{"engine", "run", "--tenant", id, "--agc", id, "--dry"}, "reten: flag provided but not defined: -dry\n"},
		// Well formed, but no such AGC in the tenant.
		{[]string{"engine", "run", "--tenant", id, "--agc", id}, "reten: Activity generation config " + id + " not found in tenant " + id + "\n"},
	} {
		stdout, stderr, code := reten(t, c.args...)
		if code != 1 || stdout != "" || !strings.HasSuffix(stderr, c.want) {
			t.Errorf("reten %v: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if stdout, _, code := reten(t, "engine", "--help"); code != 0 || stdout != usage {
		t.Errorf("reten engine --help: exit %d, stdout %q", code, stdout)
	}
	_, stderr, code := reten(t, "engine", "run", "-h")
	if code != 0 || !strings.Contains(stderr, "-as-of string") || !strings.Contains(stderr, "-dry-run") {
		t.Errorf("reten engine run -h: exit %d, stderr %q", code, stderr)
	}
}

// TestPrintRunFailed: a FAILED run is printed like any other, and is the
// command's error.
func TestPrintRunFailed(t *testing.T) {
	msg := "The run failed on an internal error; it is logged"
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	r := &ent.LifecycleRun{ID: uuid.New(), ActivityGenerationConfigID: uuid.New(), Status: lifecyclerun.StatusFAILED,
		Trigger: lifecyclerun.TriggerMANUAL, AsOf: now, StartedAt: &now, FinishedAt: &now, Error: &msg, CreatedAt: now, UpdatedAt: now}
	var out bytes.Buffer
	err := printRun(&out, r)
	if err == nil || err.Error() != "run failed: "+msg {
		t.Fatalf("err = %v", err)
	}
	line := decodeRun(t, out.String())
	if line.ID != r.ID.String() || line.Status != "FAILED" || line.Error == nil || *line.Error != msg || line.ConfigHashes != nil ||
		line.ByState == nil || len(line.ByState) != 0 {
		t.Fatalf("printed %+v", line)
	}
	r.Status, r.Error = lifecyclerun.StatusSUCCEEDED, nil
	out.Reset()
	if err := printRun(&out, r); err != nil || decodeRun(t, out.String()).Status != "SUCCEEDED" {
		t.Fatalf("succeeded run: %v, %q", err, out.String())
	}
}
