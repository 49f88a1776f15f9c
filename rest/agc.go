package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/agc"
)

// agcHandlers maps the REST lines of tenancy.agcMatrix to their handlers.
func (a *api) agcHandlers() map[string]handler {
	return map[string]handler{
		"GET /activity-generation-configs":                a.listAGCs,
		"POST /activity-generation-configs":               a.createAGC,
		"GET /activity-generation-configs/{id}":           a.getAGC,
		"PATCH /activity-generation-configs/{id}":         a.updateAGC,
		"DELETE /activity-generation-configs/{id}":        a.deleteAGC,
		"PUT /activity-generation-configs/{id}/lifecycle": a.replaceLifecycle,
		"POST /activity-generation-configs/{id}/publish":  a.publishAGC,
		"POST /activity-generation-configs/{id}/pause":    a.pauseAGC,
		"GET /activation-configs":                         a.listActivationConfigs,
		"GET /activation-configs/{id}":                    a.getActivationConfig,
		"GET /engagement-configs":                         a.listEngagementConfigs,
		"GET /engagement-configs/{id}":                    a.getEngagementConfig,
		"GET /resurrection-configs":                       a.listResurrectionConfigs,
		"GET /resurrection-configs/{id}":                  a.getResurrectionConfig,
		"GET /lifecycle-defaults":                         a.lifecycleDefaults,
	}
}

// ---- presentation (SPEC.md "Activity generation config (AGC)") ----

type agcDTO struct {
	ID                 uuid.UUID        `json:"id"`
	ProjectID          uuid.UUID        `json:"projectId"`
	Name               string           `json:"name"`
	Description        string           `json:"description"`
	AudienceID         *uuid.UUID       `json:"audienceId"`
	Status             string           `json:"status"`
	UpdatedBy          *uuid.UUID       `json:"updatedBy"`
	CreatedAt          time.Time        `json:"createdAt"`
	UpdatedAt          time.Time        `json:"updatedAt"`
	ActivationConfig   *activationDTO   `json:"activationConfig"`
	EngagementConfig   *engagementDTO   `json:"engagementConfig"`
	ResurrectionConfig *resurrectionDTO `json:"resurrectionConfig"`
}

// agcDetailDTO is the GET /:id and POST shape: agcDTO plus the effective
// audience and the config hashes.
type agcDetailDTO struct {
	agcDTO
	EffectiveAudienceID *uuid.UUID        `json:"effectiveAudienceId"`
	ConfigHashes        map[string]string `json:"configHashes"`
}

// agcListItemDTO is an item of GET /activity-generation-configs.
type agcListItemDTO struct {
	ID                  uuid.UUID         `json:"id"`
	Name                string            `json:"name"`
	Description         string            `json:"description"`
	Status              string            `json:"status"`
	AudienceID          *uuid.UUID        `json:"audienceId"`
	EffectiveAudienceID *uuid.UUID        `json:"effectiveAudienceId"`
	ConfigHashes        map[string]string `json:"configHashes"`
	CreatedAt           time.Time         `json:"createdAt"`
	UpdatedAt           time.Time         `json:"updatedAt"`
}

type activationDTO struct {
	ID                         uuid.UUID   `json:"id"`
	Name                       string      `json:"name"`
	Description                *string     `json:"description"`
	SourceTable                string      `json:"sourceTable"`
	SourceColumns              []string    `json:"sourceColumns"`
	DateColumn                 string      `json:"dateColumn"`
	ActivityGenerationConfigID uuid.UUID   `json:"activityGenerationConfigId"`
	AggregationMethod          string      `json:"aggregationMethod"`
	IsActive                   bool        `json:"isActive"`
	UpdatedBy                  *uuid.UUID  `json:"updatedBy"`
	CreatedAt                  time.Time   `json:"createdAt"`
	UpdatedAt                  time.Time   `json:"updatedAt"`
	ActivationMoments          []momentDTO `json:"activationMoments"`
}

