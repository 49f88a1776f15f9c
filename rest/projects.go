package rest

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/project"
)

// projectDTO is the SPEC.md project shape.
type projectDTO struct {
	ID             uuid.UUID  `json:"id"`
	Name           string     `json:"name"`
	RootAudienceID *uuid.UUID `json:"rootAudienceId"`
	IsMain         bool       `json:"isMain"`
}

func presentProject(p *ent.Project) projectDTO {
	return projectDTO{ID: p.ID, Name: p.Name, RootAudienceID: p.RootAudienceID, IsMain: p.IsMain}
}

func (a *api) listProjects(w http.ResponseWriter, r *http.Request) error {
	ps, err := a.Projects.List(r.Context())
	if err != nil {
		return err
	}
	out := make([]projectDTO, len(ps))
	for i, p := range ps {
		out[i] = presentProject(p)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) renameProject(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name")
	if err != nil {
		return err
	}
	// Decoding checks types only; the naming rules live in the service.
	name, _ := b.str("name", project.MsgNameNotString)
	if err := b.err(); err != nil {
		return err
	}
	p, err := a.Projects.Rename(r.Context(), id, name)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentProject(p))
	return nil
}

func (a *api) createProject(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name")
	if err != nil {
		return err
	}
	name, _ := b.str("name", project.MsgNameNotString)
	if err := b.err(); err != nil {
		return err
	}
	p, err := a.Projects.New(r.Context(), name)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentProject(p))
	return nil
}
