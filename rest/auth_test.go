package rest_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/rest"
)

type loginBody struct {
	AccessToken string         `json:"accessToken"`
	User        auth.LoginUser `json:"user"`
}

func refreshCookie(t *testing.T, res *apptest.Response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == rest.RefreshCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", rest.RefreshCookie, res.Header["Set-Cookie"])
	return nil
}

func cookieHeader(c *http.Cookie) apptest.Headers {
	return apptest.Headers{"Cookie": rest.RefreshCookie + "=" + c.Value}
}

func TestLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		for _, identifier := range []string{acme.Email, strings.ToUpper(acme.Email), "acme-admin"} {
			res := env.Do("POST", "/api/auth/login", map[string]string{"identifier": identifier, "password": apptest.Password}, nil)
			if res.Status != http.StatusCreated {
				t.Fatalf("login %q: %d %s", identifier, res.Status, res.Body)
			}
			var body loginBody
			res.JSON(t, &body)
			want := auth.LoginUser{ID: acme.UserID, Username: "acme-admin", Email: acme.Email, FirstName: "", LastName: "",
				Roles: []string{"super_admin"}, Permissions: auth.Catalog, TenantIDs: []uuid.UUID{acme.TenantID}}
			if !equalUser(body.User, want) {
				t.Fatalf("user = %+v, want %+v", body.User, want)
			}
			if strings.Count(body.AccessToken, ".") != 2 {
				t.Fatalf("access token %q is not a JWT", body.AccessToken)
			}
			c := refreshCookie(t, res)
			if !c.HttpOnly || c.Path != "/api/auth" || c.SameSite != http.SameSiteStrictMode || c.Value == "" {
				t.Fatalf("refresh cookie = %+v", c)
			}
			if c.MaxAge < int((7*24*time.Hour).Seconds())-5 || c.MaxAge > int((7*24*time.Hour).Seconds()) {
				t.Fatalf("refresh cookie Max-Age = %d, want 7 days", c.MaxAge)
			}
		}
	})
}

func equalUser(a, b auth.LoginUser) bool {
	return a.ID == b.ID && a.Username == b.Username && a.Email == b.Email && a.FirstName == b.FirstName &&
		a.LastName == b.LastName && slices.Equal(a.Roles, b.Roles) && slices.Equal(a.Permissions, b.Permissions) &&
		slices.Equal(a.TenantIDs, b.TenantIDs)
}

func TestLoginErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		cases := []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"wrong password", map[string]string{"identifier": acme.Email, "password": "wrong-password"}, 401, "Invalid credentials"},
			{"unknown user", map[string]string{"identifier": "nobody@example.test", "password": apptest.Password}, 401, "Invalid credentials"},
			{"empty body", nil, 400, []string{"identifier should not be empty", "password must be longer than or equal to 8 characters"}},
			{"short password", map[string]string{"identifier": acme.Email, "password": "1234567"}, 400, []string{"password must be longer than or equal to 8 characters"}},
			{"wrong types", map[string]any{"identifier": 5, "password": true}, 400, []string{"identifier must be a string", "password must be a string"}},
			{"unknown property", map[string]any{"identifier": acme.Email, "password": apptest.Password, "tenant": "x"}, 400, []string{"property tenant should not exist"}},
			{"malformed JSON", `{"identifier": `, 400, "Malformed JSON body"},
			{"not an object", `["a"]`, 400, "Request body must be a JSON object"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/auth/login", c.body, nil), c.status, c.msg)
			})
		}

		// An inactive user cannot log in.
		u := env.CreateUser(acme.TenantID, "ivan", "viewer")
		if err := env.App.DB.Client.User.UpdateOne(u).SetIsActive(false).Exec(viewer.SystemContext(context.Background())); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/auth/login", map[string]string{"identifier": "ivan", "password": apptest.Password}, nil),
			401, "Invalid credentials")
	})
}

func TestRefreshRotatesAndDetectsReuse(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil)
		first := refreshCookie(t, login)
		refresh := func(c *http.Cookie) *apptest.Response {
			return env.Do("POST", "/api/auth/refresh", nil, cookieHeader(c))
		}

		res := refresh(first)
		if res.Status != http.StatusCreated {
			t.Fatalf("refresh: %d %s", res.Status, res.Body)
		}
		var body loginBody
		res.JSON(t, &body)
		if body.AccessToken == "" || body.User.ID != acme.UserID {
			t.Fatalf("refresh body = %s", res.Body)
		}
		second := refreshCookie(t, res)
		if second.Value == first.Value {
			t.Fatal("refresh did not rotate the refresh token")
		}
		if got := env.Do("GET", "/api/projects", nil, apptest.JWT(body.AccessToken, acme.TenantID, uuid.Nil)); got.Status != 200 {
			t.Fatalf("projects with refreshed token: %d %s", got.Status, got.Body)
		}

		// Within the grace period a rotated token is a concurrent retry: 401,
		// the session survives and the cookie is left alone.
		res = refresh(first)
		apptest.ExpectError(t, res, 401, "Invalid or expired refresh token")
		if len(res.Header["Set-Cookie"]) != 0 {
			t.Fatalf("a raced refresh touched the cookie: %v", res.Header["Set-Cookie"])
		}
		res = refresh(second)
		if res.Status != http.StatusCreated {
			t.Fatalf("successor after a raced retry: %d %s", res.Status, res.Body)
		}
		third := refreshCookie(t, res)

		// Later, replaying any rotated token of the chain revokes the whole family.
		start := time.Now()
		env.App.Auth.SetClock(func() time.Time { return start.Add(time.Minute) })
		res = refresh(first)
		apptest.ExpectError(t, res, 401, "Invalid or expired refresh token")
		if cleared := refreshCookie(t, res); cleared.Value != "" {
			t.Fatalf("replay did not clear the cookie: %+v", cleared)
		}
		apptest.ExpectError(t, refresh(third), 401, "Invalid or expired refresh token")
		// No cookie at all.
		apptest.ExpectError(t, env.Do("POST", "/api/auth/refresh", nil, nil), 401, "Invalid or expired refresh token")

		// Another login is a family of its own and is unaffected.
		other := refreshCookie(t, env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil))
		if res := refresh(other); res.Status != http.StatusCreated {
			t.Fatalf("new login after a revoked family: %d %s", res.Status, res.Body)
		}
	})
}