type momentDTO struct {
	ID                          uuid.UUID `json:"id"`
	ActivationConfigID          uuid.UUID `json:"activationConfigId"`
	StatusCode                  string    `json:"statusCode"`
	UserRetentionStatusConfigID uuid.UUID `json:"userRetentionStatusConfigId"`
	MinActions                  *int      `json:"minActions"`
	WindowDays                  *int      `json:"windowDays"`
	TimeWindow                  *int      `json:"timeWindow"`
	Priority                    int       `json:"priority"`
	IsActive                    bool      `json:"isActive"`
	CreatedAt                   time.Time `json:"createdAt"`
	UpdatedAt                   time.Time `json:"updatedAt"`
}

type engagementDTO struct {
	ID                           uuid.UUID  `json:"id"`
	Name                         string     `json:"name"`
	Description                  *string    `json:"description"`
	SourceTable                  string     `json:"sourceTable"`
	SourceColumns                []string   `json:"sourceColumns"`
	DateColumn                   string     `json:"dateColumn"`
	ActivityGenerationConfigID   uuid.UUID  `json:"activityGenerationConfigId"`
	EngagementWindowDays         int        `json:"engagementWindowDays"`
	MinLifetimeActionsForEngaged int        `json:"minLifetimeActionsForEngaged"`
	CountingMethod               string     `json:"countingMethod"`
	IsActive                     bool       `json:"isActive"`
	UpdatedBy                    *uuid.UUID `json:"updatedBy"`
	CreatedAt                    time.Time  `json:"createdAt"`
	UpdatedAt                    time.Time  `json:"updatedAt"`
	EngagementLevels             []levelDTO `json:"engagementLevels"`
}

type levelDTO struct {
	ID                          uuid.UUID `json:"id"`
	EngagementConfigID          uuid.UUID `json:"engagementConfigId"`
	StatusCode                  string    `json:"statusCode"`
	UserRetentionStatusConfigID uuid.UUID `json:"userRetentionStatusConfigId"`
	Label                       string    `json:"label"`
	MinThreshold                int       `json:"minThreshold"`
	MaxThreshold                *int      `json:"maxThreshold"`
	Order                       int       `json:"order"`
	IsActive                    bool      `json:"isActive"`
	CreatedAt                   time.Time `json:"createdAt"`
	UpdatedAt                   time.Time `json:"updatedAt"`
}

type resurrectionDTO struct {
	ID                         uuid.UUID      `json:"id"`
	Name                       string         `json:"name"`
	Description                *string        `json:"description"`
	SourceTable                string         `json:"sourceTable"`
	SourceColumns              []string       `json:"sourceColumns"`
	DateColumn                 string         `json:"dateColumn"`
	ActivityGenerationConfigID uuid.UUID      `json:"activityGenerationConfigId"`
	IsActive                   bool           `json:"isActive"`
	UpdatedBy                  *uuid.UUID     `json:"updatedBy"`
	CreatedAt                  time.Time      `json:"createdAt"`
	UpdatedAt                  time.Time      `json:"updatedAt"`
	ResurrectionThresholds     []thresholdDTO `json:"resurrectionThresholds"`
}

type thresholdDTO struct {
	ID                          uuid.UUID `json:"id"`
	ResurrectionConfigID        uuid.UUID `json:"resurrectionConfigId"`
	StatusCode                  string    `json:"statusCode"`
	UserRetentionStatusConfigID uuid.UUID `json:"userRetentionStatusConfigId"`
	Label                       string    `json:"label"`
	ThresholdDays               int       `json:"thresholdDays"`
	Order                       int       `json:"order"`
	IsActive                    bool      `json:"isActive"`
	CreatedAt                   time.Time `json:"createdAt"`
	UpdatedAt                   time.Time `json:"updatedAt"`
}

