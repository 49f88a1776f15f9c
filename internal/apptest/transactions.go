package apptest

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/demo"
)

// Transaction is one row of the demo dataset's transactions table, as the
// lifecycle engine reads it: its id, its commerce (the identity) and its
// instant.
type Transaction struct {
	ID       string
	Commerce string
	At       time.Time
}

// ReplaceTransactions empties the transactions table of a DemoDataset (db
// and prefix as DemoDataset returns them) and writes rows instead, so a test
// states every row the engine reads (amount 1 USD, completed, one line).
func ReplaceTransactions(t testing.TB, db *sql.DB, prefix string, rows ...Transaction) {
	t.Helper()
	table := prefix + demo.TableTransactions
	if _, err := db.Exec("DELETE FROM " + table); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	values := make([]string, len(rows))
	for i, r := range rows {
		values[i] = fmt.Sprintf("(%s, %s, 1, 'USD', 'completed', %s, 1)", quote(r.ID), quote(r.Commerce),
			quote(r.At.UTC().Format(demo.TimestampFormat)))
	}
	if _, err := db.Exec("INSERT INTO " + table + " (transaction_id, commerce_id, amount, currency, status, transacted_at, items_count) VALUES " +
		strings.Join(values, ", ")); err != nil {
		t.Fatal(err)
	}
}
