// Package commerce manages commerces (customer businesses) with their
// addresses, users, user roles and contacts, and the integrators' batch upsert.
package commerce

import "github.com/reten-io/reten/ent"

// Service manages the commerces of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }
