// Package node resolves Relay node ids (plain UUIDs) to entities for the
// GraphQL node and nodes fields, with the same tenant filter (data layer) and
// view permissions (here) as the typed queries.
package node

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"database/sql"

	"entgo.io/ent/dialect/sql/schema"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/migrate"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// MsgNotFound answers ids that do not resolve (or are not visible).
const MsgNotFound = "Node not found"

// Service resolves nodes.
type Service struct {
	client *ent.Client
	pool   *sql.DB
	lookup string // one UNION ALL statement naming the table that holds an id
}

// NewService returns a Service; db is the pool behind client.
func NewService(client *ent.Client, db *sql.DB) *Service {
	var parts []string
	for _, t := range migrate.Tables {
		if !hasColumn(t.Columns, "id") || t.Name == "refresh_tokens" || t.Name == "idempotency_records" {
			continue
		}
		parts = append(parts, fmt.Sprintf("SELECT '%s' FROM %s WHERE id = $1", t.Name, quote(t.Name)))
	}
	return &Service{client: client, pool: db, lookup: strings.Join(parts, " UNION ALL ") + " LIMIT 1"}
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Node returns the entity with id when the principal of the access may see
// it: the read permission of its type (the line needs none of its own).
func (s *Service) Node(ctx context.Context, id uuid.UUID) (ent.Noder, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	table, err := s.tableOf(ctx, id)
	if err != nil {
		return nil, err
	}
	n, err := s.db(ctx).Noder(ctx, id, ent.WithFixedNodeType(table))
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	perm, known := auth.ViewPermission(reflect.TypeOf(n).Elem().Name())
	if !known {
		return nil, apperr.NotFound(MsgNotFound)
	}
	if _, ok := n.(*ent.QueryBlock); ok {
		// Read the owner with a query: field collection may not have loaded it.
		b, err := s.db(ctx).QueryBlock.Query().Where(queryblock.ID(id)).Select(queryblock.FieldAudienceID).Only(ctx)
		if err != nil {
			return nil, apperr.FromEnt(err, MsgNotFound, "")
		}
		perm = auth.BlockViewPermission(b.AudienceID != nil)
	}
	if perm != "" {
		if err := auth.Require(acc.Viewer, perm); err != nil {
			return nil, err
		}
	}
	// API keys are visible to their owner only, as on GET /api/api-keys/:id.
	// (Checked with a query: field collection loads only the selected columns.)
	if _, ok := n.(*ent.APIKey); ok {
		own, err := s.db(ctx).APIKey.Query().Where(apikey.ID(id), apikey.UserID(acc.UserID())).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !own {
			return nil, apperr.NotFound(MsgNotFound)
		}
	}
	return n, nil
}

// Nodes resolves each id; an id that does not resolve yields nil in its place.
func (s *Service) Nodes(ctx context.Context, ids []uuid.UUID) ([]ent.Noder, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, err
	}
	out := make([]ent.Noder, len(ids))
	for i, id := range ids {
		n, err := s.Node(ctx, id)
		if e, ok := apperr.As(err); ok && e.Kind == apperr.KindNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func (s *Service) tableOf(ctx context.Context, id uuid.UUID) (string, error) {
	rows, err := s.pool.QueryContext(ctx, s.lookup, id)
	if err != nil {
		return "", fmt.Errorf("resolve node: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return "", apperr.NotFound(MsgNotFound)
	}
	var table string
	if err := rows.Scan(&table); err != nil {
		return "", err
	}
	return table, rows.Err()
}

func hasColumn(cols []*schema.Column, name string) bool {
	for _, c := range cols {
		if c.Name == name {
			return true
		}
	}
	return false
}

func quote(name string) string { return `"` + name + `"` }
