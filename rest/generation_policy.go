package rest

import (
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/generation"
)

// The generation policy of a project and the generation settings of an AGC
// (docs/generation.md "Caps and holdout").

type generationPolicyDTO struct {
	ProjectID      uuid.UUID  `json:"projectId"`
	MaxPerCommerce int        `json:"maxPerCommerce"`
	WindowDays     int        `json:"windowDays"`
	MinGapDays     int        `json:"minGapDays"`
	ControlPercent int        `json:"controlPercent"`
	SaltChangedAt  *time.Time `json:"saltChangedAt"`
	UpdatedBy      *uuid.UUID `json:"updatedBy"`
	UpdatedAt      time.Time  `json:"updatedAt"`
}

func presentGenerationPolicy(p *ent.GenerationPolicy) generationPolicyDTO {
	return generationPolicyDTO{ProjectID: p.ProjectID, MaxPerCommerce: p.MaxPerCommerce, WindowDays: p.WindowDays, MinGapDays: p.MinGapDays,
		ControlPercent: p.ControlPercent, SaltChangedAt: p.SaltChangedAt, UpdatedBy: p.UpdatedBy, UpdatedAt: p.UpdatedAt}
}

type generationSettingsDTO struct {
	ActivityGenerationConfigID uuid.UUID  `json:"activityGenerationConfigId"`
	HoldoutPercent             int        `json:"holdoutPercent"`
	SaltChangedAt              *time.Time `json:"saltChangedAt"`
	UpdatedBy                  *uuid.UUID `json:"updatedBy"`
	UpdatedAt                  time.Time  `json:"updatedAt"`
}

func presentGenerationSettings(s *ent.GenerationSettings) generationSettingsDTO {
	return generationSettingsDTO{ActivityGenerationConfigID: s.ActivityGenerationConfigID, HoldoutPercent: s.HoldoutPercent,
		SaltChangedAt: s.SaltChangedAt, UpdatedBy: s.UpdatedBy, UpdatedAt: s.UpdatedAt}
}

// generationPolicyBody reads PUT /api/generation-policy: every value
// required, reshuffle optional.
var generationPolicyBody = bodyOf(func(b *body) generation.PolicyInput {
	in := generation.PolicyInput{MaxPerCommerce: b.integer("max_per_commerce").OrZero(), WindowDays: b.integer("window_days").OrZero(),
		MinGapDays: b.integer("min_gap_days").OrZero(), ControlPercent: b.integer("control_percent").OrZero(),
		Reshuffle: b.boolean("reshuffle").OrZero()}
	for _, name := range []string{"max_per_commerce", "window_days", "min_gap_days", "control_percent"} {
		b.require(name, kindInt)
	}
	b.forbidNull("reshuffle", kindBool)
	return in
}, "max_per_commerce", "window_days", "min_gap_days", "control_percent", "reshuffle")

// generationSettingsBody reads PUT .../generation-settings.
var generationSettingsBody = bodyOf(func(b *body) generation.SettingsInput {
	in := generation.SettingsInput{HoldoutPercent: b.integer("holdout_percent").OrZero(), Reshuffle: b.boolean("reshuffle").OrZero()}
	b.require("holdout_percent", kindInt)
	b.forbidNull("reshuffle", kindBool)
	return in
}, "holdout_percent", "reshuffle")
