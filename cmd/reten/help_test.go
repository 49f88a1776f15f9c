package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run this test binary as the reten command itself
// (RETEN_RUN_MAIN=1), so that exit codes are those of main.
func TestMain(m *testing.M) {
	if os.Getenv("RETEN_RUN_MAIN") == "1" {
		os.Args = append([]string{"reten"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// reten runs the command with args and returns its stdout, stderr and exit code.
func reten(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RETEN_RUN_MAIN=1",
		"DATABASE_URL=sqlite://"+filepath.Join(t.TempDir(), "reten.db"), "RETEN_LOG_LEVEL=error")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run reten %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), code
}

func TestHelpExitsZero(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "help"} {
		stdout, stderr, code := reten(t, arg)
		if code != 0 {
			t.Errorf("reten %s: exit %d, want 0 (stderr %q)", arg, code, stderr)
		}
		if stdout != usage {
			t.Errorf("reten %s: stdout %q, want the usage", arg, stdout)
		}
		if stderr != "" {
			t.Errorf("reten %s: stderr %q, want none", arg, stderr)
		}
	}
	// A command's own -h prints its flags and exits 0 too.
	_, stderr, code := reten(t, "bootstrap", "-h")
	if code != 0 || !strings.Contains(stderr, "-tenant string") {
		t.Errorf("reten bootstrap -h: exit %d, stderr %q", code, stderr)
	}
}

func TestMisuseExitsOne(t *testing.T) {
	_, stderr, code := reten(t)
	if code != 1 || !strings.HasPrefix(stderr, "usage: reten <command>") || !strings.HasSuffix(stderr, "reten: missing command\n") {
		t.Errorf("reten: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = reten(t, "frobnicate")
	if code != 1 || !strings.HasSuffix(stderr, "reten: unknown command \"frobnicate\"\n") {
		t.Errorf("reten frobnicate: exit %d, stderr %q", code, stderr)
	}
}
