// Package fieldorg manages the field organisation: operators, routes, their
// links and supervisors, with the integrators' sync and batch upserts.
package fieldorg

import "github.com/reten-io/reten/ent"

// Service manages the field organisation of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }
