// Package web serves the service's front door: the landing page at /, the
// REST reference at /docs (rendered in the browser from the served OpenAPI
// document) and the GraphQL schema as SDL. Every page and asset is compiled
// into the binary; the pages load nothing from another origin.
//
// assets/redoc.standalone.js is vendored from npm, unmodified; its package,
// version and checksum are in assets/README.md (it is served with one
// change, see redocLogo). assets/docs.js is ours.
package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
)

//go:embed landing.html docs.html assets
var files embed.FS

// docsAssets reads the files served under /docs/assets/ (when a handler is
// made, not when the package is initialised).
func docsAssets() Assets { return withoutRemoteLogo(LoadAssets(files, "assets")) }

// redocLogo is the one remote file the Redoc bundle loads: the logo of its
// "API docs by Redocly" footer link. Served, the bundle has an empty src
// there instead (the image's error handler then hides it), so the page
// loads nothing from another origin while the vendored file stays as
// published.
const redocLogo = `src:"https://cdn.redoc.ly/redoc/logo-mini.svg"`

func withoutRemoteLogo(a Assets) Assets {
	const name = "redoc.standalone.js"
	bundle := a[name]
	if n := bytes.Count(bundle.Body, []byte(redocLogo)); n != 1 {
		panic(fmt.Sprintf("web: %s names its logo %d times, want 1: check the bundle after an upgrade", name, n))
	}
	a[name] = NewAsset(bytes.Replace(bundle.Body, []byte(redocLogo), []byte(`src:""`), 1), bundle.ContentType)
	return a
}

// Links are the URLs the landing page points at.
type Links struct {
	Playground, Console, Docs, OpenAPI, SDL, GraphQL string
}

// landingCSP: the landing page runs no script and loads nothing.
var landingCSP = CSP(
	"default-src 'none'",
	"style-src 'unsafe-inline'",
	"img-src data:",
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'",
)

// Landing serves the landing page (mount it at "/" only).
func Landing(links Links) http.Handler {
	return NewPage("", Render(files, "landing.html", links), landingCSP, nil)
}

// docsCSP: Redoc injects its styles at run time (styled-components) and runs
// its search index in a worker it builds from a blob: URL; everything else
// comes from the page's own origin.
var docsCSP = CSP(
	"default-src 'none'",
	"script-src 'self'",
	"worker-src blob:",
	"style-src 'self' 'unsafe-inline'",
	"connect-src 'self'",
	"img-src 'self' data:",
	"font-src 'self' data:",
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'self'",
)

// Docs serves the REST reference for the OpenAPI document at specURL,
// mounted at mountPath (see Page for the routes).
func Docs(mountPath, specURL string) http.Handler {
	prefix := AssetPrefix(mountPath)
	assets := docsAssets()
	page := Render(files, "docs.html", struct{ SpecURL, Redoc, Boot string }{
		SpecURL: specURL,
		Redoc:   assets.URL(prefix, "redoc.standalone.js"),
		Boot:    assets.URL(prefix, "docs.js"),
	})
	return NewPage(mountPath, page, docsCSP, assets)
}

// Render executes the html/template name of fsys with data; a template that
// does not execute is a programming error (it panics at start-up).
func Render(fsys fs.FS, name string, data any) []byte {
	t := template.Must(template.ParseFS(fsys, name))
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		panic(fmt.Sprintf("web: rendering %s: %v", name, err))
	}
	return buf.Bytes()
}

// SDLContentType is the Content-Type of the GraphQL schema document: plain
// text, so that a browser shows it.
const SDLContentType = "text/plain; charset=utf-8"

// SDL serves schema in the GraphQL schema definition language (built-in
// types and directives left out), with its descriptions.
func SDL(schema *ast.Schema) http.Handler {
	sdl := FormatSDL(schema)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !AllowRead(w, r) {
			return
		}
		w.Header().Set("Content-Type", SDLContentType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "schema.graphql", time.Time{}, bytes.NewReader(sdl))
	})
}

// FormatSDL is the text of schema as /graphql/schema.graphql serves it.
func FormatSDL(schema *ast.Schema) []byte {
	var buf bytes.Buffer
	formatter.NewFormatter(&buf, formatter.WithIndent("  ")).FormatSchema(schema)
	return buf.Bytes()
}
