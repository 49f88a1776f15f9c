// Package console serves the embedded insights console (/console; see
// docs/console.md): a page where people look at an activity generation
// config's lifecycle, its engine runs, what its rules decided and the
// uplift against the holdout, as charts.
//
// The console is a client of the public GraphQL API only, signed in through
// POST /api/auth/login like the playground: every number it draws comes
// from a GraphQL query the database aggregates (internal/insights,
// internal/uplift), and the CSV export is built from upliftRows. Its HTML,
// JavaScript and CSS and the vendored charting library are compiled into
// the binary, so it works offline (assets/README.md says where each file
// comes from).
package console

import (
	"embed"
	"net/http"

	"github.com/reten-io/reten/internal/web"
)

// AuthPath is where the sign-in form sends its requests (POST
// AuthPath+"/login", "/refresh" and "/logout").
const AuthPath = "/api/auth"

//go:embed index.html assets
var files embed.FS

// pageData is what index.html is rendered from.
type pageData struct {
	Assets struct{ Chart, Script, Style string }
	// Config is rendered as JSON inside <script type="application/json">.
	Config pageConfig
}

type pageConfig struct {
	Endpoint string `json:"endpoint"`
	AuthPath string `json:"authPath"`
}

// csp: scripts, styles and requests of the page's own origin only; data:
// images (none today) and blob: for the CSV download.
var csp = web.CSP(
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self'",
	"connect-src 'self'",
	"img-src 'self' data: blob:",
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'self'",
)

// Handler returns the console mounted at mountPath, sending its GraphQL
// requests to endpoint (a path of the same origin); see web.Page for the
// routes.
func Handler(mountPath, endpoint string) http.Handler {
	prefix := web.AssetPrefix(mountPath)
	// Every servable file under assets/, read when the handler is made.
	assets := web.LoadAssets(files, "assets")
	var data pageData
	data.Assets.Chart = assets.URL(prefix, "chart.umd.min.js")
	data.Assets.Script = assets.URL(prefix, "console.js")
	data.Assets.Style = assets.URL(prefix, "console.css")
	data.Config = pageConfig{Endpoint: endpoint, AuthPath: AuthPath}
	return web.NewPage(mountPath, web.Render(files, "index.html", data), csp, assets)
}