func TestConcurrentRefreshKeepsTheSession(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		cookie := refreshCookie(t, env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil))
		const n = 4
		results := make([]*apptest.Response, n)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = env.Do("POST", "/api/auth/refresh", nil, cookieHeader(cookie))
			}()
		}
		wg.Wait()
		var winner *apptest.Response
		for _, res := range results {
			switch res.Status {
			case http.StatusCreated:
				if winner != nil {
					t.Fatal("two concurrent refreshes of one token both succeeded")
				}
				winner = res
			case http.StatusUnauthorized:
				if len(res.Header["Set-Cookie"]) != 0 {
					t.Fatalf("a losing refresh touched the cookie: %v", res.Header["Set-Cookie"])
				}
			default:
				t.Fatalf("refresh: %d %s", res.Status, res.Body)
			}
		}
		if winner == nil {
			t.Fatal("no concurrent refresh succeeded")
		}
		if res := env.Do("POST", "/api/auth/refresh", nil, cookieHeader(refreshCookie(t, winner))); res.Status != http.StatusCreated {
			t.Fatalf("the winner's token after the race: %d %s", res.Status, res.Body)
		}
	})
}

func TestTokenLifetimes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil)
		var body loginBody
		login.JSON(t, &body)
		cookie := refreshCookie(t, login)
		h := apptest.JWT(body.AccessToken, acme.TenantID, uuid.Nil)

		start := time.Now()
		env.App.Auth.SetClock(func() time.Time { return start.Add(14 * time.Minute) })
		if res := env.Do("GET", "/api/projects", nil, h); res.Status != 200 {
			t.Fatalf("access token at 14 min: %d %s", res.Status, res.Body)
		}
		env.App.Auth.SetClock(func() time.Time { return start.Add(16 * time.Minute) })
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, h), 401, "Unauthorized")

		env.App.Auth.SetClock(func() time.Time { return start.Add(7*24*time.Hour + time.Minute) })
		apptest.ExpectError(t, env.Do("POST", "/api/auth/refresh", nil, cookieHeader(cookie)), 401, "Invalid or expired refresh token")
	})
}

func TestLogout(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil)
		cookie := refreshCookie(t, login)

		res := env.Do("POST", "/api/auth/logout", nil, cookieHeader(cookie))
		if res.Status != http.StatusNoContent || len(res.Body) != 0 {
			t.Fatalf("logout: %d %q", res.Status, res.Body)
		}
		if cleared := refreshCookie(t, res); cleared.Value != "" || cleared.MaxAge >= 0 {
			t.Fatalf("logout cookie = %+v, want cleared", cleared)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/auth/refresh", nil, cookieHeader(cookie)), 401, "Invalid or expired refresh token")
	})
}

func TestDeactivatedUserLosesAccess(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		u := env.CreateUser(acme.TenantID, "olga", "admin")
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": "olga", "password": apptest.Password}, nil)
		var body loginBody
		login.JSON(t, &body)
		cookie := refreshCookie(t, login)
		if err := env.App.DB.Client.User.UpdateOne(u).SetIsActive(false).Exec(viewer.SystemContext(context.Background())); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.JWT(body.AccessToken, acme.TenantID, uuid.Nil)), 401, "Unauthorized")
		apptest.ExpectError(t, env.Do("POST", "/api/auth/refresh", nil, cookieHeader(cookie)), 401, "Invalid or expired refresh token")
	})
}

// TestLoginPrefersEmail: an identifier that is one user's email and another
// user's username logs the email's owner in (never a 500).
func TestLoginPrefersEmail(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		hash, _ := auth.HashPassword(apptest.Password)
		if _, err := env.App.DB.Client.User.Create().SetEmail("x@example.test").SetEmailKey("x@example.test").
			SetUsername(acme.Email).SetUsernameKey(acme.Email).SetPasswordHash(hash).Save(sys); err != nil {
			t.Fatal(err)
		}
		res := env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil)
		var body loginBody
		res.JSON(t, &body)
		if res.Status != http.StatusCreated || body.User.ID != acme.UserID {
			t.Fatalf("login: %d %s", res.Status, res.Body)
		}
	})
}
