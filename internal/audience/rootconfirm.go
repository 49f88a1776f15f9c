package audience

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/project"
)

// CodeDefaultRootConfirmationRequired is the error code (SPEC.md "Errors")
// of a definition edit of a project's root audience that changes the
// population of the activity generation configs falling back on it.
const CodeDefaultRootConfirmationRequired = "DEFAULT_ROOT_CONFIRMATION_REQUIRED"

// MsgDefaultRootConfirmFmt is the message of that error: the number of
// configs and their names.
const MsgDefaultRootConfirmFmt = "The root audience is the audience of %d activity generation config(s) without an audience of their own (%s): " +
	"editing its definition changes their population. Send the edit again with confirm_default_root: true to apply it."

// FallbackConfig is an activity generation config that falls back on the
// project's root audience (its audienceId is null), as the error names it.
type FallbackConfig struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// fallbackConfigs returns the live configs of the project pid whose
// audience is the root audience by default.
func fallbackConfigs(ctx context.Context, tx *ent.Client, tid, pid uuid.UUID) ([]FallbackConfig, error) {
	rows, err := tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tid),
		activitygenerationconfig.ProjectID(pid), activitygenerationconfig.ArchivedAtIsNil(), activitygenerationconfig.AudienceIDIsNil()).
		Order(activitygenerationconfig.ByName(), activitygenerationconfig.ByID()).
		Select(activitygenerationconfig.FieldID, activitygenerationconfig.FieldName).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("audience: fallback configs: %w", err)
	}
	out := make([]FallbackConfig, len(rows))
	for i, r := range rows {
		out[i] = FallbackConfig{ID: r.ID, Name: r.Name}
	}
	return out, nil
}

// confirmRootEdit refuses an unconfirmed definition edit of the root
// audience a while configs of its project fall back on it; renames and
// other edits, and edits of other audiences, need no confirmation. It runs
// in the edit's transaction and first locks the root audience
// (project.LockRootAudience), so a config that comes to fall back on it
// concurrently either is seen here or falls back after the edit committed.
func confirmRootEdit(ctx context.Context, tx *ent.Client, a *ent.Audience, in UpdateInput) error {
	if !a.IsRoot || in.ConfirmDefaultRoot || !(in.SetBlocks || in.SetCompositions) {
		return nil
	}
	if err := project.LockRootAudience(ctx, tx, a.TenantID, a.ProjectID, true); err != nil {
		return err
	}
	configs, err := fallbackConfigs(ctx, tx, a.TenantID, a.ProjectID)
	if err != nil || len(configs) == 0 {
		return err
	}
	return rootConfirmationError(configs)
}

// rootConfirmationError is the 409 of an unconfirmed edit: code
// DEFAULT_ROOT_CONFIRMATION_REQUIRED, the configs (by name, then id) in the
// detail activityGenerationConfigs.
func rootConfirmationError(configs []FallbackConfig) error {
	names := make([]string, len(configs))
	for i, c := range configs {
		names[i] = fmt.Sprintf("%q", c.Name)
	}
	e := apperr.Conflict(fmt.Sprintf(MsgDefaultRootConfirmFmt, len(configs), strings.Join(names, ", ")))
	e.Code = CodeDefaultRootConfirmationRequired
	e.Details = map[string]any{"activityGenerationConfigs": configs}
	return e
}
