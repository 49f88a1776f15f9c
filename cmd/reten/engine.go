package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/rest"
)

// engineRun is what `reten engine run` was asked.
type engineRun struct {
	tenant, agc uuid.UUID
	in          engine.StartInput
}

// parseEngineRun reads the flags of `reten engine run`; every error names
// the flag at fault.
func parseEngineRun(args []string) (*engineRun, error) {
	fs := flag.NewFlagSet("engine run", flag.ContinueOnError)
	var tenant, agc string
	r := &engineRun{}
	fs.StringVar(&tenant, "tenant", "", "tenant id (the tenantId `reten demo` prints)")
	fs.StringVar(&agc, "agc", "", "activity generation config id (the activityGenerationConfigId `reten demo` prints)")
	fs.StringVar(&r.in.AsOf, "as-of", "", "the instant T, RFC 3339 (fractional seconds allowed); default now; not in the future")
	fs.BoolVar(&r.in.DryRun, "dry-run", false, "compute and report the run without writing any snapshot")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("engine run: unexpected argument %q", fs.Arg(0))
	}
	var err error
	if r.tenant, err = uuidFlag("tenant", tenant); err != nil {
		return nil, err
	}
	if r.agc, err = uuidFlag("agc", agc); err != nil {
		return nil, err
	}
	if _, err := engine.AsOf(r.in.AsOf); err != nil {
		return nil, fmt.Errorf("--as-of: %w", err)
	}
	return r, nil
}

// uuidFlag reads the required UUID flag name.
func uuidFlag(name, v string) (uuid.UUID, error) {
	if v == "" {
		return uuid.Nil, fmt.Errorf("--%s is required", name)
	}
	id, err := uuid.Parse(v)
	if err != nil {
		return uuid.Nil, fmt.Errorf("--%s must be a UUID, got %q", name, v)
	}
	return id, nil
}

// engineCommand runs `reten engine <subcommand>`: only run, which prints
// the finished run as one JSON line and fails when the run FAILED.
func engineCommand(ctx context.Context, cfg app.Config, args []string, stdout io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		_, err := fmt.Fprint(stdout, usage)
		return err
	}
	if len(args) == 0 || args[0] != "run" {
		fmt.Fprint(os.Stderr, usage)
		if len(args) == 0 {
			return errors.New("engine: missing subcommand (run)")
		}
		return fmt.Errorf("engine: unknown subcommand %q (run)", args[0])
	}
	r, err := parseEngineRun(args[1:])
	if err != nil {
		return err
	}
	a, err := app.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	run, err := a.RunEngine(ctx, r.tenant, r.agc, r.in)
	if err != nil {
		return err
	}
	return printRun(stdout, run)
}

// printRun prints a finished run as one JSON line, the REST shape; a run
// that did not succeed is printed too, and is the command's error.
func printRun(stdout io.Writer, run *ent.LifecycleRun) error {
	if err := json.NewEncoder(stdout).Encode(rest.LifecycleRunJSON(run)); err != nil {
		return err
	}
	if run.Status != lifecyclerun.StatusSUCCEEDED {
		msg := string(run.Status)
		if run.Error != nil {
			msg = *run.Error
		}
		return fmt.Errorf("run failed: %s", msg)
	}
	return nil
}
