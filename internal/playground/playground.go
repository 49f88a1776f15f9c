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
// and mounts GraphiQL. To upgrade, install the packages with npm in a
// scratch directory (never at the repository root), copy the four files over
// and run the tests.
package playground

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
)

// DefaultEndpoint is the GraphQL endpoint used when Handler is given "".
const DefaultEndpoint = "/graphql"

// defaultHeaders prefills GraphiQL's header editor. It is a JSON template the
// user fills in; GraphiQL sends its contents as HTTP headers.
const defaultHeaders = `{
  "Authorization": "Bearer <access token>",
  "x-tenant-id": "<tenant uuid>",
  "x-project-id": ""
}`

const defaultQuery = `# Set the Authorization and x-tenant-id headers in the Headers tab
# below, then run the query. Fill x-project-id for project-scoped fields
# (an empty value counts as not sent).
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

var pageTemplate = template.Must(template.ParseFS(files, "index.html"))

// contentTypes maps the extensions of the embedded assets to the
// Content-Type they are served with. An embedded file with any other
// extension is not served.
var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

const (
	htmlContentType   = "text/html; charset=utf-8"
	assetCacheControl = "public, max-age=31536000, immutable"
)

type asset struct {
	body        []byte
	contentType string
	etag        string // quoted, as sent in the ETag header
	version     string // short content hash, used to bust caches in URLs
}

// assets holds every servable file under assets/, keyed by file name.
var assets = loadAssets()

func loadAssets() map[string]asset {
	entries, err := fs.ReadDir(files, "assets")
	if err != nil {
		panic(fmt.Sprintf("playground: reading embedded assets: %v", err))
	}
	m := make(map[string]asset, len(entries))
	for _, e := range entries {
		ct, ok := contentTypes[path.Ext(e.Name())]
		if e.IsDir() || !ok {
			continue
		}
		body, err := files.ReadFile("assets/" + e.Name())
		if err != nil {
			panic(fmt.Sprintf("playground: reading embedded asset %s: %v", e.Name(), err))
		}
		sum := sha256.Sum256(body)
		h := hex.EncodeToString(sum[:])
		m[e.Name()] = asset{
			body:        body,
			contentType: ct,
			etag:        `"` + h + `"`,
			version:     h[:12],
		}
	}
	return m
}

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
	DefaultQuery   string `json:"defaultQuery"`
	DefaultHeaders string `json:"defaultHeaders"`
}

type handler struct {
	mountPath string // "" or "/x/y", no trailing slash
	page      []byte
	csp       string
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
	mountPath = strings.Trim(mountPath, "/")
	if mountPath != "" {
		mountPath = "/" + mountPath
	}
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}

	var data pageData
	assetURL := func(name string) string {
		a, ok := assets[name]
		if !ok {
			panic("playground: missing embedded asset " + name)
		}
		return mountPath + "/assets/" + name + "?v=" + a.version
	}
	data.Assets.React = assetURL("react.production.min.js")
	data.Assets.ReactDOM = assetURL("react-dom.production.min.js")
	data.Assets.GraphiQLJS = assetURL("graphiql.min.js")
	data.Assets.GraphiQLCSS = assetURL("graphiql.min.css")
	data.Assets.Boot = assetURL("boot.js")
	data.Config = pageConfig{
		Endpoint:       endpoint,
		DefaultQuery:   defaultQuery,
		DefaultHeaders: defaultHeaders,
	}

	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, data); err != nil {
		panic(fmt.Sprintf("playground: rendering index.html: %v", err))
	}

	return &handler{
		mountPath: mountPath,
		page:      buf.Bytes(),
		csp:       contentSecurityPolicy(endpoint),
	}
}

// safeHost matches hosts (with optional port) that can go into a CSP source
// expression verbatim.
var safeHost = regexp.MustCompile(`^[A-Za-z0-9.-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

func contentSecurityPolicy(endpoint string) string {
	connect := "'self'"
	if u, err := url.Parse(endpoint); err == nil && (u.Scheme == "http" || u.Scheme == "https") && safeHost.MatchString(u.Host) {
		connect += " " + u.Scheme + "://" + u.Host
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"connect-src " + connect,
		"img-src 'self' data:",
		"font-src 'self' data:",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'self'",
	}, "; ")
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}

	p := r.URL.Path
	if h.mountPath != "" && (p == h.mountPath || strings.HasPrefix(p, h.mountPath+"/")) {
		p = p[len(h.mountPath):]
	}

	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")

	switch {
	case p == "" || p == "/":
		hdr.Set("Content-Type", htmlContentType)
		hdr.Set("Content-Security-Policy", h.csp)
		hdr.Set("Cache-Control", "no-cache")
		hdr.Set("Referrer-Policy", "no-referrer")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(h.page))
	case strings.HasPrefix(p, "/assets/"):
		a, ok := assets[strings.TrimPrefix(p, "/assets/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		hdr.Set("Content-Type", a.contentType)
		hdr.Set("Cache-Control", assetCacheControl)
		hdr.Set("ETag", a.etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
	default:
		http.NotFound(w, r)
	}
}
