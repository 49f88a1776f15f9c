package rest

import (
	"bufio"
	"log/slog"
	"net/http"

	"github.com/reten-io/reten/internal/uplift"
)

// The uplift of an AGC's generated activities against the holdout
// (docs/outcomes.md), and the per-decision rows behind it as CSV.

// upliftInput reads the report's parameters; the service checks them all.
func upliftInput(r *http.Request) uplift.Input {
	q := r.URL.Query()
	return uplift.Input{RuleID: q.Get("rule_id"), Channel: q.Get("channel"), From: q.Get("from"), To: q.Get("to"),
		WindowDays: q.Get("window_days")}
}

func (a *api) upliftReport(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	return writer(w, http.StatusOK, same[*uplift.Report])(a.Uplift.Report(r.Context(), id, upliftInput(r)))
}

// upliftCSV streams the rows as text/csv once every check has passed (an
// error before the first row is the usual error envelope).
func (a *api) upliftCSV(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	out := &csvResponse{w: w, filename: "uplift-" + id.String() + ".csv"}
	err = a.Uplift.WriteCSV(r.Context(), out, id, upliftInput(r))
	if !out.started {
		return err
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	if err != nil {
		// The headers are gone: the truncated body is all the client gets.
		slog.ErrorContext(r.Context(), "uplift export cut short", "err", err, "path", r.URL.Path)
	}
	return nil
}

// csvResponse writes the CSV headers on the first write.
type csvResponse struct {
	w        http.ResponseWriter
	buf      *bufio.Writer
	filename string
	started  bool
}

func (c *csvResponse) Write(p []byte) (int, error) {
	if !c.started {
		c.started = true
		c.w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		c.w.Header().Set("Content-Disposition", `attachment; filename="`+c.filename+`"`)
		c.w.WriteHeader(http.StatusOK)
		c.buf = bufio.NewWriterSize(c.w, 32<<10)
	}
	return c.buf.Write(p)
}

func (c *csvResponse) flush() error { return c.buf.Flush() }
