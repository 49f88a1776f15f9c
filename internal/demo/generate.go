package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// The demo is a consumer-goods distributor in Ecuador (amounts in USD)
// selling to small commerces through an ordering app, a web shop and sales
// representatives.

const (
	day  = 24 * time.Hour
	year = 365 * day
)

// local is the distributor's time zone: activity follows its business hours.
var local = time.FixedZone("ECT", -5*60*60)

// money is an amount in cents: exact in postgres numeric, and the same
// double on sqlite whatever the platform.
type money int64

// String is the exact decimal text ("12.30"); amounts are never negative.
func (m money) String() string { return fmt.Sprintf("%d.%02d", m/100, m%100) }

// Float is the nearest double (what sqlite REAL and JSON hold).
func (m money) Float() float64 { return float64(m) / 100 }

// jsonArray is the JSON text of a repeated RECORD column.
type jsonArray string

type commerce struct {
	id, profile, platform, rep string
	seg                        int       // index in segments
	created, from, until       time.Time // registration; activity window within the year
	ticket                     float64   // typical order value, USD
}

type product struct {
	id, category string
	price        money
	launched     time.Time
}

type generator struct {
	r          *rand.Rand
	now, start time.Time
	commerces  []commerce
	activity   []float64 // cumulative commerce activity weights
	products   []product
	byCategory [][]int     // product indexes per category, most popular first
	popularity [][]float64 // cumulative popularity per category
	affinity   [][]float64 // per segment, category weights over stocked categories
}

// generate builds every table's rows, in catalog column order.
func generate(o Options) map[string][][]any {
	g := &generator{
		r:   rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		now: o.Now,
		// +1ms keeps every instant strictly after Now-365d.
		start: o.Now.Add(-year + time.Millisecond),
	}
	data := map[string][][]any{}
	data[TableCommerces] = g.genCommerces(o.Commerces)
	data[TableProductProperties] = g.genProducts(o.Products)
	data[TableEvents] = g.genEvents(o.Events)
	data[TableTransactions] = g.genTransactions(o.Transactions)
	return data
}

// between returns a uniform instant in [a, b] at millisecond precision.
func (g *generator) between(a, b time.Time) time.Time {
	if !b.After(a) {
		return a
	}
	return a.Add(time.Duration(g.r.Int64N(int64(b.Sub(a)/time.Millisecond)+1)) * time.Millisecond)
}

// ago returns Now minus a uniform duration in [lo, hi].
func (g *generator) ago(lo, hi time.Duration) time.Time {
	return g.between(g.now.Add(-hi), g.now.Add(-lo))
}

// uniform is a uniform float in [lo, hi). The float64 conversions here and
// below forbid fused multiply-adds, whose rounding differs between CPUs.
func (g *generator) uniform(lo, hi float64) float64 { return lo + float64(g.r.Float64()*(hi-lo)) }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

// pick returns one of items with the given relative weights.
func (g *generator) pick(items []string, weights []float64) string {
	return items[g.pickIndex(weights)]
}

