package auth

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
)

// The credential cache (README "HTTP surface"): a replica reuses
// what it read about a credential for CredentialTTL, so a request whose
// credential was seen a moment ago costs no statement. What a check reads
// changes only through the writes the ent hook (Hook) sees: a key's
// revocation, deactivation, permissions or expiry, a user's deactivation,
// a membership's roles. Each of them empties the cache of the replica that
// made it once its transaction commits and, on PostgreSQL, of every other
// replica through NOTIFY (Listen). A change the hook cannot see (a
// statement run by hand) takes effect within CredentialTTL; a key's expiry
// is checked against the clock on every request.

// CredentialTTL is how long a replica reuses a credential's check.
const CredentialTTL = 5 * time.Second

// maxCachedCredentials bounds each of the cache's maps: a full map is
// emptied before it takes a new entry.
const maxCachedCredentials = 10000

type userKey struct{ user, tenant uuid.UUID }

type projectKey struct{ tenant, project uuid.UUID }

// userRow is what a JWT's check reads: an active member's roles.
type userRow struct {
	roles []string
}

type cached[T any] struct {
	row   T
	until time.Time
}

// credentialCache holds the successful checks of the last CredentialTTL
// (failures are never cached). gen counts the flushes: a check read before
// a flush is not stored after it.
type credentialCache struct {
	ttl      time.Duration
	mu       sync.Mutex
	gen      uint64
	users    map[userKey]cached[userRow]
	keys     map[string]cached[keyRow]       // by key hash
	projects map[projectKey]cached[struct{}] // the tenants' projects
}

func newCredentialCache(ttl time.Duration) *credentialCache {
	c := &credentialCache{ttl: ttl}
	c.flush()
	return c
}

func (c *credentialCache) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.users = map[userKey]cached[userRow]{}
	c.keys = map[string]cached[keyRow]{}
	c.projects = map[projectKey]cached[struct{}]{}
}

// generation is the flush count a check starts from.
func (c *credentialCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

func lookup[K comparable, V any](c *credentialCache, m map[K]cached[V], k K, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := m[k]
	if !ok || !now.Before(e.until) {
		var zero V
		return zero, false
	}
	return e.row, true
}

func store[K comparable, V any](c *credentialCache, m *map[K]cached[V], gen uint64, k K, v V, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(*m) >= maxCachedCredentials {
		*m = map[K]cached[V]{}
	}
	(*m)[k] = cached[V]{row: v, until: now.Add(c.ttl)}
}

// CacheCredentials makes s reuse its credential checks for ttl (the app
// does, with CredentialTTL); without it every request reads them.
func (s *Service) CacheCredentials(ttl time.Duration) { s.cache = newCredentialCache(ttl) }

// FlushCredentials forgets every cached check of this replica.
func (s *Service) FlushCredentials() {
	if s.cache != nil {
		s.cache.flush()
	}
}

// quietFields are the columns of the users, memberships and api_keys rows
// whose change changes no check: a write of these only does not empty the
// caches (a key's lastUsedAt, written once a minute, would otherwise).
var quietFields = map[string]bool{"last_used_at": true, "updated_at": true, "last_login_at": true}

// Hook is the ent hook that empties the credential caches after a write
// that can change a check (an update or a deletion of a user, a membership
// or an API key; creations cannot: failures are not cached): this
// replica's once the write's transaction commits, every replica's on
// PostgreSQL through NOTIFY on channel, sent in the write's transaction so
// that it is delivered only if it commits ("" on SQLite: no notification).
func (s *Service) Hook(channel string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if err != nil || m.Op().Is(ent.OpCreate) || !credentialChange(m) {
				return v, err
			}
			if channel != "" {
				c, ok := m.(interface{ Client() *ent.Client })
				if !ok {
					return v, fmt.Errorf("auth: %s mutation has no client", m.Type())
				}
				if _, err := c.Client().ExecContext(ctx, "SELECT pg_notify($1, '')", channel); err != nil {
					return v, fmt.Errorf("auth: notify the replicas: %w", err)
				}
			}
			tx := ent.TxFromContext(ctx)
			if tx == nil {
				s.FlushCredentials()
				return v, nil
			}
			tx.OnCommit(func(next ent.Committer) ent.Committer {
				return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
					err := next.Commit(ctx, tx)
					s.FlushCredentials()
					return err
				})
			})
			return v, nil
		})
	}
}

// credentialChange reports whether m writes a row a check reads, in a
// column other than the quiet ones (a key's lastUsedAt).
func credentialChange(m ent.Mutation) bool {
	switch m.Type() {
	case ent.TypeUser, ent.TypeMembership, ent.TypeAPIKey:
	default:
		return false
	}
	if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
		return true
	}
	for _, f := range append(m.Fields(), m.ClearedFields()...) {
		if !quietFields[f] {
			return true
		}
	}
	return false
}
