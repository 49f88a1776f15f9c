// Package eventfilter manages event filters (event criteria): a project's
// saved query-builder definitions over events, their SQL, validation and
// previews on the tenant dataset.
package eventfilter

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/paging"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the event filter routes.
const (
	MsgNotFound      = "Event criteria not found"
	MsgNameEmpty     = "name should not be empty"
	MsgNameTooLong   = "name must be shorter than or equal to 255 characters"
	MsgTableNotFound = "Table not found"
)

// Service reads and manages the event filters of the active project.
type Service struct {
	client *ent.Client
	ds     criteria.Dataset
}

// NewService returns a Service over the tenant datasets ds.
func NewService(client *ent.Client, ds criteria.Dataset) *Service {
	return &Service{client: client, ds: ds}
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// scope checks the permission and returns the active project.
func scope(ctx context.Context, perm string) (uuid.UUID, error) {
	if err := auth.RequireCtx(ctx, perm); err != nil {
		return uuid.Nil, err
	}
	return tenancy.RequireProject(ctx)
}

// Detail is an event filter with its blocks in order.
type Detail struct {
	*ent.EventFilter
	Blocks []*ent.QueryBlock
}

// Summary is a list item: the filter and its count of where leaves.
type Summary struct {
	*ent.EventFilter
	ConditionCount int
}

// List returns a page of the project's event filters, newest first;
// search narrows by name (case-insensitive substring).
func (s *Service) List(ctx context.Context, search string, p paging.Page) (*paging.List[Summary], error) {
	pid, err := scope(ctx, auth.PermEventCriteriaView)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).EventFilter.Query().Where(eventfilter.ProjectID(pid))
	if search = strings.TrimSpace(search); search != "" {
		q.Where(eventfilter.NameContainsFold(search))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	filters, err := q.Order(ent.Desc(eventfilter.FieldCreatedAt), ent.Desc(eventfilter.FieldID)).
		WithQueryBlocks().Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(filters))
	for i, f := range filters {
		def, err := criteria.Definition(f.Edges.QueryBlocks)
		if err != nil {
			return nil, err
		}
		out[i] = Summary{EventFilter: f, ConditionCount: qb.ConditionCount(def)}
	}
	return &paging.List[Summary]{Items: out, Total: total, Page: p}, nil
}

// Get returns a live event filter of the active project.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	pid, err := scope(ctx, auth.PermEventCriteriaView)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, s.db(ctx), pid, id)
}

func (s *Service) get(ctx context.Context, c *ent.Client, pid, id uuid.UUID) (*Detail, error) {
	f, err := c.EventFilter.Query().Where(eventfilter.ID(id), eventfilter.ProjectID(pid)).
		WithQueryBlocks(func(q *ent.QueryBlockQuery) { q.Order(queryblock.ByOrder(), queryblock.ByID()) }).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return &Detail{EventFilter: f, Blocks: f.Edges.QueryBlocks}, nil
}

// CreateInput is the body of a new event filter; QueryBlocks is the parsed
// JSON of the queryBlocks array.
type CreateInput struct {
	Name        string
	Description *string
	QueryBlocks any
}

func validName(name string) []string {
	switch n := strings.TrimSpace(name); {
	case n == "":
		return []string{MsgNameEmpty}
	case len([]rune(n)) > 255:
		return []string{MsgNameTooLong}
	}
	return nil
}

// Create validates the definition against the tenant's catalog and stores
// the filter with its blocks in one transaction (event-criteria:create).
func (s *Service) Create(ctx context.Context, in CreateInput) (*Detail, error) {
	pid, err := scope(ctx, auth.PermEventCriteriaCreate)
	if err != nil {
		return nil, err
	}
	if msgs := validName(in.Name); msgs != nil {
		return nil, apperr.Validation(msgs...)
	}
	def, err := s.checked(ctx, in.QueryBlocks)
	if err != nil {
		return nil, err
	}
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		c := tx.EventFilter.Create().SetName(strings.TrimSpace(in.Name)).SetNillableDescription(in.Description)
		if v := viewer.FromContext(ctx); v != nil && v.UserID != uuid.Nil {
			c.SetOwnerID(v.UserID).SetUpdatedBy(v.UserID)
		}
		f, err := c.Save(ctx)
		if err != nil {
			return err
		}
		if err := criteria.CreateBlocks(ctx, tx, criteria.Owner{EventFilterID: &f.ID}, def); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, pid, f.ID)
		return err
	})
	return out, err
}

// checked decodes and validates a queryBlocks value (400 on any issue, 404
// when the tenant has no dataset to validate against).
func (s *Service) checked(ctx context.Context, blocks any) (qb.Definition, error) {
	def, err := criteria.Decode(blocks)
	if err != nil {
		return def, err
	}
	return def, criteria.Check(ctx, s.ds, def, qb.EventFilter)
}

// UpdateInput is a PATCH: nil fields are unchanged; ClearDescription sets
// the description to null; QueryBlocks, when SetBlocks, replaces every block.
type UpdateInput struct {
	Name             *string
	Description      *string
	ClearDescription bool
	SetBlocks        bool
	QueryBlocks      any
}

// Update applies a PATCH (event-criteria:update): a sent definition is
// validated before anything is deleted and replaces all blocks (new ids);
// every update sets updatedBy and updatedAt.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Detail, error) {
	pid, err := scope(ctx, auth.PermEventCriteriaUpdate)
	if err != nil {
		return nil, err
	}
	if _, err := s.get(ctx, s.db(ctx), pid, id); err != nil {
		return nil, err
	}
	if in.Name != nil {
		if msgs := validName(*in.Name); msgs != nil {
			return nil, apperr.Validation(msgs...)
		}
	}
	var def qb.Definition
	if in.SetBlocks {
		if def, err = s.checked(ctx, in.QueryBlocks); err != nil {
			return nil, err
		}
	}
	var out *Detail
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		u := tx.EventFilter.UpdateOneID(id).Where(eventfilter.ProjectID(pid)).SetUpdatedAt(time.Now())
		if in.Name != nil {
			u.SetName(strings.TrimSpace(*in.Name))
		}
		if in.ClearDescription {
			u.ClearDescription()
		} else if in.Description != nil {
			u.SetDescription(*in.Description)
		}
		if v := viewer.FromContext(ctx); v != nil && v.UserID != uuid.Nil {
			u.SetUpdatedBy(v.UserID)
		}
		if _, err := u.Save(ctx); err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		if in.SetBlocks {
			if err := criteria.ReplaceBlocks(ctx, tx, criteria.Owner{EventFilterID: &id}, def); err != nil {
				return err
			}
		}
		out, err = s.get(ctx, tx, pid, id)
		return err
	})
	return out, err
}

// Delete archives the filter into the trash (event-criteria:delete).
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	pid, err := scope(ctx, auth.PermEventCriteriaDelete)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		f, err := tx.EventFilter.UpdateOneID(id).Where(eventfilter.ProjectID(pid)).SetArchivedAt(time.Now()).Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindEventFilter, RecordID: id, Label: f.Name, ProjectID: &pid})
	})
}
