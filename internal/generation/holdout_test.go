package generation

import (
	"math"
	"testing"

	"github.com/google/uuid"
)

// TestInGroupShareAndStability: over 100,000 commerces the group holds the
// percentage within 1 point, the same commerces on every evaluation, and a
// new salt reshuffles it (about percent% of the old group stays).
func TestInGroupShareAndStability(t *testing.T) {
	ids := make([]uuid.UUID, 100_000)
	for i := range ids {
		ids[i] = uuid.New()
	}
	for _, pct := range []int{0, 5, 10, 25, 50} {
		var in, again, both int
		for _, id := range ids {
			a := InGroup("salt-1", id, pct)
			if a {
				in++
			}
			if InGroup("salt-1", id, pct) {
				again++
			}
			if a && InGroup("salt-2", id, pct) {
				both++
			}
		}
		share := 100 * float64(in) / float64(len(ids))
		if math.Abs(share-float64(pct)) > 1 || again != in {
			t.Errorf("percent %d: share %.2f%%, %d then %d in the group", pct, share, in, again)
		}
		if pct > 0 {
			// Independent salts: the overlap is about pct% of the group.
			if overlap := 100 * float64(both) / float64(in); math.Abs(overlap-float64(pct)) > 2 {
				t.Errorf("percent %d: %.2f%% of the group stays under a new salt, want about %d%%", pct, overlap, pct)
			}
		}
	}
	if InGroup("s", ids[0], -5) {
		t.Error("a negative percent put a commerce in the group")
	}
}
