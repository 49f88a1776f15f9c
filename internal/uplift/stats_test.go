package uplift

import (
	"math"
	"testing"
)

// TestNewcombeTableII: the method-10 (hybrid score) column of Table II of
// Newcombe RG, "Interval estimation for the difference between independent
// proportions: comparison of eleven methods", Stat Med 1998;17:873-890,
// to the paper's four decimals. Examples (a) 56/70 - 48/80 -> 0.0524 to
// 0.3339 and (b) 9/10 - 3/10 -> 0.1705 to 0.8090 are the paper's worked
// figures; (c)-(h) are the table's remaining examples (the boundary cases
// with zero counts and full counts) as the method gives them.
func TestNewcombeTableII(t *testing.T) {
	for _, c := range []struct {
		name           string
		x1, n1, x2, n2 int
		lo, hi         float64
	}{
		{"a", 56, 70, 48, 80, 0.0524, 0.3339},
		{"b", 9, 10, 3, 10, 0.1705, 0.8090},
		{"c", 6, 7, 2, 7, 0.0582, 0.8062},
		{"d", 5, 56, 0, 29, -0.0381, 0.1926},
		{"e", 0, 10, 0, 20, -0.1611, 0.2775},
		{"f", 0, 10, 0, 10, -0.2775, 0.2775},
		{"g", 10, 10, 0, 20, 0.6791, 1.0000},
		{"h", 10, 10, 0, 10, 0.6075, 1.0000},
	} {
		lo, hi := Newcombe(c.x1, c.n1, c.x2, c.n2, Z95)
		if math.Round(lo*1e4)/1e4 != c.lo || math.Round(hi*1e4)/1e4 != c.hi {
			t.Errorf("(%s) %d/%d - %d/%d: %.6f to %.6f, want %.4f to %.4f", c.name, c.x1, c.n1, c.x2, c.n2, lo, hi, c.lo, c.hi)
		}
	}
}

// TestWilson: the score interval by hand for 3/10 (p = 0.3,
// z^2 = 3.841459): (2*10*0.3 + z^2 -+ z*sqrt(z^2 + 4*10*0.3*0.7)) /
// (2*(10 + z^2)) = (9.841459 -+ 1.959964*3.498780) / 27.682918
// = 2.983986/27.682918 to 16.698932/27.682918 = 0.107791 to 0.603222; and
// the edges are exact.
func TestWilson(t *testing.T) {
	lo, hi := Wilson(3, 10, Z95)
	if math.Abs(lo-0.107791) > 1e-6 || math.Abs(hi-0.603222) > 1e-6 {
		t.Errorf("3/10: %.6f to %.6f", lo, hi)
	}
	if lo, hi := Wilson(0, 20, Z95); lo != 0 || math.Abs(hi-0.161125) > 1e-6 {
		t.Errorf("0/20: %v to %v", lo, hi)
	}
	if lo, hi := Wilson(20, 20, Z95); hi != 1 || math.Abs(lo-0.838875) > 1e-6 {
		t.Errorf("20/20: %v to %v", lo, hi)
	}
}

// TestPooledZTest against hand computations:
//   - 9/10 vs 3/10: pooled p = 12/20 = 0.6, se = sqrt(0.6*0.4*(1/10+1/10))
//     = sqrt(0.048) = 0.219089, z = 0.6/0.219089 = 2.738613, two-sided
//     P = 2*(1 - Phi(2.7386)) = 2*0.003085 = 0.006170;
//   - 56/70 vs 48/80: p = 104/150, se = sqrt(0.693333*0.306667*(1/70+1/80))
//     = 0.075467, z = 0.2/0.075467 = 2.650172, P = 0.008045;
//   - 2/6 vs 2/3: p = 4/9, se = sqrt(4/9*5/9*(1/6+1/3)) = 0.351364,
//     z = -1/3/0.351364 = -0.948683, P = 0.342782.
//
// Undefined with an empty group or a pooled rate of 0 or 1.
func TestPooledZTest(t *testing.T) {
	for _, c := range []struct {
		x1, n1, x2, n2 int
		p              float64
	}{
		{9, 10, 3, 10, 0.006170},
		{56, 70, 48, 80, 0.008045},
		{2, 6, 2, 3, 0.342782},
		{3, 10, 9, 10, 0.006170},
		{5, 10, 5, 10, 1},
	} {
		p, ok := PooledZTest(c.x1, c.n1, c.x2, c.n2)
		if !ok || math.Abs(p-c.p) > 5e-7 {
			t.Errorf("%d/%d vs %d/%d: %v %v, want %v", c.x1, c.n1, c.x2, c.n2, p, ok, c.p)
		}
	}
	for _, c := range [][4]int{{0, 10, 0, 5}, {10, 10, 5, 5}, {1, 0, 1, 5}, {1, 5, 0, 0}} {
		if p, ok := PooledZTest(c[0], c[1], c[2], c[3]); ok {
			t.Errorf("%v: %v, want undefined", c, p)
		}
	}
}

// TestSmallSampleRule: 30 decisions with 5 successes and 5 failures pass.
func TestSmallSampleRule(t *testing.T) {
	for _, c := range []struct {
		x, n  int
		small bool
	}{{5, 30, false}, {25, 30, false}, {15, 29, true}, {4, 100, true}, {96, 100, true}, {0, 0, true}} {
		if got := small(c.x, c.n); got != c.small {
			t.Errorf("%d/%d: small %v, want %v", c.x, c.n, got, c.small)
		}
	}
}
