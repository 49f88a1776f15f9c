package rest

import (
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/agc"
)

// agcDTO is an AGC with its pillars (SPEC.md "Activity generation config (AGC)").
type agcDTO struct {
	ID          uuid.UUID  `json:"id"`
	ProjectID   uuid.UUID  `json:"projectId"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	AudienceID  *uuid.UUID `json:"audienceId"`
	Status      string     `json:"status"`
	UpdatedBy   *uuid.UUID `json:"updatedBy"`
	stamps
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
	stamps
}

// pillarHead are the members a pillar presents first; pillarTail those it
// presents after its own, before its children.
type pillarHead struct {
	ID                         uuid.UUID `json:"id"`
	Name                       string    `json:"name"`
	Description                *string   `json:"description"`
	SourceTable                string    `json:"sourceTable"`
	SourceColumns              []string  `json:"sourceColumns"`
	DateColumn                 string    `json:"dateColumn"`
	ActivityGenerationConfigID uuid.UUID `json:"activityGenerationConfigId"`
}

type pillarTail struct {
	IsActive  bool       `json:"isActive"`
	UpdatedBy *uuid.UUID `json:"updatedBy"`
	stamps
}

type activationDTO struct {
	pillarHead
	AggregationMethod string `json:"aggregationMethod"`
	pillarTail
	ActivationMoments []momentDTO `json:"activationMoments"`
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
	stamps
}

type engagementDTO struct {
	pillarHead
	EngagementWindowDays         int    `json:"engagementWindowDays"`
	MinLifetimeActionsForEngaged int    `json:"minLifetimeActionsForEngaged"`
	CountingMethod               string `json:"countingMethod"`
	pillarTail
	EngagementLevels []levelDTO `json:"engagementLevels"`
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
	stamps
}

type resurrectionDTO struct {
	pillarHead
	pillarTail
	ResurrectionThresholds []thresholdDTO `json:"resurrectionThresholds"`
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
	stamps
}

func presentActivation(c *ent.ActivationConfig) *activationDTO {
	if c == nil {
		return nil
	}
	return &activationDTO{pillarHead: pillarHead{c.ID, c.Name, c.Description, c.SourceTable, c.SourceColumns, c.DateColumn,
		c.ActivityGenerationConfigID}, AggregationMethod: string(c.AggregationMethod),
		pillarTail: pillarTail{c.IsActive, c.UpdatedBy, stamps{c.CreatedAt, c.UpdatedAt}}, ActivationMoments: presentAll(c.Edges.ActivationMoments, func(m *ent.ActivationMoment) momentDTO {
			return momentDTO{ID: m.ID, ActivationConfigID: m.ActivationConfigID, StatusCode: m.StatusCode,
				UserRetentionStatusConfigID: m.UserRetentionStatusConfigID, MinActions: m.MinActions, WindowDays: m.WindowDays,
				TimeWindow: m.TimeWindow, Priority: m.Priority, IsActive: m.IsActive, stamps: stamps{m.CreatedAt, m.UpdatedAt}}
		})}
}

func presentEngagement(c *ent.EngagementConfig) *engagementDTO {
	if c == nil {
		return nil
	}
	// SPEC types engagement sourceColumns string[] (activation's may be null).
	columns := c.SourceColumns
	if columns == nil {
		columns = []string{}
	}
	return &engagementDTO{pillarHead: pillarHead{c.ID, c.Name, c.Description, c.SourceTable, columns, c.DateColumn,
		c.ActivityGenerationConfigID}, EngagementWindowDays: c.EngagementWindowDays,
		MinLifetimeActionsForEngaged: c.MinLifetimeActionsForEngaged, CountingMethod: c.CountingMethod,
		pillarTail: pillarTail{c.IsActive, c.UpdatedBy, stamps{c.CreatedAt, c.UpdatedAt}}, EngagementLevels: presentAll(c.Edges.EngagementLevels, func(l *ent.EngagementLevel) levelDTO {
			return levelDTO{ID: l.ID, EngagementConfigID: l.EngagementConfigID, StatusCode: l.StatusCode,
				UserRetentionStatusConfigID: l.UserRetentionStatusConfigID, Label: l.Label, MinThreshold: l.MinThreshold,
				MaxThreshold: l.MaxThreshold, Order: l.Order, IsActive: l.IsActive, stamps: stamps{l.CreatedAt, l.UpdatedAt}}
		})}
}

func presentResurrection(c *ent.ResurrectionConfig) *resurrectionDTO {
	if c == nil {
		return nil
	}
	return &resurrectionDTO{pillarHead: pillarHead{c.ID, c.Name, c.Description, c.SourceTable, c.SourceColumns, c.DateColumn,
		c.ActivityGenerationConfigID}, pillarTail: pillarTail{c.IsActive, c.UpdatedBy, stamps{c.CreatedAt, c.UpdatedAt}},
		ResurrectionThresholds: presentAll(c.Edges.ResurrectionThresholds, func(t *ent.ResurrectionThreshold) thresholdDTO {
			return thresholdDTO{ID: t.ID, ResurrectionConfigID: t.ResurrectionConfigID, StatusCode: t.StatusCode,
				UserRetentionStatusConfigID: t.UserRetentionStatusConfigID, Label: t.Label, ThresholdDays: t.ThresholdDays,
				Order: t.Order, IsActive: t.IsActive, stamps: stamps{t.CreatedAt, t.UpdatedAt}}
		})}
}

func presentAGC(g *agc.AGC) agcDTO {
	a := g.ActivityGenerationConfig
	return agcDTO{ID: a.ID, ProjectID: a.ProjectID, Name: a.Name, Description: a.Description, AudienceID: a.AudienceID,
		Status: string(a.Status), UpdatedBy: a.UpdatedBy, stamps: stamps{a.CreatedAt, a.UpdatedAt},
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
		stamps: stamps{a.CreatedAt, a.UpdatedAt}}
}
