// Package agc manages activity generation configs (AGCs): their three
// lifecycle pillars (activation, engagement, resurrection) with moments,
// levels and thresholds, lifecycle reconciliation, status and config hashes.
//
// Status lifecycle of an AGC: created as draft; Publish moves draft or paused
// to active; Pause moves active to paused; Delete archives it (with its
// pillars) into the trash.
package agc

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationmoment"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/engagementlevel"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/ent/resurrectionthreshold"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/patch"
	projects "github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the AGC routes (SPEC.md and designed ones).
const (
	MsgNotFoundFmt        = "Activity generation config %s not found"
	MsgDuplicateNameFmt   = "An activity generation config with name %q already exists"
	MsgAudienceNotFound   = "La audiencia no existe en este proyecto."
	MsgNameEmpty          = "name should not be empty"
	MsgAlreadyActiveFmt   = "Activity generation config %s is already active"
	MsgPauseNotActiveFmt  = "Activity generation config %s cannot be paused: only an active config can be paused (status is %s)"
	MsgActivationNotFound = "Activation config not found"
	MsgEngagementNotFound = "Engagement config not found"
	MsgResurrectNotFound  = "Resurrection config not found"
)

// Service manages the AGCs of the active project.
type Service struct {
	client   *ent.Client
	catalogs Catalogs // nil: pillar sources are not checked against a catalog
}

// NewService returns a Service; catalogs, when not nil, checks pillar
// sources against the tenant's dataset catalog.
func NewService(client *ent.Client, catalogs Catalogs) *Service {
	return &Service{client: client, catalogs: catalogs}
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// AGC is an AGC with its three pillars and their children loaded, and the
// audience that applies (its own, else the project's root audience).
type AGC struct {
	*ent.ActivityGenerationConfig
	EffectiveAudienceID *uuid.UUID
}

// CreateInput is the body of POST /api/activity-generation-configs. The three
// pillars are required, with all their required fields and child arrays.
type CreateInput struct {
	Name         string
	Description  *string
	AudienceID   *uuid.UUID
	Activation   *ActivationInput
	Engagement   *EngagementInput
	Resurrection *ResurrectionInput
}

// UpdateInput is the metadata patch of PATCH /api/activity-generation-configs/:id;
// absent fields are unchanged; a null name is an empty one (refused); a
// null audience removes the AGC's own audience.
type UpdateInput struct {
	Name        patch.Patch[string]
	Description *string
	Audience    patch.Patch[uuid.UUID]
}

// MsgAudienceExclusive refuses a GraphQL update that both sets and clears
// the audience.
const MsgAudienceExclusive = "audienceID and clearAudience cannot be sent together"

// AudienceArgs is the audience patch of the GraphQL arguments audienceID
// and clearAudience.
func AudienceArgs(id *uuid.UUID, clear *bool) (patch.Patch[uuid.UUID], error) {
	p, ok := patch.FromArgs(id, clear)
	if !ok {
		return p, apperr.Validation(MsgAudienceExclusive)
	}
	return p, nil
}

func notFound(id uuid.UUID) error { return apperr.NotFound(fmt.Sprintf(MsgNotFoundFmt, id)) }

// inProject selects the AGCs of one project of a tenant.
func inProject(tenantID, projectID uuid.UUID) predicate.ActivityGenerationConfig {
	return activitygenerationconfig.And(activitygenerationconfig.TenantID(tenantID), activitygenerationconfig.ProjectID(projectID))
}

// withPillars eager-loads the three pillars and their ordered children
// (a fixed number of queries, whatever the number of AGCs and children).

func withPillars(q *ent.ActivityGenerationConfigQuery) *ent.ActivityGenerationConfigQuery {
	return q.
		WithActivationConfig(func(q *ent.ActivationConfigQuery) {
			q.WithActivationMoments(func(q *ent.ActivationMomentQuery) {
				q.Order(activationmoment.ByPriority(), activationmoment.ByID())
			})
		}).
		WithEngagementConfig(func(q *ent.EngagementConfigQuery) {
			q.WithEngagementLevels(func(q *ent.EngagementLevelQuery) {
				q.Order(engagementlevel.ByOrder(), engagementlevel.ByID())
			})
		}).
		WithResurrectionConfig(func(q *ent.ResurrectionConfigQuery) {
			q.WithResurrectionThresholds(func(q *ent.ResurrectionThresholdQuery) {
				q.Order(resurrectionthreshold.ByOrder(), resurrectionthreshold.ByID())
			})
		})
}

func (s *Service) rootAudience(ctx context.Context, tenantID, projectID uuid.UUID) (*uuid.UUID, error) {
	p, err := s.db(ctx).Project.Query().Where(project.ID(projectID), project.TenantID(tenantID)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, tenancy.MsgProjectNotFound, "")
	}
	return p.RootAudienceID, nil
}

