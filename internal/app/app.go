package app

import (
	"context"
	"errors"
	"net/http"

	"entgo.io/ent/dialect"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/reten-io/reten/graph"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apikey"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/database"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dayclose"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/eventfilter"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/generator"
	"github.com/reten-io/reten/internal/idempotency"
	"github.com/reten-io/reten/internal/insights"
	"github.com/reten-io/reten/internal/node"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/uplift"
	"github.com/reten-io/reten/internal/user"
	"github.com/reten-io/reten/internal/webhook"
	"github.com/reten-io/reten/rest"
)

// App is the wired service.
type App struct {
	Config    Config
	DB        *DB
	Auth      *auth.Service
	Tenancy   *tenancy.Resolver
	Projects  *project.Service
	Tenants   *tenant.Service
	Users     *user.Service
	Nodes     *node.Service
	Audiences *audience.Service
	APIKeys   *apikey.Service
	Limiter   *ratelimit.Limiter
	Commerces *commerce.Service
	FieldOrg  *fieldorg.Service
	Trash     *trash.Service
	Dispatch  *dispatch.Service
	Catalog   *catalog.Service
	AGCs      *agc.Service
	Engine    *engine.Service
	Runs      *engine.Runs
	Rules     *generation.Service
	// Generator runs activity generation (the outbox, DWELL rules,
	// resolution retries, expiry) and its preview.
	Generator *generator.Service
	Snapshots *snapshot.Service
	Dataset   *dataset.Service
	Handler   http.Handler

	// EventFilters manages event filters over the tenant datasets.
	EventFilters *eventfilter.Service

	// Activities manages activities, their status machine and dispatch.
	Activities *activity.Service

	// ResultTypes manages the tenant result type configs; TenantSettings the
	// tenant's day settings (time zone and day cutoff).
	ResultTypes    *resulttype.Service
	TenantSettings *cutoff.Service

	// Results registers and updates activity results.
	Results *result.Service

	// Idempotency records and replays the responses of Idempotency-Key requests.
	Idempotency *idempotency.Service

	// DayClose is the end-of-day auto-close job.
	DayClose *dayclose.Service

	// Webhooks manages the tenants' webhook endpoints, records the events
	// the other services emit and delivers them.
	Webhooks *webhook.Service
	// Uplift measures the generated activities against the holdout.
	Uplift *uplift.Service
	// Insights computes the console's aggregations.
	Insights *insights.Service
	// credentials listens for the other replicas' credential changes
	// (PostgreSQL); nil on SQLite.
	credentials *auth.Listener
}

// New opens the database, applies pending migrations and wires the services.
func New(ctx context.Context, cfg Config) (*App, error) {
	db, err := database.Open(cfg.DatabaseURL, cfg.dbSettings(), cfg.EntOptions...)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	a, err := Wire(cfg, db)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return a, nil
}

// Wire builds the services and the HTTP handler over an open, migrated
// database (several Apps may share one database, like replicas).
func Wire(cfg Config, db *DB) (*App, error) {
	limiter, err := ratelimit.New(cfg.RateLimit)
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, DB: db, Limiter: limiter}
	a.Auth = auth.NewService(db.Client, cfg.JWTSecret)
	if err := a.cacheCredentials(cfg, db); err != nil {
		return nil, err
	}
	a.Tenancy = tenancy.NewResolver(a.Auth)
	a.Projects = project.NewService(db.Client)
	a.Tenants = tenant.NewService(db.Client)
	a.Users = user.NewService(db.Client)
	a.Nodes = node.NewService(db.Client, db.SQL)
	a.APIKeys = apikey.NewService(db.Client)
	a.Commerces = commerce.NewService(db.Client)
	a.FieldOrg = fieldorg.NewService(db.Client)
	a.Trash = trash.NewService(db.Client)
	a.Dispatch = dispatch.NewService(db.Client, cfg.SecretsKey)
	a.Dispatch.SetRateGate(limiter)
	a.Dispatch.SetWebhookClient(cfg.OutboundAllow.Client(outbound.CallTimeout))
	a.Catalog = catalog.NewService(db.Client)
	a.Snapshots = snapshot.NewService(db.Client, db.Dialect)
	if a.Dataset, err = dataset.NewService(db.Client, cfg.SecretsKey,
		dataset.Host{DB: db.SQL, URL: cfg.DatabaseURL, Allow: cfg.DatasetAllow}); err != nil {
		return nil, err
	}
	a.AGCs = agc.NewService(db.Client, a.Dataset)
	a.EventFilters = eventfilter.NewService(db.Client, a.Dataset)
	a.Audiences = audience.NewService(db.Client, a.Dataset)
	a.Engine = engine.NewService(a.AGCs, a.Audiences, a.Dataset, a.Commerces)
	a.Runs = engine.NewRuns(db.Client, a.Engine, a.Snapshots)
	a.Rules = generation.NewService(db.Client)
	a.Generator = generator.New(db.Client, db.Dialect)
	a.Runs.Finished = a.Generator.Wake
	a.ResultTypes = resulttype.NewService(db.Client)
	a.TenantSettings = cutoff.NewService(db.Client)
	a.Activities = activity.NewService(db.Client, a.Dispatch)
	a.Results = result.NewService(db.Client, a.ResultTypes)
	a.DayClose = dayclose.NewService(db.Client)
	a.Idempotency = idempotency.NewService(db.Client)
	a.Uplift = uplift.NewService(db.Client, a.AGCs, a.Dataset, a.ResultTypes)
	a.Insights = insights.NewService(db.Client, db.Dialect)
	// Every writer of an event records it in its own transaction.
	a.Webhooks = webhook.New(db.Client, db.Dialect, cfg.SecretsKey, cfg.OutboundAllow)
	machine := activity.Machine{Events: a.Webhooks}
	a.Activities.Machine, a.Results.Machine, a.DayClose.Machine, a.Generator.Machine = machine, machine, machine, machine
	a.Runs.Events = a.Webhooks
	a.Handler = a.handler()
	return a, nil
}