func presentActivation(c *ent.ActivationConfig) *activationDTO {
	if c == nil {
		return nil
	}
	out := &activationDTO{ID: c.ID, Name: c.Name, Description: c.Description, SourceTable: c.SourceTable,
		SourceColumns: c.SourceColumns, DateColumn: c.DateColumn, ActivityGenerationConfigID: c.ActivityGenerationConfigID,
		AggregationMethod: string(c.AggregationMethod), IsActive: c.IsActive, UpdatedBy: c.UpdatedBy,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, ActivationMoments: []momentDTO{}}
	for _, m := range c.Edges.ActivationMoments {
		out.ActivationMoments = append(out.ActivationMoments, momentDTO{ID: m.ID, ActivationConfigID: m.ActivationConfigID,
			StatusCode: m.StatusCode, UserRetentionStatusConfigID: m.UserRetentionStatusConfigID, MinActions: m.MinActions,
			WindowDays: m.WindowDays, TimeWindow: m.TimeWindow, Priority: m.Priority, IsActive: m.IsActive,
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt})
	}
	return out
}

func presentEngagement(c *ent.EngagementConfig) *engagementDTO {
	if c == nil {
		return nil
	}
	out := &engagementDTO{ID: c.ID, Name: c.Name, Description: c.Description, SourceTable: c.SourceTable,
		SourceColumns: c.SourceColumns, DateColumn: c.DateColumn, ActivityGenerationConfigID: c.ActivityGenerationConfigID,
		EngagementWindowDays: c.EngagementWindowDays, MinLifetimeActionsForEngaged: c.MinLifetimeActionsForEngaged,
		CountingMethod: c.CountingMethod, IsActive: c.IsActive, UpdatedBy: c.UpdatedBy,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, EngagementLevels: []levelDTO{}}
	for _, l := range c.Edges.EngagementLevels {
		out.EngagementLevels = append(out.EngagementLevels, levelDTO{ID: l.ID, EngagementConfigID: l.EngagementConfigID,
			StatusCode: l.StatusCode, UserRetentionStatusConfigID: l.UserRetentionStatusConfigID, Label: l.Label,
			MinThreshold: l.MinThreshold, MaxThreshold: l.MaxThreshold, Order: l.Order, IsActive: l.IsActive,
			CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt})
	}
	return out
}

func presentResurrection(c *ent.ResurrectionConfig) *resurrectionDTO {
	if c == nil {
		return nil
	}
	out := &resurrectionDTO{ID: c.ID, Name: c.Name, Description: c.Description, SourceTable: c.SourceTable,
		SourceColumns: c.SourceColumns, DateColumn: c.DateColumn, ActivityGenerationConfigID: c.ActivityGenerationConfigID,
		IsActive: c.IsActive, UpdatedBy: c.UpdatedBy, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		ResurrectionThresholds: []thresholdDTO{}}
	for _, t := range c.Edges.ResurrectionThresholds {
		out.ResurrectionThresholds = append(out.ResurrectionThresholds, thresholdDTO{ID: t.ID,
			ResurrectionConfigID: t.ResurrectionConfigID, StatusCode: t.StatusCode,
			UserRetentionStatusConfigID: t.UserRetentionStatusConfigID, Label: t.Label, ThresholdDays: t.ThresholdDays,
			Order: t.Order, IsActive: t.IsActive, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt})
	}
	return out
}

func presentAGC(g *agc.AGC) agcDTO {
	a := g.ActivityGenerationConfig
	return agcDTO{ID: a.ID, ProjectID: a.ProjectID, Name: a.Name, Description: a.Description, AudienceID: a.AudienceID,
		Status: string(a.Status), UpdatedBy: a.UpdatedBy, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt,
		ActivationConfig: presentActivation(a.Edges.ActivationConfig), EngagementConfig: presentEngagement(a.Edges.EngagementConfig),
		ResurrectionConfig: presentResurrection(a.Edges.ResurrectionConfig)}
}

func presentAGCDetail(g *agc.AGC) agcDetailDTO {
	return agcDetailDTO{agcDTO: presentAGC(g), EffectiveAudienceID: g.EffectiveAudienceID,
		ConfigHashes: agc.ConfigHashes(g.ActivityGenerationConfig)}
}

