package graph

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/uplift"
)

// Messages of the upliftRows arguments.
const (
	MsgUpliftCursor = "after is not a cursor of upliftRows"
	MsgUpliftFirst  = "first must be an integer from 1 to 100"
)

// upliftInput is the report's parameters as the REST query carries them
// (the service checks them all).
func upliftInput(ruleID *uuid.UUID, channel *string, from, to *time.Time, windowDays *int) uplift.Input {
	var in uplift.Input
	if ruleID != nil {
		in.RuleID = ruleID.String()
	}
	in.Channel = deref(channel)
	if from != nil {
		in.From = from.Format(time.RFC3339Nano)
	}
	if to != nil {
		in.To = to.Format(time.RFC3339Nano)
	}
	if windowDays != nil {
		in.WindowDays = strconv.Itoa(*windowDays)
	}
	return in
}

// upliftCSVPath is the REST path of the CSV export of report r's rows.
func upliftCSVPath(r *uplift.Report) string {
	q := url.Values{}
	if r.RuleID != nil {
		q.Set("rule_id", r.RuleID.String())
	}
	if r.Channel != nil {
		q.Set("channel", *r.Channel)
	}
	if r.From != nil {
		q.Set("from", r.From.Format(time.RFC3339Nano))
	}
	if r.To != nil {
		q.Set("to", r.To.Format(time.RFC3339Nano))
	}
	q.Set("window_days", strconv.Itoa(r.WindowDays))
	return "/api/activity-generation-configs/" + r.ActivityGenerationConfigID.String() + "/uplift.csv?" + q.Encode()
}

// upliftFirst is the page size of upliftRows: 25 by default, at most 100.
func upliftFirst(first *int) (int, error) {
	if first == nil {
		return paging.DefaultPerPage, nil
	}
	if *first < 1 || *first > paging.MaxPerPage {
		return 0, apperr.Validation(MsgUpliftFirst)
	}
	return *first, nil
}

// The cursor of an uplift row: its decision's decided_at and id.
func encodeUpliftCursor(r uplift.Row) string {
	return base64.RawURLEncoding.EncodeToString([]byte(r.DecidedAt.UTC().Format(time.RFC3339Nano) + " " + r.DecisionID.String()))
}

func decodeUpliftCursor(after *string) (*uplift.Cursor, error) {
	if after == nil {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(*after)
	at, id, ok := strings.Cut(string(b), " ")
	if err != nil || !ok {
		return nil, apperr.Validation(MsgUpliftCursor)
	}
	t, terr := time.Parse(time.RFC3339Nano, at)
	u, uerr := uuid.Parse(id)
	if terr != nil || uerr != nil {
		return nil, apperr.Validation(MsgUpliftCursor)
	}
	return &uplift.Cursor{DecidedAt: t, ID: u}, nil
}

func upliftConnection(rows []uplift.Row, more bool) *model.UpliftRowPage {
	out := &model.UpliftRowPage{Edges: make([]*model.UpliftRowEdge, len(rows)), HasNextPage: more}
	for i := range rows {
		out.Edges[i] = &model.UpliftRowEdge{Node: &rows[i], Cursor: encodeUpliftCursor(rows[i])}
	}
	if len(rows) > 0 {
		out.EndCursor = &out.Edges[len(rows)-1].Cursor
	}
	return out
}
