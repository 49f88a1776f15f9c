package generation

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/generationpolicy"
	"github.com/reten-io/reten/ent/generationsettings"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the policy and settings rules (designed).
const (
	MsgMaxPerCommerce = "max_per_commerce must be an integer from 1 to 100"
	MsgWindowDays     = "window_days must be an integer from 1 to 365"
	MsgMinGapDays     = "min_gap_days must be an integer from 0 to 365"
	MsgControlPercent = "control_percent must be an integer from 0 to 50"
	MsgHoldoutPercent = "holdout_percent must be an integer from 0 to 50"
)

// PolicyInput is the body of PUT /api/generation-policy: every value, and
// whether to draw a new salt for the control group.
type PolicyInput struct {
	MaxPerCommerce, WindowDays, MinGapDays, ControlPercent int
	Reshuffle                                              bool
}

// SettingsInput is the body of PUT .../generation-settings.
type SettingsInput struct {
	HoldoutPercent int
	Reshuffle      bool
}

func (in PolicyInput) rules() []string {
	var msgs []string
	check := func(v, lo, hi int, msg string) {
		if v < lo || v > hi {
			msgs = append(msgs, msg)
		}
	}
	check(in.MaxPerCommerce, 1, 100, MsgMaxPerCommerce)
	check(in.WindowDays, 1, 365, MsgWindowDays)
	check(in.MinGapDays, 0, 365, MsgMinGapDays)
	check(in.ControlPercent, 0, 50, MsgControlPercent)
	return msgs
}

// Policy returns the active project's generation policy, created with the
// defaults on first read.
func (s *Service) Policy(ctx context.Context) (*ent.GenerationPolicy, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return firstRead(ctx, func() (*ent.GenerationPolicy, error) {
		return s.db(ctx).GenerationPolicy.Query().Where(generationpolicy.TenantID(tid), generationpolicy.ProjectID(pid)).Only(ctx)
	}, func() error {
		return s.db(ctx).GenerationPolicy.Create().SetTenantID(tid).SetProjectID(pid).SetControlSalt(newSalt()).Exec(ctx)
	})
}

// SetPolicy replaces the active project's generation policy; Reshuffle
// draws a new control-group salt (recorded in saltChangedAt).
func (s *Service) SetPolicy(ctx context.Context, in PolicyInput) (*ent.GenerationPolicy, error) {
	if msgs := in.rules(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	cur, err := s.Policy(ctx)
	if err != nil {
		return nil, err
	}
	u := s.db(ctx).GenerationPolicy.UpdateOne(cur).SetMaxPerCommerce(in.MaxPerCommerce).SetWindowDays(in.WindowDays).
		SetMinGapDays(in.MinGapDays).SetControlPercent(in.ControlPercent).SetNillableUpdatedBy(userOf(ctx))
	if in.Reshuffle {
		u.SetControlSalt(newSalt()).SetSaltChangedAt(clock.Now())
	}
	return u.Save(ctx)
}

// Settings returns an AGC's generation settings (an AGC of the active
// project; created with the defaults on first read).
func (s *Service) Settings(ctx context.Context, agcID uuid.UUID) (*ent.GenerationSettings, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	if err := agcExists(ctx, s.db(ctx), tid, pid, agcID); err != nil {
		return nil, err
	}
	return firstRead(ctx, func() (*ent.GenerationSettings, error) {
		return s.db(ctx).GenerationSettings.Query().Where(generationsettings.TenantID(tid),
			generationsettings.ActivityGenerationConfigID(agcID)).Only(ctx)
	}, func() error {
		return s.db(ctx).GenerationSettings.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(agcID).
			SetHoldoutSalt(newSalt()).Exec(ctx)
	})
}

// SetSettings changes an AGC's generation settings; Reshuffle draws a new
// holdout salt (recorded in saltChangedAt).
func (s *Service) SetSettings(ctx context.Context, agcID uuid.UUID, in SettingsInput) (*ent.GenerationSettings, error) {
	if in.HoldoutPercent < 0 || in.HoldoutPercent > 50 {
		return nil, apperr.Validation(MsgHoldoutPercent)
	}
	cur, err := s.Settings(ctx, agcID)
	if err != nil {
		return nil, err
	}
	u := s.db(ctx).GenerationSettings.UpdateOne(cur).SetHoldoutPercent(in.HoldoutPercent).SetNillableUpdatedBy(userOf(ctx))
	if in.Reshuffle {
		u.SetHoldoutSalt(newSalt()).SetSaltChangedAt(clock.Now())
	}
	return u.Save(ctx)
}

// firstRead reads a one-per-owner row, creating it when missing; a
// concurrent first read that created it meanwhile makes the create fail on
// the unique index, and the row is read again.
func firstRead[T any](ctx context.Context, read func() (*T, error), create func() error) (*T, error) {
	for range 2 {
		row, err := read()
		if !ent.IsNotFound(err) {
			return row, err
		}
		if err := create(); err != nil && !ent.IsConstraintError(err) {
			return nil, fmt.Errorf("create defaults: %w", err)
		}
	}
	return read()
}

// userOf is the acting user, nil for an API key without one.
func userOf(ctx context.Context) *uuid.UUID {
	if v := viewer.FromContext(ctx); v != nil && v.UserID != uuid.Nil {
		id := v.UserID
		return &id
	}
	return nil
}
