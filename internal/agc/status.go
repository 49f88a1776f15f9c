package agc

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// Publish moves a draft or paused AGC to active.
func (s *Service) Publish(ctx context.Context, id uuid.UUID) (*AGC, error) {
	return s.transition(ctx, id, activitygenerationconfig.StatusActive)
}

// Pause moves an active AGC to paused.
func (s *Service) Pause(ctx context.Context, id uuid.UUID) (*AGC, error) {
	return s.transition(ctx, id, activitygenerationconfig.StatusPaused)
}

func (s *Service) transition(ctx context.Context, id uuid.UUID, to activitygenerationconfig.Status) (*AGC, error) {
	a, err := s.find(ctx, id)
	if err != nil {
		return nil, err
	}
	from := a.Status
	switch {
	case to == activitygenerationconfig.StatusActive && from == activitygenerationconfig.StatusActive:
		return nil, apperr.Conflict(fmt.Sprintf(MsgAlreadyActiveFmt, id))
	case to == activitygenerationconfig.StatusPaused && from != activitygenerationconfig.StatusActive:
		return nil, apperr.Conflict(fmt.Sprintf(MsgPauseNotActiveFmt, id, from))
	}
	// The status guard in the WHERE makes concurrent moves safe.
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.ActivityGenerationConfig.Update().Where(activitygenerationconfig.ID(id), inProject(a.TenantID, a.ProjectID),
			activitygenerationconfig.StatusEQ(from)).SetStatus(to).SetNillableUpdatedBy(tenancy.Actor(ctx)).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Conflict(fmt.Sprintf("Activity generation config %s changed status concurrently; retry", id))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Delete archives the AGC and its three pillars and records it in the trash.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	a, err := s.find(ctx, id)
	if err != nil {
		return err
	}
	// The trash archives (and restores) the three pillars with the AGC.
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		err := trash.Move(ctx, tx, trash.Record{Kind: trash.KindAGC, RecordID: id, Label: a.Name, ProjectID: &a.ProjectID})
		return apperr.FromEnt(err, fmt.Sprintf(MsgNotFoundFmt, id), "")
	})
}
