package app

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRecovererAnswersTheErrorEnvelope(t *testing.T) {
	h := recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	want := `{"statusCode":500,"error":"Internal Server Error","message":"Internal server error"}` + "\n"
	if rec.Code != 500 || rec.Body.String() != want {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
}
