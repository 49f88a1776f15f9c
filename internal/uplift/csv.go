package uplift

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// CSVHeader is the header row of the export, one column per Row member:
// decision_id, commerce_id, external_id (empty without one), rule_id,
// channel, group (TREATED, CONTROL), decided_at, window_end (RFC 3339,
// UTC), stage, status_code (at the decision), engaged (true, false, or
// empty when not computed), end_stage, end_status_code (at the end of the
// window), improved, activity_id (empty for CONTROL), result_code (the
// activity's result in the window, else empty), positive_result (empty for
// CONTROL).
var CSVHeader = []string{"decision_id", "commerce_id", "external_id", "rule_id", "channel", "group", "decided_at", "window_end",
	"stage", "status_code", "engaged", "end_stage", "end_status_code", "improved", "activity_id", "result_code", "positive_result"}

// CSVRecord is r as a record of the export, in CSVHeader's order.
func CSVRecord(r Row) []string {
	return []string{r.DecisionID.String(), r.CommerceID.String(), text(r.ExternalID), r.RuleID.String(), r.Channel, r.Group,
		r.DecidedAt.UTC().Format(time.RFC3339Nano), r.WindowEnd.UTC().Format(time.RFC3339Nano), r.Stage, r.StatusCode,
		boolText(r.Engaged), r.EndStage, r.EndStatusCode, strconv.FormatBool(r.Improved), idText(r.ActivityID),
		text(r.ResultCode), boolText(r.PositiveResult)}
}

// WriteCSV writes the rows behind the report of AGC agcID (Rows) to w as
// CSV (RFC 4180, CRLF-free: "\n" line ends), CSVHeader first. Nothing is
// written before every check passed, so an adapter can still answer a 400
// or 404; an error after the first byte (the dataset failing) leaves the
// export truncated.
func (s *Service) WriteCSV(ctx context.Context, w io.Writer, agcID uuid.UUID, in Input) error {
	cw := csv.NewWriter(w)
	started := false
	start := func() error {
		started = true
		return cw.Write(CSVHeader)
	}
	err := s.Rows(ctx, agcID, in, func(r Row) error {
		if !started {
			if err := start(); err != nil {
				return err
			}
		}
		return cw.Write(CSVRecord(r))
	})
	if err != nil {
		cw.Flush()
		return err
	}
	if !started {
		if err := start(); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("uplift: csv: %w", err)
	}
	return nil
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func boolText(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

func idText(id *uuid.UUID) string {
	if id == nil {
		return ""
	}
	return id.String()
}