func effective(a *ent.ActivityGenerationConfig, root *uuid.UUID) *uuid.UUID {
	if a.AudienceID != nil {
		return a.AudienceID
	}
	return root
}

// load reads one AGC of the project with its pillars.
func (s *Service) load(ctx context.Context, tenantID, projectID, id uuid.UUID) (*ent.ActivityGenerationConfig, error) {
	a, err := withPillars(s.db(ctx).ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id),
		inProject(tenantID, projectID))).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, fmt.Sprintf(MsgNotFoundFmt, id), "")
	}
	return a, nil
}

// find reads one AGC of the active project with its pillars.
func (s *Service) find(ctx context.Context, id uuid.UUID) (*ent.ActivityGenerationConfig, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.load(ctx, tid, pid, id)
}

// Get returns an AGC of the active project with pillars, children and its
// effective audience.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*AGC, error) {
	a, err := s.find(ctx, id)
	if err != nil {
		return nil, err
	}
	root, err := s.rootAudience(ctx, a.TenantID, a.ProjectID)
	if err != nil {
		return nil, err
	}
	return &AGC{ActivityGenerationConfig: a, EffectiveAudienceID: effective(a, root)}, nil
}

// List returns the AGCs of the active project by name, with their pillars.
func (s *Service) List(ctx context.Context) ([]*AGC, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	items, err := withPillars(s.db(ctx).ActivityGenerationConfig.Query().Where(inProject(tid, pid))).
		Order(activitygenerationconfig.ByName(), activitygenerationconfig.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	root, err := s.rootAudience(ctx, tid, pid)
	if err != nil {
		return nil, err
	}
	out := make([]*AGC, len(items))
	for i, a := range items {
		out[i] = &AGC{ActivityGenerationConfig: a, EffectiveAudienceID: effective(a, root)}
	}
	return out, nil
}

// checkAudience verifies that id is a live audience of the project.
func (s *Service) checkAudience(ctx context.Context, tenantID, projectID, id uuid.UUID) error {
	ok, err := s.db(ctx).Audience.Query().Where(audience.ID(id), audience.TenantID(tenantID),
		audience.ProjectID(projectID), audience.ArchivedAtIsNil()).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Invalid(MsgAudienceNotFound)
	}
	return nil
}

// checkName answers 409 when another live AGC of the project has the name.
func (s *Service) checkName(ctx context.Context, projectID uuid.UUID, name string, except uuid.UUID) error {
	return apperr.ConflictIfExists(ctx, s.db(ctx).ActivityGenerationConfig.Query().Where(activitygenerationconfig.ProjectID(projectID),
		activitygenerationconfig.Name(name), activitygenerationconfig.IDNEQ(except)), fmt.Sprintf(MsgDuplicateNameFmt, name))
}

