package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/lib/pq"

	"github.com/reten-io/reten/internal/pgconn"
)

// Channel is the PostgreSQL notification channel of the credential cache of
// the services whose tables are in db's current schema (the replicas of one
// deployment; another schema of the same database is another deployment).
func Channel(ctx context.Context, db *sql.DB) (string, error) {
	var schema string
	if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return "", fmt.Errorf("auth: the notification channel: %w", err)
	}
	channel := "reten_credentials:" + schema
	if len(channel) > maxChannel {
		sum := sha256.Sum256([]byte(schema))
		channel = "reten_credentials:" + hex.EncodeToString(sum[:16])
	}
	return channel, nil
}

// maxChannel is the longest channel name PostgreSQL takes (NAMEDATALEN-1).
const maxChannel = 63

// Listener empties this replica's credential cache when another replica
// notifies a change (Hook), and whenever its connection is lost or
// re-established (a notification may have been missed meanwhile).
type Listener struct{ l *pq.Listener }

// Listen starts listening on channel of the database at dsn.
func (s *Service) Listen(dsn, channel string) (*Listener, error) {
	l := pq.NewDialListener(pgconn.ListenerDialer(), dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, _ error) {
		if ev != pq.ListenerEventConnected {
			s.FlushCredentials()
		}
	})
	if err := l.Listen(channel); err != nil {
		_ = l.Close()
		return nil, fmt.Errorf("auth: listen on %s: %w", channel, err)
	}
	go func() {
		for range l.Notify {
			s.FlushCredentials()
		}
	}()
	return &Listener{l: l}, nil
}

// Close stops listening.
func (l *Listener) Close() error { return l.l.Close() }
