package web

import (
	"net/http"
	"strings"
)

// Page serves one rendered HTML page at its mount path and its embedded
// assets under <mount path>/assets/NAME.
//
// Requests may arrive with the mount path still on the URL (chi's Mount, a
// plain ServeMux) or already removed (http.StripPrefix); both work. Routes,
// relative to the mount path: "" and "/" serve the page, "/assets/NAME" an
// asset, anything else is 404. Methods other than GET and HEAD get 405.
type Page struct {
	mountPath string // "" or "/x/y", no trailing slash
	html      []byte
	csp       string
	assets    Assets
}

// NewPage returns the page html (served with the Content-Security-Policy
// csp) mounted at mountPath, with assets.
func NewPage(mountPath string, html []byte, csp string, assets Assets) *Page {
	return &Page{mountPath: MountPath(mountPath), html: html, csp: csp, assets: assets}
}

// MountPath normalises a URL path prefix: "" for the root, else "/x/y"
// without a trailing slash.
func MountPath(p string) string {
	p = strings.Trim(p, "/")
	if p == "" {
		return ""
	}
	return "/" + p
}

// AssetPrefix is the URL prefix of the assets of a page mounted at mountPath.
func AssetPrefix(mountPath string) string { return MountPath(mountPath) + "/assets/" }

func (pg *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !AllowRead(w, r) {
		return
	}
	p := r.URL.Path
	if pg.mountPath != "" && (p == pg.mountPath || strings.HasPrefix(p, pg.mountPath+"/")) {
		p = p[len(pg.mountPath):]
	}
	switch {
	case p == "" || p == "/":
		ServePage(w, r, pg.html, pg.csp)
	case strings.HasPrefix(p, "/assets/"):
		pg.assets.Serve(w, r, strings.TrimPrefix(p, "/assets/"))
	default:
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.NotFound(w, r)
	}
}