// Create stores an AGC (status draft) with its three pillars and children in
// one transaction and returns it as Get does.
func (s *Service) Create(ctx context.Context, in CreateInput) (*AGC, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	var msgs []string
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		msgs = append(msgs, MsgNameEmpty)
	}
	if in.Activation == nil {
		msgs = append(msgs, "activation should not be empty")
	} else {
		msgs = append(msgs, in.Activation.validate("activation", true)...)
	}
	if in.Engagement == nil {
		msgs = append(msgs, "engagement should not be empty")
	} else {
		msgs = append(msgs, in.Engagement.validate("engagement", true)...)
	}
	if in.Resurrection == nil {
		msgs = append(msgs, "resurrection should not be empty")
	} else {
		msgs = append(msgs, in.Resurrection.validate("resurrection", true)...)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	if err := s.checkSources(ctx, createdSources(in)); err != nil {
		return nil, err
	}
	if in.AudienceID != nil {
		if err := s.checkAudience(ctx, tid, pid, *in.AudienceID); err != nil {
			return nil, err
		}
	}
	if err := s.checkName(ctx, pid, in.Name, uuid.Nil); err != nil {
		return nil, err
	}
	var id uuid.UUID
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if in.AudienceID == nil {
			if err := projects.LockRootAudience(ctx, tx, tid, pid, false); err != nil {
				return err
			}
		}
		c := tx.ActivityGenerationConfig.Create().SetTenantID(tid).SetProjectID(pid).SetName(in.Name).
			SetNillableAudienceID(in.AudienceID).SetNillableUpdatedBy(tenancy.Actor(ctx))
		if in.Description != nil {
			c.SetDescription(*in.Description)
		}
		a, err := c.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, "", fmt.Sprintf(MsgDuplicateNameFmt, in.Name))
		}
		id = a.ID
		r := reconciler{tx: tx, tenantID: tid, projectID: pid, agcID: a.ID, by: tenancy.Actor(ctx)}
		if err := r.createActivation(ctx, in.Activation); err != nil {
			return err
		}
		if err := r.createEngagement(ctx, in.Engagement); err != nil {
			return err
		}
		if err := r.createResurrection(ctx, in.Resurrection); err != nil {
			return err
		}
		return storeHashes(ctx, tx, tid, pid, a.ID)
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Update changes the metadata of an AGC (never its pillars) and returns it
// with its pillars.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*AGC, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	// Another project's AGC answers 404 whatever the body says.
	if _, err := s.load(ctx, tid, pid, id); err != nil {
		return nil, err
	}
	name, audienceID := in.Name.NullAs("").Ptr(), in.Audience.Ptr()
	if name != nil {
		trimmed := strings.TrimSpace(*name)
		if trimmed == "" {
			return nil, apperr.Validation(MsgNameEmpty)
		}
		name = &trimmed
	}
	if audienceID != nil {
		if err := s.checkAudience(ctx, tid, pid, *audienceID); err != nil {
			return nil, err
		}
	}
	if name != nil {
		if err := s.checkName(ctx, pid, *name, id); err != nil {
			return nil, err
		}
	}
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		u := tx.ActivityGenerationConfig.UpdateOneID(id).
			Where(inProject(tid, pid)).
			SetNillableName(name).SetNillableDescription(in.Description).SetNillableUpdatedBy(tenancy.Actor(ctx))
		switch {
		case in.Audience.IsNull():
			if err := projects.LockRootAudience(ctx, tx, tid, pid, false); err != nil {
				return err
			}
			u.ClearAudienceID()
		case audienceID != nil:
			u.SetAudienceID(*audienceID)
		}
		return u.Exec(ctx)
	})
	if err != nil {
		return nil, apperr.FromEnt(err, fmt.Sprintf(MsgNotFoundFmt, id), fmt.Sprintf(MsgDuplicateNameFmt, strings.TrimSpace(in.Name.OrZero())))
	}
	a, err := s.load(ctx, tid, pid, id)
	if err != nil {
		return nil, err
	}
	return &AGC{ActivityGenerationConfig: a}, nil
}
