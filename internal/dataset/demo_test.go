package dataset_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
)

func TestDemo(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := svc(env)
		in := dataset.DemoInput{Options: smallDemo()}
		res, err := s.Demo(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		tid := uuid.MustParse(res.TenantID)
		short := strings.ReplaceAll(res.TenantID, "-", "")[:8]
		if env.App.DB.Dialect == "postgres" {
			t.Cleanup(func() {
				if _, err := env.App.DB.SQL.Exec(`DROP SCHEMA IF EXISTS "demo_` + short + `" CASCADE`); err != nil {
					t.Errorf("drop demo schema: %v", err)
				}
				if err := dataset.DropReader(context.Background(), env.App.DB.SQL, tid); err != nil {
					t.Errorf("drop reader role: %v", err)
				}
			})
		}
		o := smallDemo()
		wantTables := map[string]int{"commerces": o.Commerces, "events": o.Events, "product_properties": o.Products, "transactions": o.Transactions}
		if res.Email != "demo@reten.local" || len(res.Password) != 16 || !reflect.DeepEqual(res.Tables, wantTables) ||
			res.Rows != o.Commerces+o.Events+o.Products+o.Transactions || uuid.MustParse(res.ProjectID) == uuid.Nil {
			t.Fatalf("result = %+v", res)
		}

		// The dataset lives beside the service's data: a schema, or a file next to the database file.
		ctx := admin(tid)
		d, err := s.Get(ctx)
		if err != nil || !d.Managed {
			t.Fatalf("dataset %+v, %v: want a managed one", d, err)
		}
		switch env.App.DB.Dialect {
		case "postgres":
			if res.Engine != "postgres" || d.Engine != "postgres" || d.SchemaName != "demo_"+short {
				t.Fatalf("engine %s, dataset %+v", res.Engine, d)
			}
		default:
			file := filepath.Join(filepath.Dir(strings.TrimPrefix(env.App.Config.DatabaseURL, "sqlite://")), "demo-"+short+".db")
			if _, err := os.Stat(file); res.Engine != "sqlite" || d.Engine != "sqlite" || err != nil {
				t.Fatalf("engine %s, dataset %+v, file %v", res.Engine, d, err)
			}
		}
		cat, _, err := s.Catalog(ctx)
		if err != nil || !reflect.DeepEqual(*cat, demo.Catalog()) {
			t.Fatalf("stored catalog differs from demo.Catalog(): %v", err)
		}
		db, _, qualifier, err := s.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n := countEvents(t, db, qualifier); n != o.Events {
			t.Fatalf("%d events through Open", n)
		}

		// The printed password logs in.
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": "demo@reten.local", "password": res.Password}, nil)
		if login.Status != 201 {
			t.Fatalf("login: %d %s", login.Status, login.Body)
		}

		// Idempotent: same tenant, the user keeps its password (not printed), tables kept.
		again, err := s.Demo(t.Context(), dataset.DemoInput{Password: "ignored-pass", Options: demo.Options{Seed: 99}})
		if err != nil {
			t.Fatal(err)
		}
		want := *res
		want.Password = ""
		if !reflect.DeepEqual(*again, want) {
			t.Fatalf("second run = %+v, want %+v", again, want)
		}
		// --replace regenerates with the new sizes.
		o.Events = 300
		again, err = s.Demo(t.Context(), dataset.DemoInput{Replace: true, Options: o})
		if err != nil || again.Tables["events"] != 300 || again.TenantID != res.TenantID {
			t.Fatalf("replace = %+v, %v", again, err)
		}
		db, _, qualifier, err = s.Open(ctx)
		if err != nil || countEvents(t, db, qualifier) != 300 {
			t.Fatalf("events after replace: %v", err)
		}
	})
}
