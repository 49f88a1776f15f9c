package compiled_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/graph/compiled"
)

// Writer.Cursor writes what entgql.Cursor's MarshalGQL writes, for every
// format of the values it writes (strings of each length class, times in
// each timestamp format, before 1970 and after 2514, in other zones), and
// declines any other value.
func TestCursor(t *testing.T) {
	values := []any{nil, "", "abc", strings.Repeat("x", 31), strings.Repeat("y", 32), strings.Repeat("z", 255),
		strings.Repeat("é", 128), strings.Repeat("w", 65535), strings.Repeat("v", 65536),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600)),
		time.Date(1969, 12, 31, 23, 59, 59, 999_999_999, time.UTC), time.Date(2600, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2600, 1, 1, 0, 0, 0, 1, time.UTC), time.Unix(1<<34-1, 0), time.Unix(1<<34, 0), time.Unix(1<<32-1, 0), time.Unix(1<<32, 0), time.Time{}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		values = append(values, time.Unix(rng.Int64N(1<<40)-1<<39, rng.Int64N(1e9)))
	}
	w := &compiled.Writer{}
	for _, v := range values {
		id := uuid.New()
		var want bytes.Buffer
		entgql.Cursor[uuid.UUID]{ID: id, Value: v}.MarshalGQL(&want)
		start := len(w.Bytes())
		if !w.Cursor(id, v) {
			t.Fatalf("Cursor(%v) declined", v)
		}
		if got := w.Bytes()[start:]; !bytes.Equal(got, want.Bytes()) {
			t.Errorf("Cursor(%.40v):\n got %.200s\nwant %.200s", v, got, want.Bytes())
		}
	}
	for _, v := range []any{7, int64(300), 2.5, true, []byte("b")} {
		before := len(w.Bytes())
		if w.Cursor(uuid.New(), v) || len(w.Bytes()) != before {
			t.Errorf("Cursor(%T) wrote %s, want it declined", v, w.Bytes()[before:])
		}
	}
}
