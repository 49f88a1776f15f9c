package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestBootstrapPrintsOneJSONLineAndIsIdempotent runs the real command twice on
// a fresh embedded database.
func TestBootstrapPrintsOneJSONLineAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(dir, "reten.db"))
	t.Setenv("RETEN_JWT_SECRET", "")
	t.Setenv("RETEN_LOG_LEVEL", "error")
	args := []string{"bootstrap", "--tenant", "Acme", "--email", "admin@acme.test", "--password", "secret123"}

	var first, second bytes.Buffer
	if err := run(args, &first); err != nil {
		t.Fatalf("first bootstrap: %v", err)
	}
	if err := run(args, &second); err != nil {
		t.Fatalf("second bootstrap: %v", err)
	}
	if first.String() != second.String() {
		t.Fatalf("bootstrap is not idempotent:\n%s%s", first.String(), second.String())
	}
	out := first.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want exactly one line, got %q", out)
	}
	var ids map[string]string
	if err := json.Unmarshal([]byte(out), &ids); err != nil {
		t.Fatalf("not JSON: %q", out)
	}
	if len(ids) != 3 {
		t.Fatalf("keys = %v, want tenantId, projectId, userId", ids)
	}
	for _, k := range []string{"tenantId", "projectId", "userId"} {
		if _, err := uuid.Parse(ids[k]); err != nil {
			t.Fatalf("%s = %q is not a uuid", k, ids[k])
		}
	}
	// Embedded mode generated and kept a JWT secret beside the database.
	if err := run([]string{"migrate"}, &bytes.Buffer{}); err != nil {
		t.Fatalf("migrate after bootstrap: %v", err)
	}
	st, err := os.Stat(filepath.Join(dir, "jwt.secret"))
	if err != nil || st.Mode().Perm() != 0o600 || st.Size() < 32 {
		t.Fatalf("jwt.secret: %v %v", st, err)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "reten.db"))
	err := run([]string{"frobnicate"}, &bytes.Buffer{})
	if err == nil || err.Error() != `unknown command "frobnicate"` {
		t.Fatalf("err = %v", err)
	}
	if err := run(nil, &bytes.Buffer{}); err == nil || err.Error() != "missing command" {
		t.Fatalf("err = %v", err)
	}
}