func presentAGCListItem(g *agc.AGC) agcListItemDTO {
	a := g.ActivityGenerationConfig
	return agcListItemDTO{ID: a.ID, Name: a.Name, Description: a.Description, Status: string(a.Status),
		AudienceID: a.AudienceID, EffectiveAudienceID: g.EffectiveAudienceID, ConfigHashes: agc.ConfigHashes(a),
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// ---- nested body decoding ----

// jobj is a JSON object at path inside a request body; type errors are
// collected in msgs with the member's full path ("activation.moments.0.priority").
type jobj struct {
	fields map[string]json.RawMessage
	path   string
	msgs   *[]string
}

func (o *jobj) name(n string) string {
	if o.path == "" {
		return n
	}
	return o.path + "." + n
}

func (o *jobj) fail(format string, args ...any) {
	*o.msgs = append(*o.msgs, fmt.Sprintf(format, args...))
}

// child decodes the member raw at path as an object whose members must be in
// allowed ("<path>.property <name> should not exist" otherwise).
func (o *jobj) child(raw json.RawMessage, path string, allowed []string) (*jobj, bool) {
	c := &jobj{fields: map[string]json.RawMessage{}, path: path, msgs: o.msgs}
	if err := json.Unmarshal(raw, &c.fields); err != nil || c.fields == nil {
		o.fail("%s must be an object", path)
		return nil, false
	}
	for _, n := range slices.Sorted(maps.Keys(c.fields)) {
		if !slices.Contains(allowed, n) {
			o.fail("%s.property %s should not exist", path, n)
		}
	}
	return c, true
}

func (o *jobj) raw(n string) (json.RawMessage, bool) {
	r, ok := o.fields[n]
	if !ok || string(r) == "null" {
		return nil, false
	}
	return r, true
}

func (o *jobj) str(n string) *string {
	r, ok := o.raw(n)
	if !ok {
		return nil
	}
	var v string
	if json.Unmarshal(r, &v) != nil {
		o.fail("%s must be a string", o.name(n))
		return nil
	}
	return &v
}

func (o *jobj) reqStr(n string) string {
	if v := o.str(n); v != nil {
		return *v
	}
	return ""
}

// strs reads a string array; null is an empty array.
func (o *jobj) strs(n string) *[]string {
	if !o.has(n) {
		return nil
	}
	v := []string{}
	if r, ok := o.raw(n); ok && json.Unmarshal(r, &v) != nil {
		o.fail("%s must be an array of strings", o.name(n))
		return nil
	}
	if v == nil {
		v = []string{}
	}
	return &v
}

func (o *jobj) has(n string) bool { _, ok := o.fields[n]; return ok }

func (o *jobj) integer(n string) *int {
	r, ok := o.raw(n)
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.UseNumber()
	var num json.Number
	if dec.Decode(&num) != nil {
		o.fail("%s must be an integer number", o.name(n))
		return nil
	}
	i, err := num.Int64()
	if err != nil || i > 1<<31-1 || i < -(1<<31) {
		o.fail("%s must be an integer number", o.name(n))
		return nil
	}
	v := int(i)
	return &v
}

func (o *jobj) reqInt(n string) int {
	if !o.has(n) || string(o.fields[n]) == "null" {
		o.fail("%s must be an integer number", o.name(n))
		return 0
	}
	if v := o.integer(n); v != nil {
		return *v
	}
	return 0
}

func (o *jobj) uuidField(n string) *uuid.UUID {
	s := o.str(n)
	if s == nil {
		return nil
	}
	id, err := uuid.Parse(*s)
	if err != nil {
		o.fail("%s must be a UUID", o.name(n))
		return nil
	}
	return &id
}

func (o *jobj) reqUUID(n string) uuid.UUID {
	if id := o.uuidField(n); id != nil {
		return *id
	}
	return uuid.Nil
}

// items reads an array of objects; nil when missing or null.
func (o *jobj) items(n string, allowed []string) *[]*jobj {
	r, ok := o.raw(n)
	if !ok {
		return nil
	}
	var raws []json.RawMessage
	if json.Unmarshal(r, &raws) != nil {
		o.fail("%s must be an array", o.name(n))
		return nil
	}
	out := []*jobj{}
	for i, raw := range raws {
		if c, ok := o.child(raw, fmt.Sprintf("%s.%d", o.name(n), i), allowed); ok {
			out = append(out, c)
		}
	}
	return &out
}

var (
	pillarCommon       = []string{"name", "description", "source_table", "source_columns", "date_column"}
	activationFields   = append(slices.Clone(pillarCommon), "aggregation_method", "moments")
	engagementFields   = append(slices.Clone(pillarCommon), "engagement_window_days", "min_lifetime_actions_for_engaged", "counting_method", "levels")
	resurrectionFields = append(slices.Clone(pillarCommon), "thresholds")
	momentFields       = []string{"status_code", "user_retention_status_config_id", "min_actions", "window_days", "time_window", "priority"}
	levelFields        = []string{"status_code", "user_retention_status_config_id", "label", "min_threshold", "max_threshold", "order"}
	thresholdFields    = []string{"status_code", "user_retention_status_config_id", "label", "threshold_days", "order"}
)

// withID adds "id" to the allowed child members (lifecycle edits).
func withID(fields []string, ok bool) []string {
	if ok {
		return append(slices.Clone(fields), "id")
	}
	return fields
}

func pillarFields(o *jobj) agc.PillarFields {
	return agc.PillarFields{Name: o.str("name"), Description: o.str("description"), SourceTable: o.str("source_table"),
		SourceColumns: o.strs("source_columns"), DateColumn: o.str("date_column")}
}

// decodeActivation reads an activation pillar body; ids says whether children may carry ids.
func decodeActivation(parent *jobj, ids bool) *agc.ActivationInput {
	r, ok := parent.raw("activation")
	if !ok {
		return nil
	}
	o, ok := parent.child(r, "activation", activationFields)
	if !ok {
		return nil
	}
	in := &agc.ActivationInput{PillarFields: pillarFields(o), AggregationMethod: o.str("aggregation_method")}
	if items := o.items("moments", withID(momentFields, ids)); items != nil {
		ms := []agc.MomentInput{}
		for _, c := range *items {
			ms = append(ms, agc.MomentInput{ID: c.uuidField("id"), StatusCode: c.reqStr("status_code"),
				UserRetentionStatusConfigID: c.reqUUID("user_retention_status_config_id"), MinActions: c.integer("min_actions"),
				WindowDays: c.integer("window_days"), TimeWindow: c.integer("time_window"), Priority: c.reqInt("priority")})
		}
		in.Moments = &ms
	}
	return in
}

func decodeEngagement(parent *jobj, ids bool) *agc.EngagementInput {
	r, ok := parent.raw("engagement")
	if !ok {
		return nil
	}
	o, ok := parent.child(r, "engagement", engagementFields)
	if !ok {
		return nil
	}
	in := &agc.EngagementInput{PillarFields: pillarFields(o), EngagementWindowDays: o.integer("engagement_window_days"),
		MinLifetimeActionsForEngaged: o.integer("min_lifetime_actions_for_engaged"), CountingMethod: o.str("counting_method")}
	if items := o.items("levels", withID(levelFields, ids)); items != nil {
		ls := []agc.LevelInput{}
		for _, c := range *items {
			ls = append(ls, agc.LevelInput{ID: c.uuidField("id"), StatusCode: c.reqStr("status_code"),
				UserRetentionStatusConfigID: c.reqUUID("user_retention_status_config_id"), Label: c.reqStr("label"),
				MinThreshold: c.reqInt("min_threshold"), MaxThreshold: c.integer("max_threshold"), Order: c.reqInt("order")})
		}
		in.Levels = &ls
	}
	return in
}

func decodeResurrection(parent *jobj, ids bool) *agc.ResurrectionInput {
	r, ok := parent.raw("resurrection")
	if !ok {
		return nil
	}
	o, ok := parent.child(r, "resurrection", resurrectionFields)
	if !ok {
		return nil
	}
	in := &agc.ResurrectionInput{PillarFields: pillarFields(o)}
	if items := o.items("thresholds", withID(thresholdFields, ids)); items != nil {
		ts := []agc.ThresholdInput{}
		for _, c := range *items {
			ts = append(ts, agc.ThresholdInput{ID: c.uuidField("id"), StatusCode: c.reqStr("status_code"),
				UserRetentionStatusConfigID: c.reqUUID("user_retention_status_config_id"), Label: c.reqStr("label"),
				ThresholdDays: c.reqInt("threshold_days"), Order: c.reqInt("order")})
		}
		in.Thresholds = &ts
	}
	return in
}

// topLevel decodes the request body with the allowed members.
func topLevel(r *http.Request, allowed ...string) (*jobj, *body, error) {
	b, err := decodeBody(r, allowed...)
	if err != nil {
		return nil, nil, err
	}
	return &jobj{fields: b.fields, msgs: &b.msgs}, b, nil
}

// ---- handlers ----

func (a *api) listAGCs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.AGCs.List(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentAGCListItem))
	return nil
}

