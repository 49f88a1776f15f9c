package commerce

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commerceuser"
)

// existing is what the batch loaded about the commerces it updates, and the
// children of those its items send children for (to tell unchanged items;
// the writer reads them again under the commerce's lock).
type existing struct {
	commerces map[string]*ent.Commerce // by external id
	children  map[uuid.UUID]storedChildren
}

// loadExisting loads the live commerces the valid items name, and the
// children of those the items send children for.
func (s *Service) loadExisting(ctx context.Context, tid uuid.UUID, items []BatchItem, failed map[int][]string) (*existing, error) {
	ex := &existing{commerces: map[string]*ent.Commerce{}, children: map[uuid.UUID]storedChildren{}}
	var ids []string
	for i := range items {
		if _, bad := failed[i]; !bad {
			ids = append(ids, items[i].ExternalID)
		}
	}
	db := s.db(ctx)
	for chunk := range slices.Chunk(ids, lookupChunk) {
		cs, err := db.Commerce.Query().Where(commerce.TenantID(tid), commerce.ExternalIDIn(chunk...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			ex.commerces[*c.ExternalID] = c
		}
	}
	var parents []uuid.UUID
	for i := range items {
		if c := ex.commerces[items[i].ExternalID]; c != nil && items[i].hasChildren() {
			if _, bad := failed[i]; !bad {
				parents = append(parents, c.ID)
			}
		}
	}
	for chunk := range slices.Chunk(parents, lookupChunk) {
		addrs, err := db.CommerceAddress.Query().Where(commerceaddress.TenantID(tid), commerceaddress.CommerceIDIn(chunk...)).
			Order(commerceaddress.ByCreatedAt(), commerceaddress.ByID()).All(ctx)
		if err != nil {
			return nil, err
		}
		users, err := withChildren(db.CommerceUser.Query().Where(commerceuser.TenantID(tid), commerceuser.CommerceIDIn(chunk...))).
			Order(commerceuser.ByCreatedAt(), commerceuser.ByID()).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			ch := ex.children[a.CommerceID]
			ch.addresses = append(ch.addresses, a)
			ex.children[a.CommerceID] = ch
		}
		for _, u := range users {
			ch := ex.children[u.CommerceID]
			ch.users = append(ch.users, u)
			ex.children[u.CommerceID] = ch
		}
		routes, err := routesOf(ctx, db, tid, chunk)
		if err != nil {
			return nil, err
		}
		for id, rs := range routes {
			ch := ex.children[id]
			for _, r := range rs {
				ch.routes = append(ch.routes, r.Code)
			}
			ex.children[id] = ch
		}
	}
	return ex, nil
}
