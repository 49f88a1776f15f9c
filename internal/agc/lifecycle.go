package agc

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activationmoment"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/engagementlevel"
	"github.com/reten-io/reten/ent/resurrectionthreshold"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/txn"
)

// Message formats of pillar validation (path is e.g. "activation.moments.0").
const (
	MsgStatusRefFmt     = "%s.user_retention_status_config_id must reference an active retention status config with code %q"
	MsgForeignChildFmt  = "%s.id %s does not belong to this %s config"
	MsgDuplicateIDFmt   = "%s.id %s appears more than once"
	msgEmptyFmt         = "%s should not be empty"
	msgAggregationFmt   = "%s.aggregation_method must be one of the following values: nunique, count, sum, active_weeks"
	msgPositiveFmt      = "%s must be a positive number"
	msgNotNegativeFmt   = "%s must not be less than 0"
	msgChildIDCreateFmt = "%s.property id should not exist"
)

// PillarFields are the fields common to the three pillars; nil is "not sent".
type PillarFields struct {
	Name          *string
	Description   *string
	SourceTable   *string
	SourceColumns *[]string
	DateColumn    *string
}

// ActivationInput is an activation pillar body; Moments nil leaves the
// moments untouched (lifecycle edit).
type ActivationInput struct {
	PillarFields
	AggregationMethod *string
	Moments           *[]MomentInput
}

// MomentInput is an activation moment; ID set updates that moment in place.
type MomentInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	MinActions                  *int
	WindowDays                  *int
	TimeWindow                  *int
	Priority                    int
}

// EngagementInput is an engagement pillar body.
type EngagementInput struct {
	PillarFields
	EngagementWindowDays         *int
	MinLifetimeActionsForEngaged *int
	CountingMethod               *string
	Levels                       *[]LevelInput
}

// LevelInput is an engagement level; ID set updates that level in place.
type LevelInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	Label                       string
	MinThreshold                int
	MaxThreshold                *int
	Order                       int
}

// ResurrectionInput is a resurrection pillar body.
type ResurrectionInput struct {
	PillarFields
	Thresholds *[]ThresholdInput
}

// ThresholdInput is a resurrection threshold; ID set updates it in place.
type ThresholdInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	Label                       string
	ThresholdDays               int
	Order                       int
}

// LifecycleInput is the body of PUT /api/activity-generation-configs/:id/lifecycle:
// only the pillars sent are edited.
type LifecycleInput struct {
	Activation   *ActivationInput
	Engagement   *EngagementInput
	Resurrection *ResurrectionInput
}

func blank(s *string) bool { return s != nil && strings.TrimSpace(*s) == "" }

// validate checks the common fields; create requires the mandatory ones.
func (p PillarFields) validate(path string, create bool) []string {
	var msgs []string
	for _, f := range []struct {
		name string
		v    *string
	}{{"name", p.Name}, {"source_table", p.SourceTable}, {"date_column", p.DateColumn}} {
		if blank(f.v) || create && f.v == nil {
			msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+"."+f.name))
		}
	}
	return msgs
}

func childRules(path string, create bool, id *uuid.UUID, code string, status uuid.UUID) []string {
	var msgs []string
	if create && id != nil {
		msgs = append(msgs, fmt.Sprintf(msgChildIDCreateFmt, path))
	}
	if strings.TrimSpace(code) == "" {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".status_code"))
	}
	if status == uuid.Nil {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".user_retention_status_config_id"))
	}
	return msgs
}

func (in *ActivationInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	if in.AggregationMethod == nil && create ||
		in.AggregationMethod != nil && activationconfig.AggregationMethodValidator(activationconfig.AggregationMethod(*in.AggregationMethod)) != nil {
		msgs = append(msgs, fmt.Sprintf(msgAggregationFmt, path))
	}
	if in.Moments == nil && create {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".moments"))
	}
	if in.Moments != nil {
		for i, m := range *in.Moments {
			p := fmt.Sprintf("%s.moments.%d", path, i)
			msgs = append(msgs, childRules(p, create, m.ID, m.StatusCode, m.UserRetentionStatusConfigID)...)
			for _, f := range []struct {
				name string
				v    *int
			}{{"min_actions", m.MinActions}, {"window_days", m.WindowDays}, {"time_window", m.TimeWindow}} {
				if f.v != nil && *f.v < 0 {
					msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, p+"."+f.name))
				}
			}
		}
	}
	return msgs
}

func (in *EngagementInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	if in.EngagementWindowDays == nil && create || in.EngagementWindowDays != nil && *in.EngagementWindowDays <= 0 {
		msgs = append(msgs, fmt.Sprintf(msgPositiveFmt, path+".engagement_window_days"))
	}
	if in.MinLifetimeActionsForEngaged == nil && create || in.MinLifetimeActionsForEngaged != nil && *in.MinLifetimeActionsForEngaged < 0 {
		msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, path+".min_lifetime_actions_for_engaged"))
	}
	if blank(in.CountingMethod) || create && in.CountingMethod == nil {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".counting_method"))
	}
	if in.Levels == nil && create {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".levels"))
	}
	if in.Levels != nil {
		for i, l := range *in.Levels {
			p := fmt.Sprintf("%s.levels.%d", path, i)
			msgs = append(msgs, childRules(p, create, l.ID, l.StatusCode, l.UserRetentionStatusConfigID)...)
			if strings.TrimSpace(l.Label) == "" {
				msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, p+".label"))
			}
			if l.MaxThreshold != nil && *l.MaxThreshold < l.MinThreshold {
				msgs = append(msgs, fmt.Sprintf("%s.max_threshold must not be less than min_threshold", p))
			}
		}
	}
	return msgs
}

func (in *ResurrectionInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	if in.Thresholds == nil && create {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".thresholds"))
	}
	if in.Thresholds != nil {
		for i, t := range *in.Thresholds {
			p := fmt.Sprintf("%s.thresholds.%d", path, i)
			msgs = append(msgs, childRules(p, create, t.ID, t.StatusCode, t.UserRetentionStatusConfigID)...)
			if strings.TrimSpace(t.Label) == "" {
				msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, p+".label"))
			}
			if t.ThresholdDays < 0 {
				msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, p+".threshold_days"))
			}
		}
	}
	return msgs
}

// reconciler writes pillars and children inside one transaction; every write
// is checked as it goes, so a failure midway rolls back what came before.
type reconciler struct {
	tx                         *ent.Client
	tenantID, projectID, agcID uuid.UUID
	by                         *uuid.UUID
}

// checkStatus verifies that id is an active retention status config of the
// tenant whose code is code and whose stage is the pillar's (an activation
// moment cannot carry an engagement state).
func (r *reconciler) checkStatus(ctx context.Context, path string, id uuid.UUID, code string, stage retentionstatusconfig.Stage) error {
	ok, err := r.tx.RetentionStatusConfig.Query().Where(retentionstatusconfig.ID(id),
		retentionstatusconfig.TenantID(r.tenantID), retentionstatusconfig.IsActive(true),
		retentionstatusconfig.Code(code), retentionstatusconfig.StageEQ(stage)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Validation(fmt.Sprintf(MsgStatusRefFmt, path, code))
	}
	return nil
}

func cols(p *[]string) []string {
	if p == nil || *p == nil {
		return []string{}
	}
	return *p
}

func (r *reconciler) createActivation(ctx context.Context, in *ActivationInput) error {
	c, err := r.tx.ActivationConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetAggregationMethod(activationconfig.AggregationMethod(*in.AggregationMethod)).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.moments(ctx, c.ID, *in.Moments)
}

func (r *reconciler) createEngagement(ctx context.Context, in *EngagementInput) error {
	c, err := r.tx.EngagementConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetEngagementWindowDays(*in.EngagementWindowDays).
		SetMinLifetimeActionsForEngaged(*in.MinLifetimeActionsForEngaged).SetCountingMethod(*in.CountingMethod).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.levels(ctx, c.ID, *in.Levels)
}

func (r *reconciler) createResurrection(ctx context.Context, in *ResurrectionInput) error {
	c, err := r.tx.ResurrectionConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.thresholds(ctx, c.ID, *in.Thresholds)
}

// seen tracks child ids of one array: ids must belong to the pillar and
// appear once.
func seen(path, kind string, i int, id uuid.UUID, existing map[uuid.UUID]bool, used map[uuid.UUID]bool) error {
	p := fmt.Sprintf("%s.%d", path, i)
	if !existing[id] {
		return apperr.Validation(fmt.Sprintf(MsgForeignChildFmt, p, id, kind))
	}
	if used[id] {
		return apperr.Validation(fmt.Sprintf(MsgDuplicateIDFmt, p, id))
	}
	used[id] = true
	return nil
}

func idSet(ids []uuid.UUID) map[uuid.UUID]bool {
	m := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func unused(existing, used map[uuid.UUID]bool) []uuid.UUID {
	var out []uuid.UUID
	for id := range existing {
		if !used[id] {
			out = append(out, id)
		}
	}
	return out
}

// moments reconciles the moments of an activation config with items.
func (r *reconciler) moments(ctx context.Context, configID uuid.UUID, items []MomentInput) error {
	ids, err := r.tx.ActivationMoment.Query().Where(activationmoment.ActivationConfigID(configID)).IDs(ctx)
	if err != nil {
		return err
	}
	existing, used := idSet(ids), map[uuid.UUID]bool{}
	for i, m := range items {
		p := fmt.Sprintf("activation.moments.%d", i)
		if m.ID != nil {
			if err := seen("activation.moments", "activation", i, *m.ID, existing, used); err != nil {
				return err
			}
		}
		if err := r.checkStatus(ctx, p, m.UserRetentionStatusConfigID, m.StatusCode, retentionstatusconfig.StageACTIVATION); err != nil {
			return err
		}
		if m.ID != nil {
			u := r.tx.ActivationMoment.UpdateOneID(*m.ID).SetStatusCode(m.StatusCode).
				SetUserRetentionStatusConfigID(m.UserRetentionStatusConfigID).SetPriority(m.Priority)
			if m.MinActions == nil {
				u.ClearMinActions()
			} else {
				u.SetMinActions(*m.MinActions)
			}
			if m.WindowDays == nil {
				u.ClearWindowDays()
			} else {
				u.SetWindowDays(*m.WindowDays)
			}
			if m.TimeWindow == nil {
				u.ClearTimeWindow()
			} else {
				u.SetTimeWindow(*m.TimeWindow)
			}
			err = u.Exec(ctx)
		} else {
			err = r.tx.ActivationMoment.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetActivationConfigID(configID).SetStatusCode(m.StatusCode).
				SetUserRetentionStatusConfigID(m.UserRetentionStatusConfigID).SetNillableMinActions(m.MinActions).
				SetNillableWindowDays(m.WindowDays).SetNillableTimeWindow(m.TimeWindow).SetPriority(m.Priority).Exec(ctx)
		}
		if err != nil {
			return err
		}
	}
	if gone := unused(existing, used); len(gone) > 0 {
		_, err = r.tx.ActivationMoment.Delete().Where(activationmoment.IDIn(gone...),
			activationmoment.ActivationConfigID(configID)).Exec(ctx)
	}
	return err
}

// levels reconciles the levels of an engagement config with items.
func (r *reconciler) levels(ctx context.Context, configID uuid.UUID, items []LevelInput) error {
	ids, err := r.tx.EngagementLevel.Query().Where(engagementlevel.EngagementConfigID(configID)).IDs(ctx)
	if err != nil {
		return err
	}
	existing, used := idSet(ids), map[uuid.UUID]bool{}
	for i, l := range items {
		p := fmt.Sprintf("engagement.levels.%d", i)
		if l.ID != nil {
			if err := seen("engagement.levels", "engagement", i, *l.ID, existing, used); err != nil {
				return err
			}
		}
		if err := r.checkStatus(ctx, p, l.UserRetentionStatusConfigID, l.StatusCode, retentionstatusconfig.StageENGAGEMENT); err != nil {
			return err
		}
		if l.ID != nil {
			u := r.tx.EngagementLevel.UpdateOneID(*l.ID).SetStatusCode(l.StatusCode).
				SetUserRetentionStatusConfigID(l.UserRetentionStatusConfigID).SetLabel(l.Label).
				SetMinThreshold(l.MinThreshold).SetOrder(l.Order)
			if l.MaxThreshold == nil {
				u.ClearMaxThreshold()
			} else {
				u.SetMaxThreshold(*l.MaxThreshold)
			}
			err = u.Exec(ctx)
		} else {
			err = r.tx.EngagementLevel.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetEngagementConfigID(configID).SetStatusCode(l.StatusCode).
				SetUserRetentionStatusConfigID(l.UserRetentionStatusConfigID).SetLabel(l.Label).
				SetMinThreshold(l.MinThreshold).SetNillableMaxThreshold(l.MaxThreshold).SetOrder(l.Order).Exec(ctx)
		}
		if err != nil {
			return err
		}
	}
	if gone := unused(existing, used); len(gone) > 0 {
		_, err = r.tx.EngagementLevel.Delete().Where(engagementlevel.IDIn(gone...),
			engagementlevel.EngagementConfigID(configID)).Exec(ctx)
	}
	return err
}

// thresholds reconciles the thresholds of a resurrection config with items.
func (r *reconciler) thresholds(ctx context.Context, configID uuid.UUID, items []ThresholdInput) error {
	ids, err := r.tx.ResurrectionThreshold.Query().Where(resurrectionthreshold.ResurrectionConfigID(configID)).IDs(ctx)
	if err != nil {
		return err
	}
	existing, used := idSet(ids), map[uuid.UUID]bool{}
	for i, t := range items {
		p := fmt.Sprintf("resurrection.thresholds.%d", i)
		if t.ID != nil {
			if err := seen("resurrection.thresholds", "resurrection", i, *t.ID, existing, used); err != nil {
				return err
			}
		}
		if err := r.checkStatus(ctx, p, t.UserRetentionStatusConfigID, t.StatusCode, retentionstatusconfig.StageRESURRECTION); err != nil {
			return err
		}
		if t.ID != nil {
			err = r.tx.ResurrectionThreshold.UpdateOneID(*t.ID).SetStatusCode(t.StatusCode).
				SetUserRetentionStatusConfigID(t.UserRetentionStatusConfigID).SetLabel(t.Label).
				SetThresholdDays(t.ThresholdDays).SetOrder(t.Order).Exec(ctx)
		} else {
			err = r.tx.ResurrectionThreshold.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetResurrectionConfigID(configID).SetStatusCode(t.StatusCode).
				SetUserRetentionStatusConfigID(t.UserRetentionStatusConfigID).SetLabel(t.Label).
				SetThresholdDays(t.ThresholdDays).SetOrder(t.Order).Exec(ctx)
		}
		if err != nil {
			return err
		}
	}
	if gone := unused(existing, used); len(gone) > 0 {
		_, err = r.tx.ResurrectionThreshold.Delete().Where(resurrectionthreshold.IDIn(gone...),
			resurrectionthreshold.ResurrectionConfigID(configID)).Exec(ctx)
	}
	return err
}

// ReplaceLifecycle edits the pillars sent (fields sent, and children by id
// when an array is sent) atomically, then recomputes the config hashes.
func (s *Service) ReplaceLifecycle(ctx context.Context, id uuid.UUID, in LifecycleInput) error {
	tid, pid, err := scope(ctx, auth.PermAGCUpdate)
	if err != nil {
		return err
	}
	var msgs []string
	if in.Activation != nil {
		msgs = append(msgs, in.Activation.validate("activation", false)...)
	}
	if in.Engagement != nil {
		msgs = append(msgs, in.Engagement.validate("engagement", false)...)
	}
	if in.Resurrection != nil {
		msgs = append(msgs, in.Resurrection.validate("resurrection", false)...)
	}
	if len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	a, err := s.load(ctx, tid, pid, id)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r := reconciler{tx: tx, tenantID: tid, projectID: pid, agcID: id, by: actor(ctx)}
		if in.Activation != nil && a.Edges.ActivationConfig != nil {
			p := in.Activation
			u := tx.ActivationConfig.UpdateOneID(a.Edges.ActivationConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if p.AggregationMethod != nil {
				u.SetAggregationMethod(activationconfig.AggregationMethod(*p.AggregationMethod))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Moments != nil {
				if err := r.moments(ctx, a.Edges.ActivationConfig.ID, *p.Moments); err != nil {
					return err
				}
			}
		}
		if in.Engagement != nil && a.Edges.EngagementConfig != nil {
			p := in.Engagement
			u := tx.EngagementConfig.UpdateOneID(a.Edges.EngagementConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableEngagementWindowDays(p.EngagementWindowDays).
				SetNillableMinLifetimeActionsForEngaged(p.MinLifetimeActionsForEngaged).
				SetNillableCountingMethod(p.CountingMethod).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Levels != nil {
				if err := r.levels(ctx, a.Edges.EngagementConfig.ID, *p.Levels); err != nil {
					return err
				}
			}
		}
		if in.Resurrection != nil && a.Edges.ResurrectionConfig != nil {
			p := in.Resurrection
			u := tx.ResurrectionConfig.UpdateOneID(a.Edges.ResurrectionConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Thresholds != nil {
				if err := r.thresholds(ctx, a.Edges.ResurrectionConfig.ID, *p.Thresholds); err != nil {
					return err
				}
			}
		}
		if err := tx.ActivityGenerationConfig.UpdateOneID(id).SetNillableUpdatedBy(r.by).Exec(ctx); err != nil {
			return err
		}
		return storeHashes(ctx, tx, tid, pid, id)
	})
}

// storeHashes recomputes and stores the config hashes of an AGC.
func storeHashes(ctx context.Context, tx *ent.Client, tenantID, projectID, id uuid.UUID) error {
	a, err := withPillars(tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id),
		activitygenerationconfig.TenantID(tenantID), activitygenerationconfig.ProjectID(projectID))).Only(ctx)
	if err != nil {
		return err
	}
	return tx.ActivityGenerationConfig.UpdateOneID(id).SetConfigHashes(Hashes(a)).Exec(ctx)
}
