package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// assetTypes maps the extensions of servable embedded files to the
// Content-Type they are served with. Files with any other extension (READMEs,
// licenses) are embedded but never served.
var assetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// HTMLContentType is the Content-Type of the pages.
const HTMLContentType = "text/html; charset=utf-8"

// AssetCacheControl is sent with every asset: asset URLs carry a content
// hash, so a cached copy never goes stale.
const AssetCacheControl = "public, max-age=31536000, immutable"

// Asset is one embedded file served under a content-hashed URL.
type Asset struct {
	Body        []byte
	ContentType string
	ETag        string // quoted, as sent in the ETag header
	Version     string // short content hash, used to bust caches in URLs
}

// Assets holds the servable files of one embedded directory, by file name.
type Assets map[string]Asset

// LoadAssets reads the .js and .css files directly under dir of fsys. It
// panics when the directory cannot be read: the files are compiled in.
func LoadAssets(fsys fs.FS, dir string) Assets {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("web: reading embedded %s: %v", dir, err))
	}
	m := make(Assets, len(entries))
	for _, e := range entries {
		ct, ok := assetTypes[path.Ext(e.Name())]
		if e.IsDir() || !ok {
			continue
		}
		body, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			panic(fmt.Sprintf("web: reading embedded %s/%s: %v", dir, e.Name(), err))
		}
		m[e.Name()] = NewAsset(body, ct)
	}
	return m
}

// NewAsset is an asset of the given body and Content-Type.
func NewAsset(body []byte, contentType string) Asset {
	sum := sha256.Sum256(body)
	h := hex.EncodeToString(sum[:])
	return Asset{Body: body, ContentType: contentType, ETag: `"` + h + `"`, Version: h[:12]}
}

// URL is the cache-busting URL of the named asset under prefix (which ends
// in "/"). It panics on a name that is not embedded: pages are rendered at
// start-up, so a typo fails at once.
func (a Assets) URL(prefix, name string) string {
	f, ok := a[name]
	if !ok {
		panic("web: missing embedded asset " + name)
	}
	return prefix + name + "?v=" + f.Version
}

// Serve writes the named asset, or a 404 when there is none.
func (a Assets) Serve(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := a[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Type", f.ContentType)
	hdr.Set("Cache-Control", AssetCacheControl)
	hdr.Set("ETag", f.ETag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.Body))
}

// ServePage writes a rendered page with its Content-Security-Policy.
func ServePage(w http.ResponseWriter, r *http.Request, page []byte, csp string) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Type", HTMLContentType)
	hdr.Set("Content-Security-Policy", csp)
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(page))
}

// AllowRead answers 405 to methods other than GET and HEAD and reports
// whether the request may go on.
func AllowRead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
	return false
}

// CSP joins Content-Security-Policy directives.
func CSP(directives ...string) string { return strings.Join(directives, "; ") }