func (a *api) getAGC(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	g, err := a.AGCs.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAGCDetail(g))
	return nil
}

func (a *api) createAGC(w http.ResponseWriter, r *http.Request) error {
	o, b, err := topLevel(r, "name", "description", "audience_id", "activation", "engagement", "resurrection")
	if err != nil {
		return err
	}
	in := agc.CreateInput{Name: o.reqStr("name"), Description: o.str("description"), AudienceID: o.uuidField("audience_id"),
		Activation: decodeActivation(o, false), Engagement: decodeEngagement(o, false), Resurrection: decodeResurrection(o, false)}
	if err := b.err(); err != nil {
		return err
	}
	g, err := a.AGCs.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentAGCDetail(g))
	return nil
}

func (a *api) updateAGC(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	o, b, err := topLevel(r, "name", "description", "audience_id")
	if err != nil {
		return err
	}
	in := agc.UpdateInput{Name: o.str("name"), Description: o.str("description"), AudienceID: o.uuidField("audience_id")}
	if o.has("name") && string(o.fields["name"]) == "null" {
		empty := "" // a null name is an empty one: the service answers "cannot be empty"
		in.Name = &empty
	}
	in.ClearAudience = o.has("audience_id") && string(o.fields["audience_id"]) == "null"
	if err := b.err(); err != nil {
		return err
	}
	g, err := a.AGCs.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAGC(g))
	return nil
}

