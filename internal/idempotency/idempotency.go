// Package idempotency makes a write safe to retry: a request that carries an
// Idempotency-Key runs at most once per tenant, key and operation, and a
// retry with the same key and the same request gets the first response back
// instead of running again (integrators on flaky networks retry writes whose
// answer they never received).
//
// Rules (documented in rest/openapi/results.yaml):
//   - A key is 1 to 255 visible ASCII characters; it is scoped to the tenant
//     and the operation (method and route, or the GraphQL mutation), so the
//     same key on another route is another key.
//   - The request fingerprint is the SHA-256 of the canonical JSON body (key
//     order and spacing do not matter) and of the active project: the same
//     key with another body, or from another project, answers 409.
//   - Only a successful response is recorded, in the transaction of the work
//     it answers: the record exists exactly when the work committed. A
//     refused request (4xx) wrote nothing and may be retried with its key.
//   - Records are kept Retention (24 hours) and then ignored and purged.
//
// Concurrency: the first request claims the key by inserting its record
// before it works, in its own transaction. A concurrent request with the same
// key waits on the unique index (PostgreSQL) or on the write lock (SQLite)
// until the first commits, then finds the record and replays it (or gets the
// 409); when the first rolls back, the second does the work itself.
package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql/sqlgraph"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/idempotencyrecord"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Header is the request header that carries the key.
const Header = "Idempotency-Key"

// ReplayedHeader marks a replayed response ("true").
const ReplayedHeader = "Idempotent-Replayed"

// Retention is how long a key is remembered.
const Retention = 24 * time.Hour

// MaxKeyLength is the longest key accepted.
const MaxKeyLength = 255

// Messages of the key rules.
const (
	MsgKeyFormat = "Idempotency-Key must be 1 to 255 visible ASCII characters"
	MsgKeyReused = "Idempotency-Key was already used with a different request"
)

// Request identifies an idempotent operation.
type Request struct {
	Key    string // the Idempotency-Key value
	Method string // "POST", or "Mutation" for GraphQL
	Path   string // the route pattern ("/activity-results/tasks") or the mutation field
	Body   any    // the request as decoded JSON (hashed canonically)
}

// Response is what the first execution answered and a replay repeats.
type Response struct {
	Status int
	Body   []byte
}

// Service records and replays idempotent responses.
type Service struct {
	client *ent.Client
	now    func() time.Time
}

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client, now: time.Now} }

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// ValidKey reports whether key satisfies the key rules.
func ValidKey(key string) bool {
	if len(key) == 0 || len(key) > MaxKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

// errClaimed: another request claimed the key first (PostgreSQL unique index).
var errClaimed = errors.New("idempotency key claimed concurrently")

// Do runs work once for req: the first time in a transaction of its own
// (work must use txn.Client(ctx) or txn.Run, which join it), recording its
// response; a later call with the same key and request returns the recorded
// response with replayed true, one with another request the 409. An error of
// work rolls everything back and is returned as is. The claim commits with
// the work, on its own: Do is never called inside a transaction.
func (s *Service) Do(ctx context.Context, req Request, work func(ctx context.Context) (Response, error)) (resp Response, replayed bool, err error) {
	if !ValidKey(req.Key) {
		return Response{}, false, apperr.Invalid(MsgKeyFormat)
	}
	v := viewer.FromContext(ctx)
	if v == nil || v.TenantID == uuid.Nil {
		return Response{}, false, errors.New("idempotency: no tenant in context")
	}
	hash, err := fingerprint(req.Body, v.ProjectID)
	if err != nil {
		return Response{}, false, err
	}
	// A request that lost the claim race retries once the winner committed:
	// it then finds the record. Two rounds suffice; a third guards against a
	// winner that rolled back in between.
	for range 3 {
		resp, replayed, err = s.attempt(ctx, v.TenantID, req, hash, work)
		if !errors.Is(err, errClaimed) {
			return resp, replayed, err
		}
	}
	return Response{}, false, apperr.Conflict(MsgKeyReused)
}

func (s *Service) attempt(ctx context.Context, tid uuid.UUID, req Request, hash string,
	work func(ctx context.Context) (Response, error)) (resp Response, replayed bool, err error) {
	now := s.now()
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		rec, err := tx.IdempotencyRecord.Query().Where(idempotencyrecord.TenantID(tid), idempotencyrecord.Key(req.Key),
			idempotencyrecord.Method(req.Method), idempotencyrecord.Path(req.Path)).Only(ctx)
		switch {
		case err == nil && rec.ExpiresAt.After(now):
			if rec.RequestHash != hash {
				return apperr.Conflict(MsgKeyReused)
			}
			resp, replayed = Response{Status: rec.StatusCode, Body: rec.ResponseBody}, true
			return nil
		case err == nil: // expired: the key is free again
			if err := tx.IdempotencyRecord.DeleteOne(rec).Exec(ctx); err != nil {
				return fmt.Errorf("idempotency: drop expired record: %w", err)
			}
		case !ent.IsNotFound(err):
			return fmt.Errorf("idempotency: read record: %w", err)
		}
		claim, err := tx.IdempotencyRecord.Create().SetTenantID(tid).SetKey(req.Key).
			SetMethod(req.Method).SetPath(req.Path).SetRequestHash(hash).
			SetStatusCode(0).SetExpiresAt(now.Add(Retention)).Save(ctx)
		if sqlgraph.IsUniqueConstraintError(err) {
			return errClaimed
		}
		if err != nil {
			return fmt.Errorf("idempotency: claim key: %w", err)
		}
		if resp, err = work(ctx); err != nil {
			return err
		}
		if err := tx.IdempotencyRecord.Update().Where(idempotencyrecord.ID(claim.ID)).SetStatusCode(resp.Status).
			SetResponseBody(resp.Body).Exec(ctx); err != nil {
			return fmt.Errorf("idempotency: record response: %w", err)
		}
		return nil
	})
	return resp, replayed, err
}

// Purge deletes the records expired at now (any tenant) and returns how many.
func (s *Service) Purge(ctx context.Context, now time.Time) (int, error) {
	return s.client.IdempotencyRecord.Delete().Where(idempotencyrecord.ExpiresAtLTE(now)).
		Exec(viewer.SystemContext(ctx))
}

// RunPurger purges expired records now and then every interval until ctx
// ends (safe on every replica: a delete of expired rows).
func (s *Service) RunPurger(ctx context.Context, every time.Duration) {
	jobs.Every(ctx, "idempotency purge", every, s.now, s.Purge)
}

// fingerprint hashes the canonical JSON of body with the active project.
func fingerprint(body any, project uuid.UUID) (string, error) {
	canonical, err := json.Marshal(body) // map keys are sorted
	if err != nil {
		return "", fmt.Errorf("idempotency: fingerprint: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(project.String()))
	h.Write([]byte{'\n'})
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil)), nil
}
