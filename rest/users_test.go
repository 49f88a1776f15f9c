package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/membership"
	entuser "github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// Messages of user administration.
const (
	msgUserNotFound    = "User not found"
	msgRolesRequired   = "At least one role is required"
	msgRoleValues      = "each value in roles must be one of the following values: admin, fde, supervisor, operator, viewer"
	msgOwnRoles        = "Cannot modify your own roles"
	msgOutsideTenant   = "Cannot modify roles for user outside your active tenant"
	msgRolesEqualOrHi  = "Cannot modify roles for user with equal or higher role"
	msgUserEqualOrHi   = "Cannot modify user with equal or higher role"
	msgDeactivateSelf  = "Cannot deactivate yourself"
	msgEmailInvalid    = "email must be an email"
	msgUsernameInvalid = "username must be 3 to 100 letters, digits, dots, dashes or underscores"
	msgPasswordShort   = "password must be longer than or equal to 8 characters"
	msgNeedUserUpdate  = "Required permissions: user:update"
	msgInvalidRefresh  = "Invalid or expired refresh token"
)

var userFields = []string{"createdAt", "email", "firstName", "id", "isActive", "lastLoginAt", "lastName", "roles",
	"updatedAt", "username"}

type userBody struct {
	ID          uuid.UUID  `json:"id"`
	Username    string     `json:"username"`
	Email       string     `json:"email"`
	FirstName   string     `json:"firstName"`
	LastName    string     `json:"lastName"`
	IsActive    bool       `json:"isActive"`
	Roles       []string   `json:"roles"`
	LastLoginAt *time.Time `json:"lastLoginAt"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

func msgAssignTooHigh(role string) string {
	return "Cannot assign role " + role + " - you can only assign roles lower than your own"
}

// decodeUser checks the user shape of a response with the status and decodes it.
func decodeUser(t *testing.T, res *apptest.Response, status int, what string) userBody {
	t.Helper()
	requireStatus(t, res, status, what)
	requireMembers(t, res.Body, userFields)
	var u userBody
	res.JSON(t, &u)
	return u
}

func getUser(t *testing.T, env *apptest.Env, h apptest.Headers, id uuid.UUID) userBody {
	t.Helper()
	return decodeUser(t, env.Do("GET", "/api/users/"+id.String(), nil, h), 200, "get user")
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// loginFull logs in and returns the access token and the refresh cookie.
func loginFull(t *testing.T, env *apptest.Env, identifier string) (string, *http.Cookie) {
	t.Helper()
	res := env.Do("POST", "/api/auth/login", map[string]string{"identifier": identifier, "password": apptest.Password}, nil)
	requireStatus(t, res, http.StatusCreated, "login "+identifier)
	var body loginBody
	res.JSON(t, &body)
	return body.AccessToken, refreshCookie(t, res)
}

func registerBody(username string, roles ...string) map[string]any {
	return map[string]any{"email": username + "@example.test", "username": username, "password": "s3cret-pass",
		"first_name": "First", "last_name": "Last", "roles": roles}
}

func TestRegisterUser(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)
		before := time.Now()

		res := env.Do("POST", "/api/auth/register", map[string]any{"email": "Bob.Builder@Example.test", "username": "bob",
			"password": "s3cret-pass", "first_name": "Bob", "last_name": "Builder", "roles": []string{auth.RoleOperator}}, h)
		bob := decodeUser(t, res, http.StatusCreated, "register")
		if bob.ID == uuid.Nil || bob.Username != "bob" || bob.Email != "Bob.Builder@Example.test" || bob.FirstName != "Bob" ||
			bob.LastName != "Builder" || !bob.IsActive || !slices.Equal(bob.Roles, []string{auth.RoleOperator}) ||
			bob.LastLoginAt != nil || bob.CreatedAt.Before(before.Add(-time.Minute)) || bob.UpdatedAt.IsZero() {
			t.Fatalf("registered user = %s", res.Body)
		}
		if strings.Contains(string(res.Body), "s3cret-pass") || strings.Contains(string(res.Body), "assword") {
			t.Fatalf("register response leaks the password: %s", res.Body)
		}

		// The new user logs in (by username or email, any case) with the chosen password.
		var token string
		for _, identifier := range []string{"bob", "bob.builder@example.test"} {
			login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": identifier, "password": "s3cret-pass"}, nil)
			requireStatus(t, login, http.StatusCreated, "login "+identifier)
			var body loginBody
			login.JSON(t, &body)
			if body.User.ID != bob.ID || !slices.Equal(body.User.TenantIDs, []uuid.UUID{acme.TenantID}) ||
				!slices.Equal(body.User.Roles, []string{auth.RoleOperator}) ||
				!slices.Equal(body.User.Permissions, auth.PermissionsOf([]string{auth.RoleOperator})) {
				t.Fatalf("login of the new user = %s", login.Body)
			}
			token = body.AccessToken
		}
		// ... and is a member of the caller's tenant only.
		ms := env.App.DB.Client.Membership.Query().Where(membership.UserID(bob.ID)).AllX(sys)
		if len(ms) != 1 || ms[0].TenantID != acme.TenantID || !slices.Equal(ms[0].Roles, []string{auth.RoleOperator}) {
			t.Fatalf("memberships = %+v", ms)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.JWT(token, beta.TenantID, uuid.Nil)), 403,
			"You are not a member of this tenant")
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.JWT(token, acme.TenantID, uuid.Nil)), 200, "bob in acme")
		got := getUser(t, env, h, bob.ID)
		if got.Username != "bob" || !slices.Equal(got.Roles, []string{auth.RoleOperator}) || got.LastLoginAt == nil {
			t.Fatalf("bob after login = %+v", got)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/users/"+bob.ID.String(), nil, session(env, beta.Email, beta.TenantID)), 404, msgUserNotFound)

		// An admin registers roles below admin.
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		ana := session(env, "ana", acme.TenantID)
		fde := decodeUser(t, env.Do("POST", "/api/auth/register", registerBody("fiona", auth.RoleFDE, auth.RoleViewer), ana), 201, "admin registers fde")
		if !sameSet(fde.Roles, []string{auth.RoleFDE, auth.RoleViewer}) {
			t.Fatalf("roles = %v", fde.Roles)
		}
		// The super_admin registers an admin.
		decodeUser(t, env.Do("POST", "/api/auth/register", registerBody("adele", auth.RoleAdmin), h), 201, "super_admin registers admin")
	})
}

func TestRegisterUserErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		ana := session(env, "ana", acme.TenantID)
		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermUserUpdate, auth.PermUserView)

		with := func(k string, v any) map[string]any {
			b := registerBody("newbie", auth.RoleViewer)
			b[k] = v
			return b
		}
		cases := []struct {
			name   string
			h      apptest.Headers
			body   any
			status int
			msg    any
		}{
			{"empty body", h, nil, 400, []string{msgEmailInvalid, msgUsernameInvalid, msgPasswordShort, msgRolesRequired}},
			{"every field wrong", h, map[string]any{"email": "nope", "username": "a", "password": "short", "roles": []string{}}, 400,
				[]string{msgEmailInvalid, msgUsernameInvalid, msgPasswordShort, msgRolesRequired}},
			{"email without domain part", h, with("email", "newbie@"), 400, []string{msgEmailInvalid}},
			{"email with a display name", h, with("email", "Newbie <newbie@example.test>"), 400, []string{msgEmailInvalid}},
			{"username too short", h, with("username", "ab"), 400, []string{msgUsernameInvalid}},
			{"username with a space", h, with("username", "new bie"), 400, []string{msgUsernameInvalid}},
			{"username too long", h, with("username", strings.Repeat("u", 101)), 400, []string{msgUsernameInvalid}},
			{"password of 7 characters", h, with("password", "1234567"), 400, []string{msgPasswordShort}},
			{"missing roles", h, with("roles", nil), 400, []string{msgRolesRequired}},
			{"empty roles", h, with("roles", []string{}), 400, []string{msgRolesRequired}},
			{"super_admin", h, with("roles", []string{auth.RoleSuperAdmin}), 400, []string{msgRoleValues}},
			{"unknown role", h, with("roles", []string{auth.RoleViewer, "boss"}), 400, []string{msgRoleValues}},
			{"roles not an array", h, with("roles", "viewer"), 400, []string{"roles must be an array of strings"}},
			{"email not a string", h, with("email", 5), 400, []string{"email must be a string"}},
			{"unknown property", h, with("tenant", "x"), 400, []string{"property tenant should not exist"}},
			{"camelCase names are not the body", h, with("firstName", "x"), 400, []string{"property firstName should not exist"}},
			{"email taken, other case", h, with("email", strings.ToUpper(acme.Email)), 409,
				`A user with email "` + strings.ToUpper(acme.Email) + `" already exists`},
			{"email of another tenant's user", h, with("email", beta.Email), 409, `A user with email "` + beta.Email + `" already exists`},
			{"username taken, other case", h, with("username", "Acme-Admin"), 409, `A user with username "Acme-Admin" already exists`},
			{"username of another tenant's user", h, with("username", "beta-admin"), 409, `A user with username "beta-admin" already exists`},
			{"admin registers an admin", ana, registerBody("newbie", auth.RoleAdmin), 403, msgAssignTooHigh(auth.RoleAdmin)},
			{"admin registers viewer and admin", ana, registerBody("newbie", auth.RoleViewer, auth.RoleAdmin), 403, msgAssignTooHigh(auth.RoleAdmin)},
			{"viewer", session(env, "vic", acme.TenantID), registerBody("newbie", auth.RoleViewer), 403, msgNeedUserUpdate},
			{"API key with user:update", apptest.Key(key), registerBody("newbie", auth.RoleViewer), 403,
				"This operation needs a user session; API keys cannot register users"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/auth/register", c.body, c.h), c.status, c.msg)
			})
		}
		if n := env.App.DB.Client.User.Query().Where(entuser.UsernameKey("newbie")).CountX(sys); n != 0 {
			t.Fatal("a refused registration created a user")
		}
		// No credentials at all.
		apptest.ExpectError(t, env.Do("POST", "/api/auth/register", registerBody("newbie", auth.RoleViewer), nil), 400, msgMissingTenant)
	})
}

func TestListUsers(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		zoe := env.CreateUser(acme.TenantID, "zoe", auth.RoleViewer)
		mia := env.CreateUser(acme.TenantID, "mia", auth.RoleOperator)
		env.CreateUser(acme.TenantID, "bruno", auth.RoleAdmin)
		carl := env.CreateUser(beta.TenantID, "carl", auth.RoleAdmin)
		// mia is also an admin of Beta: roles are per tenant.
		env.App.DB.Client.Membership.Create().SetTenantID(beta.TenantID).SetUserID(mia.ID).SetRoles([]string{auth.RoleAdmin}).ExecX(sys)
		h := session(env, acme.Email, acme.TenantID)

		list := func(t *testing.T, h apptest.Headers, query string) ([]userBody, pageMeta) {
			t.Helper()
			res := env.Do("GET", "/api/users"+query, nil, h)
			requireStatus(t, res, 200, "list users"+query)
			requireMembers(t, res.Body, []string{"data", "meta"})
			var out struct {
				Data []json.RawMessage `json:"data"`
				Meta pageMeta          `json:"meta"`
			}
			res.JSON(t, &out)
			users := []userBody{}
			for _, raw := range out.Data {
				requireMembers(t, raw, userFields)
				var u userBody
				_ = json.Unmarshal(raw, &u)
				users = append(users, u)
			}
			return users, out.Meta
		}
		names := func(us []userBody) []string {
			out := []string{}
			for _, u := range us {
				out = append(out, u.Username)
			}
			return out
		}

		users, meta := list(t, h, "")
		if !slices.Equal(names(users), []string{"acme-admin", "bruno", "mia", "zoe"}) ||
			meta != (pageMeta{Page: 1, Limit: 25, Total: 4, TotalPages: 1}) {
			t.Fatalf("users = %v %+v", names(users), meta)
		}
		for _, u := range users {
			want := map[string][]string{"acme-admin": {auth.RoleSuperAdmin}, "bruno": {auth.RoleAdmin}, "mia": {auth.RoleOperator},
				"zoe": {auth.RoleViewer}}[u.Username]
			if !slices.Equal(u.Roles, want) || !u.IsActive || u.Email != u.Username+"@example.test" {
				t.Fatalf("user %s = %+v, want roles %v", u.Username, u, want)
			}
		}
		users, meta = list(t, h, "?page=2&per_page=2")
		if !slices.Equal(names(users), []string{"mia", "zoe"}) || meta != (pageMeta{Page: 2, Limit: 2, Total: 4, TotalPages: 2}) {
			t.Fatalf("page 2 = %v %+v", names(users), meta)
		}
		// Beta sees its own members, with their Beta roles.
		users, _ = list(t, session(env, beta.Email, beta.TenantID), "")
		if !slices.Equal(names(users), []string{"beta-admin", "carl", "mia"}) || !slices.Equal(users[2].Roles, []string{auth.RoleAdmin}) {
			t.Fatalf("beta users = %+v", users)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/users?per_page=101", nil, h), 400, []string{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/users?page=0", nil, h), 400, []string{"page must not be less than 1"})

		// One user.
		got := getUser(t, env, h, mia.ID)
		if got.ID != mia.ID || got.Username != "mia" || !slices.Equal(got.Roles, []string{auth.RoleOperator}) || got.LastLoginAt != nil {
			t.Fatalf("mia = %+v", got)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/users/"+carl.ID.String(), nil, h), 404, msgUserNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/users/"+uuid.NewString(), nil, h), 404, msgUserNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/users/abc", nil, h), 400, msgUUIDExpected)

		// user:view: viewers and keys holding it may read; operators may not.
		requireStatus(t, env.Do("GET", "/api/users/"+mia.ID.String(), nil, session(env, "zoe", acme.TenantID)), 200, "viewer reads a user")
		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermUserView)
		if us, _ := list(t, apptest.Key(key), ""); len(us) != 4 {
			t.Fatalf("key list = %v", names(us))
		}
		operator := session(env, "mia", acme.TenantID)
		apptest.ExpectError(t, env.Do("GET", "/api/users", nil, operator), 403, "Required permissions: user:view")
		apptest.ExpectError(t, env.Do("GET", "/api/users/"+zoe.ID.String(), nil, operator), 403, "Required permissions: user:view")
	})
}

func TestUpdateUser(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		root := session(env, acme.Email, acme.TenantID)
		ana := env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		adam := env.CreateUser(acme.TenantID, "adam", auth.RoleAdmin)
		olga := env.CreateUser(acme.TenantID, "olga", auth.RoleOperator)
		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		carl := env.CreateUser(beta.TenantID, "carl", auth.RoleViewer)
		anaH := session(env, "ana", acme.TenantID)
		patch := func(h apptest.Headers, id uuid.UUID, body any) *apptest.Response {
			return env.Do("PATCH", "/api/users/"+id.String(), body, h)
		}

		// Self: names and email.
		me := decodeUser(t, patch(anaH, ana.ID, map[string]any{"first_name": "Ana", "last_name": "López", "email": "ana.lopez@example.test"}),
			200, "edit self")
		if me.ID != ana.ID || me.FirstName != "Ana" || me.LastName != "López" || me.Email != "ana.lopez@example.test" ||
			me.Username != "ana" || !me.IsActive || !slices.Equal(me.Roles, []string{auth.RoleAdmin}) {
			t.Fatalf("ana = %+v", me)
		}
		env.Login("ana.lopez@example.test") // the new email logs in
		apptest.ExpectError(t, patch(anaH, ana.ID, map[string]any{"is_active": false}), 403, msgDeactivateSelf)
		decodeUser(t, patch(anaH, ana.ID, map[string]any{"is_active": true}), 200, "self is_active true")
		// An empty body changes nothing.
		if same := decodeUser(t, patch(anaH, ana.ID, map[string]any{}), 200, "empty patch"); same.FirstName != "Ana" || same.Email != "ana.lopez@example.test" {
			t.Fatalf("empty patch changed ana: %+v", same)
		}

		// Others: a strictly lower role.
		o := decodeUser(t, patch(anaH, olga.ID, map[string]any{"first_name": "Olga", "last_name": "N", "email": "OLGA.N@example.test"}),
			200, "admin edits operator")
		if o.ID != olga.ID || o.FirstName != "Olga" || o.LastName != "N" || o.Email != "OLGA.N@example.test" ||
			!slices.Equal(o.Roles, []string{auth.RoleOperator}) {
			t.Fatalf("olga = %+v", o)
		}
		if got := getUser(t, env, root, olga.ID); got.FirstName != "Olga" || got.Email != "OLGA.N@example.test" {
			t.Fatalf("olga read back = %+v", got)
		}
		decodeUser(t, patch(root, ana.ID, map[string]any{"last_name": "Set by root"}), 200, "super_admin edits admin")

		cases := []struct {
			name   string
			h      apptest.Headers
			id     string
			body   any
			status int
			msg    any
		}{
			{"admin edits the super_admin", anaH, acme.UserID.String(), map[string]any{"first_name": "X"}, 403, msgUserEqualOrHi},
			{"admin edits another admin", anaH, adam.ID.String(), map[string]any{"first_name": "X"}, 403, msgUserEqualOrHi},
			{"admin deactivates another admin", anaH, adam.ID.String(), map[string]any{"is_active": false}, 403, msgUserEqualOrHi},
			{"taken email, other case", anaH, olga.ID.String(), map[string]any{"email": strings.ToUpper(acme.Email)}, 409,
				`A user with email "` + strings.ToUpper(acme.Email) + `" already exists`},
			{"email of another tenant's user", anaH, olga.ID.String(), map[string]any{"email": "carl@example.test"}, 409,
				`A user with email "carl@example.test" already exists`},
			{"invalid email", anaH, olga.ID.String(), map[string]any{"email": "not-an-email"}, 400, []string{msgEmailInvalid}},
			{"empty email", anaH, olga.ID.String(), map[string]any{"email": ""}, 400, []string{msgEmailInvalid}},
			{"is_active not a boolean", anaH, olga.ID.String(), map[string]any{"is_active": "no"}, 400,
				[]string{"is_active must be a boolean value"}},
			{"username is not editable", anaH, olga.ID.String(), map[string]any{"username": "x"}, 400,
				[]string{"property username should not exist"}},
			{"roles are not edited here", anaH, olga.ID.String(), map[string]any{"roles": []string{"viewer"}}, 400,
				[]string{"property roles should not exist"}},
			{"user of another tenant", anaH, carl.ID.String(), map[string]any{"first_name": "X"}, 404, msgUserNotFound},
			{"unknown user", anaH, uuid.NewString(), map[string]any{"first_name": "X"}, 404, msgUserNotFound},
			{"id not a uuid", anaH, "abc", map[string]any{"first_name": "X"}, 400, msgUUIDExpected},
			{"viewer", session(env, "vic", acme.TenantID), olga.ID.String(), map[string]any{"first_name": "X"}, 403, msgNeedUserUpdate},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PATCH", "/api/users/"+c.id, c.body, c.h), c.status, c.msg)
			})
		}
		if got := getUser(t, env, root, olga.ID); got.FirstName != "Olga" || got.Email != "OLGA.N@example.test" || !got.IsActive {
			t.Fatalf("olga after refused updates = %+v", got)
		}
		if got := getUser(t, env, root, adam.ID); got.FirstName != "" || !got.IsActive {
			t.Fatalf("adam after refused updates = %+v", got)
		}
		if u := env.App.DB.Client.User.GetX(sys, carl.ID); u.FirstName != "" {
			t.Fatalf("carl changed: %+v", u)
		}
	})
}