// cacheCredentials makes the credential checks reusable for
// auth.CredentialTTL, emptied by the writes that change them: on this
// replica, and on PostgreSQL on every replica of the schema (NOTIFY).
func (a *App) cacheCredentials(cfg Config, db *DB) error {
	if cfg.CredentialTTL < 0 {
		return nil
	}
	a.Auth.CacheCredentials(orDefault(cfg.CredentialTTL, auth.CredentialTTL))
	channel := ""
	if db.Dialect == dialect.Postgres {
		var err error
		ctx, cancel := context.WithTimeout(context.Background(), cfg.requestTimeout())
		defer cancel()
		if channel, err = auth.Channel(ctx, db.SQL); err != nil {
			return err
		}
		if a.credentials, err = a.Auth.Listen(cfg.DatabaseURL, channel); err != nil {
			return err
		}
	}
	db.Client.Use(a.Auth.Hook(channel))
	return nil
}

// Close releases the rate limiter, the credential listener, the dataset
// handles and the database.
func (a *App) Close() error {
	var listener error
	if a.credentials != nil {
		listener = a.credentials.Close()
	}
	return errors.Join(a.Limiter.Close(), listener, a.Dataset.Close(), a.DB.Close())
}

func (a *App) restHandler() http.Handler {
	return rest.NewRouter(rest.Deps{
		Auth: a.Auth, Tenancy: a.Tenancy, Projects: a.Projects, Tenants: a.Tenants,
		Audiences: a.Audiences, APIKeys: a.APIKeys, Users: a.Users, Limiter: a.Limiter,
		Commerces: a.Commerces, FieldOrg: a.FieldOrg, Trash: a.Trash, Dispatch: a.Dispatch, Catalog: a.Catalog, AGCs: a.AGCs, Engine: a.Engine, Runs: a.Runs, Rules: a.Rules, Generator: a.Generator, Snapshots: a.Snapshots, Dataset: a.Dataset, SecureCookies: a.Config.SecureCookies,
		EventFilters: a.EventFilters,
		ResultTypes:  a.ResultTypes, TenantSettings: a.TenantSettings,
		Activities: a.Activities,
		Results:    a.Results, Idempotency: a.Idempotency,
		Webhooks: a.Webhooks, Uplift: a.Uplift,
	})
}

func (a *App) graphqlHandler(reg prometheus.Registerer) http.Handler {
	var conns *compiledConnections
	if !a.Config.GraphQLInterpreted {
		conns = newCompiledConnections(reg)
	}
	return graphqlHandler(a.DB.Client, a.Tenancy, a.Limiter, &graph.Resolver{
		APIKeys: a.APIKeys, Nodes: a.Nodes, Projects: a.Projects, Tenants: a.Tenants, Users: a.Users,
		Commerces: a.Commerces, FieldOrg: a.FieldOrg, Trash: a.Trash, Dispatch: a.Dispatch, Catalog: a.Catalog, AGCs: a.AGCs, Engine: a.Engine, Runs: a.Runs, Rules: a.Rules, Generator: a.Generator,
		Snapshots: a.Snapshots, Dataset: a.Dataset, Audiences: a.Audiences,
		EventFilters: a.EventFilters,
		ResultTypes:  a.ResultTypes, TenantSettings: a.TenantSettings,
		Activities: a.Activities,
		Results:    a.Results, Idempotency: a.Idempotency,
		Webhooks: a.Webhooks, Uplift: a.Uplift, Insights: a.Insights,
	}, conns)
}
