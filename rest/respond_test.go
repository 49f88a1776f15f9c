package rest

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestWriteJSONWholeBody: an answer is encoded whole before it is written:
// it carries its Content-Length and is not chunked, however long, with the
// status asked for; a value that cannot be encoded answers the 500
// envelope instead of a cut body under that status.
func TestWriteJSONWholeBody(t *testing.T) {
	long := map[string]string{"title": strings.Repeat("visita ", 3000)} // past net/http's 2 kB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bad" {
			writeJSON(w, http.StatusCreated, map[string]any{"score": math.Inf(1)})
			return
		}
		writeJSON(w, http.StatusCreated, long)
	}))
	defer srv.Close()
	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, string(body)
	}
	want, _ := json.Marshal(long)
	for range 2 { // the second answer may take the first one's buffer from the pool
		res, body := get("/")
		if res.StatusCode != http.StatusCreated || body != string(want)+"\n" {
			t.Fatalf("%d %.80s, want 201 and the value", res.StatusCode, body)
		}
		if res.ContentLength != int64(len(body)) || len(res.TransferEncoding) != 0 {
			t.Fatalf("Content-Length %d, Transfer-Encoding %v; want %d and none", res.ContentLength, res.TransferEncoding, len(body))
		}
		if got := res.Header.Get("Content-Type"); got != "application/json; charset=utf-8" {
			t.Fatalf("Content-Type %q", got)
		}
	}
	res, body := get("/bad")
	const envelope = `{"statusCode":500,"error":"Internal Server Error","message":"Internal server error"}` + "\n"
	if res.StatusCode != http.StatusInternalServerError || body != envelope || res.Header.Get("Content-Length") != strconv.Itoa(len(envelope)) {
		t.Fatalf("unencodable: %d %q (Content-Length %s), want 500 %q", res.StatusCode, body, res.Header.Get("Content-Length"), envelope)
	}
}