func (a *api) replaceLifecycle(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	o, b, err := topLevel(r, "activation", "engagement", "resurrection")
	if err != nil {
		return err
	}
	in := agc.LifecycleInput{Activation: decodeActivation(o, true), Engagement: decodeEngagement(o, true),
		Resurrection: decodeResurrection(o, true)}
	if err := b.err(); err != nil {
		return err
	}
	if err := a.AGCs.ReplaceLifecycle(r.Context(), id, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

func (a *api) publishAGC(w http.ResponseWriter, r *http.Request) error {
	return a.agcTransition(w, r, a.AGCs.Publish)
}

func (a *api) pauseAGC(w http.ResponseWriter, r *http.Request) error {
	return a.agcTransition(w, r, a.AGCs.Pause)
}

func (a *api) agcTransition(w http.ResponseWriter, r *http.Request, move func(ctx context.Context, id uuid.UUID) (*agc.AGC, error)) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	g, err := move(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAGCDetail(g))
	return nil
}

func (a *api) deleteAGC(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.AGCs.Delete(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) listActivationConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.AGCs.ListActivations(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentActivation))
	return nil
}

func (a *api) getActivationConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.AGCs.GetActivation(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentActivation(c))
	return nil
}

func (a *api) listEngagementConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.AGCs.ListEngagements(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentEngagement))
	return nil
}

func (a *api) getEngagementConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.AGCs.GetEngagement(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentEngagement(c))
	return nil
}

func (a *api) listResurrectionConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.AGCs.ListResurrections(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentResurrection))
	return nil
}

func (a *api) getResurrectionConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.AGCs.GetResurrection(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentResurrection(c))
	return nil
}

func (a *api) lifecycleDefaults(w http.ResponseWriter, r *http.Request) error {
	d, err := a.AGCs.LifecycleDefaults(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}
