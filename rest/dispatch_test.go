package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/channeldefinition"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

const dispatchSecret = "s3cr3t-token-never-shown"

const msgDispatchChannel = "channel must be one of the following values: WHATSAPP, EMAIL, SMS, PUSH, SALESMAN, CALLCENTER"

// dispatchOK decodes a 201/200 body into a map, failing on another status.
func dispatchOK(t *testing.T, res *apptest.Response, status int) map[string]any {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	if bytes.Contains(res.Body, []byte(dispatchSecret)) || bytes.Contains(res.Body, []byte("credentials")) {
		t.Fatalf("a response reveals credentials: %s", res.Body)
	}
	return res.Map(t)
}

// withoutVolatile drops id and timestamps so the rest compares exactly.
func withoutVolatile(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "id" && k != "createdAt" && k != "updatedAt" {
			out[k] = v
		}
	}
	return out
}

func sameMap(t *testing.T, got, want map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	raw, _ := json.Marshal(want)
	var w any
	_ = json.Unmarshal(raw, &w)
	wj, _ := json.Marshal(w)
	if string(g) != string(wj) {
		t.Fatalf("got  %s\nwant %s", g, wj)
	}
}

func TestDispatchProviders(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		ctx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: acme.TenantID})

		res := env.Do("POST", "/api/dispatch-providers", map[string]any{
			"name": "  Logger  ", "channel": "WHATSAPP", "kind": "log",
			"settings": map[string]any{"note": "x"}, "credentials": map[string]any{"token": dispatchSecret},
		}, h)
		p := dispatchOK(t, res, 201)
		sameMap(t, withoutVolatile(p), map[string]any{"name": "Logger", "channel": "WHATSAPP", "kind": "log",
			"settings": map[string]any{"note": "x"}, "hasCredentials": true, "isActive": true})
		id := p["id"].(string)

		// Stored encrypted: the bytes are not the JSON and decrypt back.
		row, err := env.App.DB.Client.DispatchProvider.Get(ctx, uuid.MustParse(id))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := json.Marshal(map[string]any{"token": dispatchSecret})
		if len(row.CredentialsEncrypted) == 0 || bytes.Contains(row.CredentialsEncrypted, []byte(dispatchSecret)) ||
			bytes.Equal(row.CredentialsEncrypted, plain) {
			t.Fatalf("credentials are not encrypted: %q", row.CredentialsEncrypted)
		}
		creds, err := env.App.Dispatch.Credentials(row)
		if err != nil || creds["token"] != dispatchSecret {
			t.Fatalf("decrypted credentials = %v, %v", creds, err)
		}

		// Reads never carry credentials.
		got := dispatchOK(t, env.Do("GET", "/api/dispatch-providers/"+id, nil, h), 200)
		sameMap(t, got, p)
		list := dispatchOK(t, env.Do("GET", "/api/dispatch-providers", nil, h), 200)
		sameMap(t, list, map[string]any{"data": []any{p}, "meta": map[string]any{"page": 1, "limit": 25, "total": 1, "totalPages": 1}})
		dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{
			"name": "Mailer", "channel": "EMAIL", "kind": "webhook", "settings": map[string]any{"url": "https://hooks.example.test/x"},
		}, h), 201)
		list = dispatchOK(t, env.Do("GET", "/api/dispatch-providers?channel=EMAIL", nil, h), 200)
		if data := list["data"].([]any); len(data) != 1 || data[0].(map[string]any)["name"] != "Mailer" ||
			data[0].(map[string]any)["hasCredentials"] != false {
			t.Fatalf("EMAIL providers = %v", list)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/dispatch-providers?channel=FAX", nil, h), 400, []string{msgDispatchChannel})

		cases := []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"empty", map[string]any{}, 400, []string{"name should not be empty", msgDispatchChannel,
				"kind must be one of the following values: log, webhook"}},
			{"types", map[string]any{"name": 1, "channel": 2, "kind": true, "settings": "x", "credentials": []int{1}, "is_active": "yes"}, 400,
				[]string{"name must be a string", msgDispatchChannel, "kind must be one of the following values: log, webhook",
					"settings must be an object", "credentials must be an object", "is_active must be a boolean value"}},
			{"long name", map[string]any{"name": strings.Repeat("n", 256), "channel": "SMS", "kind": "log"}, 400,
				[]string{"name must be shorter than or equal to 255 characters"}},
			{"webhook without url", map[string]any{"name": "W", "channel": "SMS", "kind": "webhook"}, 400,
				[]string{"settings.url must be a URL address"}},
			{"webhook bad url", map[string]any{"name": "W", "channel": "SMS", "kind": "webhook", "settings": map[string]any{"url": "ftp://x"}}, 400,
				[]string{"settings.url must be a URL address"}},
			{"unknown field", map[string]any{"name": "W", "channel": "SMS", "kind": "log", "secret": "x"}, 400,
				[]string{"property secret should not exist"}},
			{"duplicate name", map[string]any{"name": "Logger", "channel": "SMS", "kind": "log"}, 409,
				`A dispatch provider named "Logger" already exists`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/dispatch-providers", c.body, h), c.status, c.msg)
			})
		}
		// The same name is free in another tenant.
		dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Logger", "channel": "SMS", "kind": "log"}, bh), 201)

		// PATCH: name, settings, credentials (replace, then remove), is_active.
		path := "/api/dispatch-providers/" + id
		upd := dispatchOK(t, env.Do("PATCH", path, map[string]any{"name": "Logger 2", "is_active": false,
			"credentials": map[string]any{"token": dispatchSecret + "2"}}, h), 200)
		sameMap(t, withoutVolatile(upd), map[string]any{"name": "Logger 2", "channel": "WHATSAPP", "kind": "log",
			"settings": map[string]any{"note": "x"}, "hasCredentials": true, "isActive": false})
		row, _ = env.App.DB.Client.DispatchProvider.Get(ctx, row.ID)
		if creds, err := env.App.Dispatch.Credentials(row); err != nil || creds["token"] != dispatchSecret+"2" {
			t.Fatalf("replaced credentials = %v, %v", creds, err)
		}
		upd = dispatchOK(t, env.Do("PATCH", path, map[string]any{"credentials": nil, "settings": nil}, h), 200)
		if upd["hasCredentials"] != false || len(upd["settings"].(map[string]any)) != 0 {
			t.Fatalf("after removing credentials and settings: %v", upd)
		}
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"channel": "SMS", "kind": "webhook"}, h), 400,
			[]string{"property channel should not exist", "property kind should not exist"})
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": "  "}, h), 400, []string{"name should not be empty"})
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": "Mailer"}, h), 409, `A dispatch provider named "Mailer" already exists`)
		mailer := dispatchOK(t, env.Do("GET", "/api/dispatch-providers?channel=EMAIL", nil, h), 200)["data"].([]any)[0].(map[string]any)
		apptest.ExpectError(t, env.Do("PATCH", "/api/dispatch-providers/"+mailer["id"].(string),
			map[string]any{"settings": map[string]any{"url": "not a url"}}, h), 400, []string{"settings.url must be a URL address"})

		// Another tenant's provider does not exist here; ids must be UUIDs.
		for _, m := range []string{"GET", "PATCH", "DELETE"} {
			apptest.ExpectError(t, env.Do(m, path, map[string]any{}, bh), 404, "Dispatch provider not found")
			apptest.ExpectError(t, env.Do(m, "/api/dispatch-providers/"+uuid.NewString(), map[string]any{}, h), 404, "Dispatch provider not found")
			apptest.ExpectError(t, env.Do(m, "/api/dispatch-providers/x", map[string]any{}, h), 400, "Validation failed (uuid is expected)")
		}

		// Permissions: the viewer role reads, fde manages.
		env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)
		dispatchOK(t, env.Do("GET", path, nil, vh), 200)
		apptest.ExpectError(t, env.Do("POST", "/api/dispatch-providers", map[string]any{}, vh), 403, "Required permissions: dispatch:manage")
		apptest.ExpectError(t, env.Do("DELETE", path, nil, vh), 403, "Required permissions: dispatch:manage")
		env.CreateUser(acme.TenantID, "oscar", auth.RoleOperator)
		apptest.ExpectError(t, env.Do("GET", "/api/dispatch-providers", nil, apptest.JWT(env.Login("oscar"), acme.TenantID, uuid.Nil)),
			403, "Required permissions: dispatch:view")

		// DELETE is permanent.
		if res := env.Do("DELETE", path, nil, h); res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", path, nil, h), 404, "Dispatch provider not found")
	})
}

