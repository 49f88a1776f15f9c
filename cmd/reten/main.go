// Command reten is the one binary of the service: serve | migrate | bootstrap | demo | engine run.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/tenant"
)

const usage = `usage: reten <command> [flags]

commands:
  help       print this help (also -h, --help)
  serve      run the HTTP server (applies pending migrations first)
  migrate    apply pending migrations and exit
  bootstrap  create a tenant, its main project and a super_admin user (idempotent)
             --tenant NAME --email EMAIL --password PASSWORD [--username NAME]
  demo       create the demo tenant (user demo@reten.local) and its sample dataset in
             this database, with a platform commerce per dataset commerce, the lifecycle
             defaults' retention status configs and the active AGC "Ciclo de vida"
             with its rules and 12 weekly runs of history (idempotent); prints the
             password when it creates the user, and the
             tenantId and activityGenerationConfigId that engine run takes
             [--password PASSWORD] [--replace: regenerate the sample data]
  engine run run one AGC's lifecycle engine at once, in this process, and print the
             finished run as one JSON line (as GET /api/lifecycle-runs/{id} shows it);
             exit 1 when the run FAILED (the run is still printed, "reten: run failed:
             <error>" on stderr); --dry-run computes and reports, writing nothing
             --tenant ID --agc ID [--as-of RFC3339 instant, default now] [--dry-run]
`

func main() {
	err := run(os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) { // a command's -h: its flags were printed
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "reten:", err)
		os.Exit(1)
	}
}

// run executes one command; bootstrap, demo and engine run print their JSON
// line on stdout, serve the URLs to open once it listens, help the usage.
func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return errors.New("missing command")
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		_, err := fmt.Fprint(stdout, usage)
		return err
	}
	cfg, err := app.LoadConfig()
	if err != nil {
		return err
	}
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch args[0] {
	case "serve":
		a, err := app.New(ctx, cfg)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Serve(ctx, stdout)
	case "migrate":
		db, err := app.OpenDB(cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer db.Close()
		n, err := db.Migrate(ctx)
		if err != nil {
			return err
		}
		slog.Info("migrations applied", "count", n)
		return nil
	case "bootstrap":
		fs := flag.NewFlagSet("bootstrap", flag.ContinueOnError)
		var in tenant.BootstrapInput
		fs.StringVar(&in.Tenant, "tenant", "", "tenant name")
		fs.StringVar(&in.Email, "email", "", "super_admin email")
		fs.StringVar(&in.Password, "password", "", "super_admin password (min 8 characters)")
		fs.StringVar(&in.Username, "username", "", "super_admin username (default: email local part)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		a, err := app.New(ctx, cfg)
		if err != nil {
			return err
		}
		defer a.Close()
		res, err := tenant.Bootstrap(ctx, a.DB.Client, in)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(res)
	case "demo":
		fs := flag.NewFlagSet("demo", flag.ContinueOnError)
		var in dataset.DemoInput
		fs.StringVar(&in.Password, "password", "", "password of the demo user when created (default: generated and printed)")
		fs.BoolVar(&in.Replace, "replace", false, "drop and regenerate the demo tables")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		a, err := app.New(ctx, cfg)
		if err != nil {
			return err
		}
		defer a.Close()
		res, err := a.Demo(ctx, in)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(res)
	case "engine":
		return engineCommand(ctx, cfg, args[1:], stdout)
	default:
		fmt.Fprint(os.Stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}
