package agc

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/tenancy"
)

// Connection pages the AGCs of the active project for GraphQL.
// Field collection eager-loads the
// pillars and children the query selects, and the project is loaded with
// the page so that effectiveAudienceID needs no query per AGC: the number
// of statements does not grow with the page size.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityGenerationConfigOrder, where *ent.ActivityGenerationConfigWhereInput) (*ent.ActivityGenerationConfigConnection, error) {
	return tenancy.ProjectConnection(ctx, s.db(ctx).ActivityGenerationConfig.Query().WithProject(), inProject,
		after, first, before, last, ent.WithActivityGenerationConfigOrder(orderBy), ent.WithActivityGenerationConfigFilter(where.Filter))
}

// EffectiveAudience returns the audience that applies to a: its own, else
// its project's root audience (read from the loaded project edge when
// present, as Connection loads it).
func (s *Service) EffectiveAudience(ctx context.Context, a *ent.ActivityGenerationConfig) (*uuid.UUID, error) {
	if a.AudienceID != nil {
		return a.AudienceID, nil
	}
	if p, err := a.Edges.ProjectOrErr(); err == nil {
		return p.RootAudienceID, nil
	}
	return s.rootAudience(ctx, a.TenantID, a.ProjectID)
}