func TestChannelDefinitions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		wa := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "WA", "channel": "WHATSAPP", "kind": "log"}, h), 201)["id"].(string)
		sms := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "SMS", "channel": "SMS", "kind": "log"}, h), 201)["id"].(string)
		base := "/api/dispatch-providers/" + wa + "/channel-definitions"

		d := dispatchOK(t, env.Do("POST", base, map[string]any{"name": "welcome", "template": "Hola {{name}}",
			"sender": "+5491100000000", "rate_per_minute": 60, "settings": map[string]any{"lang": "es"}}, h), 201)
		sameMap(t, withoutVolatile(d), map[string]any{"providerId": wa, "name": "welcome", "channel": "WHATSAPP",
			"template": "Hola {{name}}", "sender": "+5491100000000", "ratePerMinute": 60, "settings": map[string]any{"lang": "es"}, "isActive": true})
		bare := dispatchOK(t, env.Do("POST", base, map[string]any{"name": "bare", "channel": "WHATSAPP"}, h), 201)
		sameMap(t, withoutVolatile(bare), map[string]any{"providerId": wa, "name": "bare", "channel": "WHATSAPP",
			"template": "", "sender": "", "ratePerMinute": nil, "settings": map[string]any{}, "isActive": true})
		// The same name under another provider is fine.
		other := dispatchOK(t, env.Do("POST", "/api/dispatch-providers/"+sms+"/channel-definitions", map[string]any{"name": "welcome"}, h), 201)

		list := dispatchOK(t, env.Do("GET", base+"?per_page=1", nil, h), 200)
		sameMap(t, list, map[string]any{"data": []any{bare}, "meta": map[string]any{"page": 1, "limit": 1, "total": 2, "totalPages": 2}})

		cases := []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"no name", map[string]any{}, 400, []string{"name should not be empty"}},
			{"rate zero", map[string]any{"name": "x", "rate_per_minute": 0}, 400, []string{"rate_per_minute must not be less than 1"}},
			{"rate fraction", map[string]any{"name": "x", "rate_per_minute": 1.5}, 400, []string{"rate_per_minute must be an integer number"}},
			{"types", map[string]any{"name": "x", "template": 1, "sender": 2, "settings": 3, "is_active": 4}, 400,
				[]string{"template must be a string", "sender must be a string", "settings must be an object", "is_active must be a boolean value"}},
			{"bad channel", map[string]any{"name": "x", "channel": "FAX"}, 400, []string{msgDispatchChannel}},
			{"unknown field", map[string]any{"name": "x", "providerId": wa}, 400, []string{"property providerId should not exist"}},
			{"other channel", map[string]any{"name": "x", "channel": "EMAIL"}, 422, "The dispatch provider serves channel WHATSAPP, not EMAIL"},
			{"duplicate", map[string]any{"name": "welcome"}, 409, `A channel definition named "welcome" already exists for this provider`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", base, c.body, h), c.status, c.msg)
			})
		}

		// PATCH under its provider only.
		dpath := base + "/" + d["id"].(string)
		upd := dispatchOK(t, env.Do("PATCH", dpath, map[string]any{"template": "Chau", "rate_per_minute": nil, "is_active": false}, h), 200)
		sameMap(t, withoutVolatile(upd), map[string]any{"providerId": wa, "name": "welcome", "channel": "WHATSAPP",
			"template": "Chau", "sender": "+5491100000000", "ratePerMinute": nil, "settings": map[string]any{"lang": "es"}, "isActive": false})
		apptest.ExpectError(t, env.Do("PATCH", dpath, map[string]any{"name": "bare"}, h), 409, `A channel definition named "bare" already exists for this provider`)
		apptest.ExpectError(t, env.Do("PATCH", dpath, map[string]any{"rate_per_minute": -1}, h), 400, []string{"rate_per_minute must not be less than 1"})
		apptest.ExpectError(t, env.Do("PATCH", dpath, map[string]any{"channel": "SMS"}, h), 422, "The dispatch provider serves channel WHATSAPP, not SMS")
		apptest.ExpectError(t, env.Do("PATCH", "/api/dispatch-providers/"+sms+"/channel-definitions/"+d["id"].(string), map[string]any{"name": "z"}, h),
			404, "Channel definition not found")
		apptest.ExpectError(t, env.Do("PATCH", base+"/"+other["id"].(string), map[string]any{"name": "z"}, h), 404, "Channel definition not found")
		apptest.ExpectError(t, env.Do("PATCH", base+"/x", map[string]any{}, h), 400, "Validation failed (uuid is expected)")

		// Another tenant's provider does not exist there.
		apptest.ExpectError(t, env.Do("POST", base, map[string]any{"name": "y"}, bh), 404, "Dispatch provider not found")
		apptest.ExpectError(t, env.Do("GET", base, nil, bh), 404, "Dispatch provider not found")
		apptest.ExpectError(t, env.Do("PATCH", dpath, map[string]any{"name": "y"}, bh), 404, "Dispatch provider not found")
		apptest.ExpectError(t, env.Do("GET", "/api/dispatch-providers/x/channel-definitions", nil, h), 400, "Validation failed (uuid is expected)")

		// Deleting a provider removes its definitions.
		if res := env.Do("DELETE", "/api/dispatch-providers/"+wa, nil, h); res.Status != 204 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		ctx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: acme.TenantID})
		if n, _ := env.App.DB.Client.ChannelDefinition.Query().Where(channeldefinition.ProviderID(uuid.MustParse(wa))).Count(ctx); n != 0 {
			t.Fatalf("definitions left = %d", n)
		}
	})
}