// pickIndex returns an index drawn with the given relative weights.
func (g *generator) pickIndex(weights []float64) int {
	var total float64
	for _, w := range weights {
		total += w
	}
	x := g.r.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// index draws from cumulative weights.
func (g *generator) index(cum []float64) int {
	x := g.r.Float64() * cum[len(cum)-1]
	return sort.Search(len(cum), func(i int) bool { return cum[i] > x })
}

// cents rounds a USD amount to a multiple of step cents (at least step).
func cents(usd float64, step int64) money {
	c := int64(math.Round(usd*100/float64(step))) * step
	return money(max(c, step))
}

var (
	cities       = []string{"Guayaquil", "Quito", "Cuenca", "Santo Domingo", "Machala", "Manta", "Portoviejo", "Ambato", "Loja", "Riobamba", "Esmeraldas", "Ibarra"}
	cityWeights  = []float64{25, 24, 10, 6, 5, 5, 5, 5, 4, 4, 3, 4}
	segments     = []string{"grocery", "minimarket", "pharmacy", "bakery", "liquor_store", "restaurant"}
	segWeights   = []float64{35, 18, 10, 12, 10, 15}
	segPrefix    = []string{"Tienda", "Minimarket", "Farmacia", "Panadería", "Licorería", "Restaurante"}
	segChannel   = []string{"traditional", "modern", "modern", "traditional", "traditional", "horeca"}
	segCredit    = []float64{1500, 5000, 4000, 1200, 3000, 2500}
	segTicket    = []float64{60, 180, 120, 45, 110, 90}
	nameSuffixes = []string{"Don Pepe", "La Esquina", "El Progreso", "Santa Lucía", "Doña Rosa", "San José", "Los Andes",
		"El Vecino", "La Económica", "Mi Barrio", "El Sol", "La Favorita", "Don Lucho", "Las Palmas", "El Ahorro",
		"La Bendición", "San Francisco", "El Triunfo", "Doña Carmen", "La Estrella", "El Paraíso", "Central",
		"La Colina", "Los Pinos", "El Mirador", "La Delicia", "Familiar", "San Pedro", "La Victoria", "El Buen Precio"}
	profiles       = []string{"loyal", "occasional", "dormant", "new"}
	profileWeights = []float64{40, 25, 20, 15}
	platforms      = []string{"android", "ios", "web"}
	platformWeight = []float64{65, 15, 20}
)

// genCommerces draws commerces with an activity profile: loyal and
// occasional ones act all year, dormant ones stopped at least 60 days ago,
// new ones registered in the last 90 days.
func (g *generator) genCommerces(n int) [][]any {
	rows := make([][]any, 0, n)
	var total float64
	for i := range n {
		seg := g.pickIndex(segWeights)
		c := commerce{
			id:       fmt.Sprintf("COM-%05d", i+1),
			seg:      seg,
			profile:  g.pick(profiles, profileWeights),
			platform: g.pick(platforms, platformWeight),
			rep:      fmt.Sprintf("REP-%02d", 1+g.r.IntN(24)),
			ticket:   segTicket[seg] * g.uniform(0.6, 1.6),
		}
		var rate float64
		if c.profile == "new" {
			c.created = g.ago(day, 90*day)
		} else {
			c.created = g.ago(90*day, 3*year)
		}
		c.from, c.until = maxTime(c.created, g.start), g.now
		switch c.profile {
		case "loyal":
			rate = g.uniform(0.5, 1.5)
		case "occasional":
			rate = g.uniform(0.05, 0.2)
		case "new":
			rate = g.uniform(0.4, 1.2)
		case "dormant":
			rate = g.uniform(0.3, 1.0)
			churn := g.now.Add(-60 * day)
			c.until = g.between(c.from.Add(churn.Sub(c.from)/10), churn)
		}
		total += float64(rate * c.until.Sub(c.from).Hours())
		g.activity = append(g.activity, total)
		g.commerces = append(g.commerces, c)

		active := !g.chance(0.02)
		if c.profile == "dormant" {
			active = g.chance(0.5)
		}
		var external any = fmt.Sprintf("ERP-%06d", 104729+37*i)
		// New commerces are often not yet synchronised with the ERP.
		if c.profile == "new" && g.chance(0.4) || g.chance(0.03) {
			external = nil
		}
		channel := segChannel[seg]
		if seg == 1 && g.chance(0.2) || seg == 0 && g.chance(0.05) {
			channel = "wholesale"
		}
		name := segPrefix[seg] + " " + nameSuffixes[g.r.IntN(len(nameSuffixes))]
		city := g.pick(cities, cityWeights)
		credit := cents(segCredit[seg]*g.uniform(0.5, 2), 5000)
		rows = append(rows, []any{c.id, external, name, city, segments[seg], channel, c.created, active, credit})
	}
	return rows
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
