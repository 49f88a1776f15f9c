package txn

import (
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Row locks, as query modifiers (q.Modify(txn.ForUpdate)): they hold the
// selected rows until the transaction ends, on PostgreSQL. SQLite has no row
// locks and needs none: its write transactions (BEGIN IMMEDIATE) are
// exclusive, so writers take turns already. A locking query selects no
// DISTINCT rows (Unique(false)).

// ForUpdate locks the selected rows exclusively (SELECT ... FOR UPDATE):
// another transaction's lock or write of them waits.
func ForUpdate(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate()
	}
}

// ForShare locks the selected rows shared (SELECT ... FOR SHARE): other
// shared locks go on, an exclusive lock or a write of them waits.
func ForShare(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForShare()
	}
}
