// Package playground serves the embedded GraphiQL page: a GraphQL playground
// whose HTML, JavaScript and CSS are all compiled into the binary with
// embed.FS, so it works without any network access beyond the GraphQL
// endpoint itself.
//
// The vendored files in assets/ come from npm, unmodified except that the
// trailing sourceMappingURL comment was removed from graphiql.min.js (the
// source map is not shipped):
//
//	graphiql@3.9.0   graphiql.min.js, graphiql.min.css
//	react@18.3.1     umd/react.production.min.js
//	react-dom@18.3.1 umd/react-dom.production.min.js
//
// assets/boot.js is ours: it reads the JSON config rendered into index.html
// and mounts GraphiQL with a "Sign in" panel (identifier and password, then a
// tenant and a project) that fills the request headers; the schema is
// introspected once the headers carry credentials and again when they
// change (internal/browsertest drives it in Chromium). To upgrade, install the packages with npm in a
// scratch directory (never at the repository root), copy the four files over
// and run the tests.
package playground

import (
	"embed"
	"net/http"
	"net/url"
	"regexp"

	"github.com/reten-io/reten/internal/web"
)

// DefaultEndpoint is the GraphQL endpoint used when Handler is given "".
const DefaultEndpoint = "/graphql"

// AuthPath is where the page's sign-in form sends its requests: POST
// AuthPath+"/login" with {identifier, password} answers {accessToken, user},
// POST AuthPath+"/refresh" renews the token from the refresh cookie and POST
// AuthPath+"/logout" ends the session.
const AuthPath = "/api/auth"

// defaultHeaders prefills GraphiQL's header editor. It is a JSON template the
// sign-in form fills in (or the user by hand); GraphiQL sends its contents as
// HTTP headers. Placeholders count as no credentials: the page introspects
// only once a token or an API key is set.
const defaultHeaders = `{
  "Authorization": "Bearer <access token>",
  "x-tenant-id": "<tenant uuid>",
  "x-project-id": ""
}`

const defaultQuery = `# Sign in (the key icon on the left): it fills
# the headers (Headers tab below). Then run
# the query with the play button.
# An API key goes in an "x-api-key" header.
query {
  viewer {
    user {
      id
      email
    }
  }
}
`

//go:embed index.html assets
var files embed.FS

// pageData is what index.html is rendered from.
type pageData struct {
	Assets struct {
		React, ReactDOM, GraphiQLJS, GraphiQLCSS, Boot string
	}
	// Config is rendered as JSON inside <script type="application/json">;
	// html/template escapes it for that context.
	Config pageConfig
}

type pageConfig struct {
	Endpoint       string `json:"endpoint"`
	AuthPath       string `json:"authPath"`
	DefaultQuery   string `json:"defaultQuery"`
	DefaultHeaders string `json:"defaultHeaders"`
}

// Handler returns the playground for GraphQL requests sent to endpoint
// (DefaultEndpoint if ""), to be served under mountPath, e.g.
//
//	r.Mount("/playground", playground.Handler("/playground", "/graphql")) // chi
//	mux.Handle("/playground/", playground.Handler("/playground", "/graphql"))
//
// mountPath is the URL path prefix the handler is reachable at ("" or "/" for
// the root); the page links to its assets by absolute URLs under it. Requests
// may arrive with the prefix still on the path (chi's Mount, a plain
// ServeMux) or already removed (http.StripPrefix); both work.
//
// Routes, relative to mountPath: "" and "/" serve the page, "/assets/NAME"
// serves an embedded asset, anything else is 404. Methods other than GET and
// HEAD get 405.
//
// The page's Content-Security-Policy allows scripts, styles and fetches from
// the page's own origin only (plus inline styles, which GraphiQL needs, and
// data: fonts and images, which its CSS embeds). If endpoint is an absolute
// http(s) URL, its origin is allowed for fetches too.
func Handler(mountPath, endpoint string) http.Handler {
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	prefix := web.AssetPrefix(mountPath)
	// Every servable file under assets/, read when the handler is made.
	assets := web.LoadAssets(files, "assets")
	var data pageData
	data.Assets.React = assets.URL(prefix, "react.production.min.js")
	data.Assets.ReactDOM = assets.URL(prefix, "react-dom.production.min.js")
	data.Assets.GraphiQLJS = assets.URL(prefix, "graphiql.min.js")
	data.Assets.GraphiQLCSS = assets.URL(prefix, "graphiql.min.css")
	data.Assets.Boot = assets.URL(prefix, "boot.js")
	data.Config = pageConfig{
		Endpoint:       endpoint,
		AuthPath:       AuthPath,
		DefaultQuery:   defaultQuery,
		DefaultHeaders: defaultHeaders,
	}

	return web.NewPage(mountPath, web.Render(files, "index.html", data), contentSecurityPolicy(endpoint), assets)
}

// safeHost matches hosts (with optional port) that can go into a CSP source
// expression verbatim.
var safeHost = regexp.MustCompile(`^[A-Za-z0-9.-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

func contentSecurityPolicy(endpoint string) string {
	connect := "'self'"
	if u, err := url.Parse(endpoint); err == nil && (u.Scheme == "http" || u.Scheme == "https") && safeHost.MatchString(u.Host) {
		connect += " " + u.Scheme + "://" + u.Host
	}
	return web.CSP(
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"connect-src "+connect,
		"img-src 'self' data:",
		"font-src 'self' data:",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'self'",
	)
}
