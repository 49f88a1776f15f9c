package auth

import (
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestDummyHash: the hash an unknown identifier is checked against costs
// what a stored password's check costs, and matches no password.
func TestDummyHash(t *testing.T) {
	cost, err := bcrypt.Cost([]byte(dummyHash))
	if err != nil || cost != bcrypt.DefaultCost {
		t.Fatalf("dummyHash cost %d (%v), want bcrypt.DefaultCost %d", cost, err, bcrypt.DefaultCost)
	}
	stored, err := HashPassword("change-me-now")
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := bcrypt.Cost([]byte(stored)); c != cost {
		t.Errorf("stored hashes cost %d, dummyHash %d", c, cost)
	}
	for _, pw := range []string{"", "not-a-real-password", "change-me-now"} {
		if CheckPassword(dummyHash, pw) {
			t.Errorf("dummyHash matches %q", pw)
		}
	}
}
