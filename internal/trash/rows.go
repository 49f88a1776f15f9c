package trash

import (
	"context"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/clock"
)

// Columns every trashable table has (ent's generated FieldID and
// FieldArchivedAt of each of them).
const (
	columnID         = "id"
	columnArchivedAt = "archived_at"
)

// rowUpdate and rowDelete are the parts of a trashable table's ent update
// and delete builders that the trash uses; P is the table's predicate type.
type rowUpdate[P ~func(*sql.Selector), U any] interface {
	Where(...P) U
	SetArchivedAt(time.Time) U
	ClearArchivedAt() U
	Save(context.Context) (int, error)
}

type rowDelete[P ~func(*sql.Selector), D any] interface {
	Where(...P) D
	Exec(context.Context) (int, error)
}

// rowWrite is a write of the trash on one record, inside the caller's
// transaction; it returns how many rows it changed (0: the record is not in
// the state the write needs).
type rowWrite func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error)

// tableOps are the trash's writes on the row of one record: archive sets
// archived_at on the live row, restore clears it on the archived row, purge
// deletes the archived row (rows that reference it cascade or block).
type tableOps struct{ archive, restore, purge rowWrite }

// tableClient is the ent client of a trashable table, for its update and
// delete builders.
type tableClient[U, D any] interface {
	Update() U
	Delete() D
}

// table builds the tableOps of one table from its ent client.
func table[P ~func(*sql.Selector), C tableClient[U, D], U rowUpdate[P, U], D rowDelete[P, D]](client func(*ent.Client) C) tableOps {
	row := func(id uuid.UUID, archived bool) []P {
		state := sql.FieldIsNull(columnArchivedAt)
		if archived {
			state = sql.FieldNotNull(columnArchivedAt)
		}
		return []P{P(sql.FieldEQ(columnID, id)), P(state)}
	}
	return tableOps{
		archive: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return client(tx).Update().Where(row(id, false)...).SetArchivedAt(clock.Now()).Save(ctx)
		},
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return client(tx).Update().Where(row(id, true)...).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return client(tx).Delete().Where(row(id, true)...).Exec(ctx)
		},
	}
}
