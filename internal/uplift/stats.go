package uplift

import "math"

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// The small-sample rule: below these, an outcome carries a warning.
const (
	MinDecisions = 30 // decisions in each group
	MinCount     = 5  // successes, and failures, in each group
)

// Wilson is the Wilson score interval (without continuity correction) of
// the proportion x/n at quantile z; n must be positive.
func Wilson(x, n int, z float64) (lo, hi float64) {
	p, nn := float64(x)/float64(n), float64(n)
	center := 2*nn*p + z*z
	spread := z * math.Sqrt(z*z+4*nn*p*(1-p))
	den := 2 * (nn + z*z)
	lo, hi = (center-spread)/den, (center+spread)/den
	// Exact at the edges (the formula leaves rounding noise there).
	if x == 0 {
		lo = 0
	}
	if x == n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1)
}

// Newcombe is the interval of the difference x1/n1 - x2/n2 by Newcombe's
// hybrid score method (method 10 of Newcombe 1998): with (l_i, u_i) the
// Wilson intervals of p_i, the difference D = p1 - p2 goes from
// D - sqrt((p1-l1)^2 + (u2-p2)^2) to D + sqrt((u1-p1)^2 + (p2-l2)^2).
// n1 and n2 must be positive.
func Newcombe(x1, n1, x2, n2 int, z float64) (lo, hi float64) {
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := Wilson(x1, n1, z)
	l2, u2 := Wilson(x2, n2, z)
	d := p1 - p2
	return d - math.Hypot(p1-l1, u2-p2), d + math.Hypot(u1-p1, p2-l2)
}

// PooledZTest is the two-sided p-value of the pooled two-proportion z-test
// of x1/n1 against x2/n2: z = (p1 - p2) / sqrt(p(1-p)(1/n1 + 1/n2)) with
// p = (x1 + x2) / (n1 + n2), and P(|Z| >= |z|) = erfc(|z| / sqrt 2). ok is
// false when it is undefined: an empty group, or p 0 or 1.
func PooledZTest(x1, n1, x2, n2 int) (p float64, ok bool) {
	if n1 <= 0 || n2 <= 0 {
		return 0, false
	}
	pooled := float64(x1+x2) / float64(n1+n2)
	if pooled <= 0 || pooled >= 1 {
		return 0, false
	}
	se := math.Sqrt(pooled * (1 - pooled) * (1/float64(n1) + 1/float64(n2)))
	z := (float64(x1)/float64(n1) - float64(x2)/float64(n2)) / se
	return math.Erfc(math.Abs(z) / math.Sqrt2), true
}

// small reports whether x/n breaks the small-sample rule.
func small(x, n int) bool { return n < MinDecisions || x < MinCount || n-x < MinCount }
