package agc

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/reten-io/reten/ent"
)

// Canonical pillar documents hashed into configHashes. Struct fields are
// declared in lexicographic key order, so encoding/json writes the keys
// sorted; the encoding is compact UTF-8 without HTML escaping. Only semantic
// content is included (no ids, timestamps, names, labels, descriptions,
// is_active or updated_by). See rest/openapi/agc.yaml for the documented form.
type (
	canonActivation struct {
		AggregationMethod string        `json:"aggregation_method"`
		DateColumn        string        `json:"date_column"`
		Moments           []canonMoment `json:"moments"`
		SourceColumns     []string      `json:"source_columns"`
		SourceTable       string        `json:"source_table"`
	}
	canonMoment struct {
		MinActions     *int   `json:"min_actions"`
		Priority       int    `json:"priority"`
		StatusCode     string `json:"status_code"`
		TimeWindow     *int   `json:"time_window"`
		StatusConfigID string `json:"user_retention_status_config_id"`
		WindowDays     *int   `json:"window_days"`
	}
	canonEngagement struct {
		CountingMethod               string       `json:"counting_method"`
		DateColumn                   string       `json:"date_column"`
		EngagementWindowDays         int          `json:"engagement_window_days"`
		Levels                       []canonLevel `json:"levels"`
		MinLifetimeActionsForEngaged int          `json:"min_lifetime_actions_for_engaged"`
		SourceColumns                []string     `json:"source_columns"`
		SourceTable                  string       `json:"source_table"`
	}
	canonLevel struct {
		MaxThreshold   *int   `json:"max_threshold"`
		MinThreshold   int    `json:"min_threshold"`
		Order          int    `json:"order"`
		StatusCode     string `json:"status_code"`
		StatusConfigID string `json:"user_retention_status_config_id"`
	}
	canonResurrection struct {
		DateColumn    string           `json:"date_column"`
		SourceColumns []string         `json:"source_columns"`
		SourceTable   string           `json:"source_table"`
		Thresholds    []canonThreshold `json:"thresholds"`
	}
	canonThreshold struct {
		Order          int    `json:"order"`
		StatusCode     string `json:"status_code"`
		ThresholdDays  int    `json:"threshold_days"`
		StatusConfigID string `json:"user_retention_status_config_id"`
	}
)

func canonical(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // plain structs always encode
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func digest(v any) string {
	sum := sha256.Sum256(canonical(v))
	return hex.EncodeToString(sum[:])
}

// sortChildren orders children by key, then by their canonical bytes.
func sortChildren[T any](items []T, key func(T) int) {
	slices.SortStableFunc(items, func(a, b T) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return bytes.Compare(canonical(a), canonical(b))
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Hashes returns the config hashes of an AGC loaded with its pillars and
// children: "activation", "engagement" and "resurrection", each the lowercase
// hex SHA-256 of the pillar's canonical document.
func Hashes(a *ent.ActivityGenerationConfig) map[string]string {
	out := map[string]string{}
	if p := a.Edges.ActivationConfig; p != nil {
		d := canonActivation{AggregationMethod: string(p.AggregationMethod), DateColumn: p.DateColumn,
			Moments: []canonMoment{}, SourceColumns: nonNil(p.SourceColumns), SourceTable: p.SourceTable}
		for _, m := range p.Edges.ActivationMoments {
			d.Moments = append(d.Moments, canonMoment{MinActions: m.MinActions, Priority: m.Priority, StatusCode: m.StatusCode,
				TimeWindow: m.TimeWindow, StatusConfigID: m.UserRetentionStatusConfigID.String(), WindowDays: m.WindowDays})
		}
		sortChildren(d.Moments, func(m canonMoment) int { return m.Priority })
		out["activation"] = digest(d)
	}
	if p := a.Edges.EngagementConfig; p != nil {
		d := canonEngagement{CountingMethod: p.CountingMethod, DateColumn: p.DateColumn,
			EngagementWindowDays: p.EngagementWindowDays, Levels: []canonLevel{},
			MinLifetimeActionsForEngaged: p.MinLifetimeActionsForEngaged, SourceColumns: nonNil(p.SourceColumns),
			SourceTable: p.SourceTable}
		for _, l := range p.Edges.EngagementLevels {
			d.Levels = append(d.Levels, canonLevel{MaxThreshold: l.MaxThreshold, MinThreshold: l.MinThreshold, Order: l.Order,
				StatusCode: l.StatusCode, StatusConfigID: l.UserRetentionStatusConfigID.String()})
		}
		sortChildren(d.Levels, func(l canonLevel) int { return l.Order })
		out["engagement"] = digest(d)
	}
	if p := a.Edges.ResurrectionConfig; p != nil {
		d := canonResurrection{DateColumn: p.DateColumn, SourceColumns: nonNil(p.SourceColumns), SourceTable: p.SourceTable,
			Thresholds: []canonThreshold{}}
		for _, t := range p.Edges.ResurrectionThresholds {
			d.Thresholds = append(d.Thresholds, canonThreshold{Order: t.Order, StatusCode: t.StatusCode,
				ThresholdDays: t.ThresholdDays, StatusConfigID: t.UserRetentionStatusConfigID.String()})
		}
		sortChildren(d.Thresholds, func(t canonThreshold) int { return t.Order })
		out["resurrection"] = digest(d)
	}
	return out
}

// ConfigHashes returns the stored hashes of a, computing them when absent.
func ConfigHashes(a *ent.ActivityGenerationConfig) map[string]string {
	if len(a.ConfigHashes) == 3 {
		return a.ConfigHashes
	}
	return Hashes(a)
}
