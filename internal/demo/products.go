package demo

import (
	"fmt"
	"math"
	"time"
)

// productType is a kind of product with its typical list price in USD.
type productType struct {
	name  string
	price float64
}

var (
	categories = []string{"beverages", "snacks", "dairy", "bakery", "personal_care", "home_cleaning", "liquor", "pantry"}
	// categoryWeights is the share of the catalogue per category.
	categoryWeights = []float64{18, 14, 12, 8, 14, 12, 10, 12}
	productTypes    = [][]productType{
		{{"Agua mineral 500 ml", 0.45}, {"Gaseosa cola 2 L", 1.90}, {"Gaseosa naranja 1,5 L", 1.50}, {"Jugo de naranja 1 L", 1.80},
			{"Té helado 500 ml", 0.90}, {"Bebida energizante 250 ml", 1.25}, {"Agua con gas 1 L", 0.85}},
		{{"Papas fritas 150 g", 1.40}, {"Chifles 100 g", 0.75}, {"Galletas de chocolate 6 u", 1.10}, {"Maní salado 200 g", 1.60},
			{"Chocolate en barra 40 g", 0.60}, {"Canguil 80 g", 0.70}},
		{{"Leche entera 1 L", 1.05}, {"Yogur de fresa 1 L", 2.20}, {"Queso fresco 500 g", 3.40}, {"Mantequilla 250 g", 2.10},
			{"Leche deslactosada 1 L", 1.20}},
		{{"Pan de molde 600 g", 2.30}, {"Tostadas 200 g", 1.50}, {"Pan integral 500 g", 2.50}, {"Bizcochos 12 u", 1.95}},
		{{"Jabón de tocador 3 u", 2.40}, {"Shampoo 400 ml", 4.80}, {"Pasta dental 100 ml", 1.90}, {"Desodorante 150 ml", 3.20},
			{"Papel higiénico 12 rollos", 5.50}},
		{{"Detergente en polvo 1 kg", 3.60}, {"Lavavajillas 500 ml", 1.70}, {"Cloro 1 L", 0.95}, {"Desinfectante 1 L", 2.30},
			{"Suavizante 1 L", 2.80}},
		{{"Cerveza lager 6 u", 5.90}, {"Cerveza lata 355 ml", 0.95}, {"Ron añejo 750 ml", 14.50}, {"Vino tinto 750 ml", 9.80},
			{"Aguardiente 750 ml", 11.20}},
		{{"Arroz 2 kg", 2.40}, {"Aceite vegetal 1 L", 2.90}, {"Azúcar 2 kg", 1.90}, {"Atún en lata 180 g", 1.60},
			{"Fideos 400 g", 0.85}, {"Sal 1 kg", 0.45}, {"Café molido 250 g", 3.90}},
	}
	brands = [][]string{
		{"Andina", "Cumbre", "Manantial", "Tropical"},
		{"Crocante", "Sabrosito", "Dulce Valle"},
		{"La Vaquita", "Campo Verde", "Nevado"},
		{"Horno Real", "Trigal"},
		{"Suave", "Brisa", "Dentix"},
		{"Brillo", "Limpiamax", "Aroma"},
		{"Costa Brava", "San Isidro", "Cóndor"},
		{"Doña Clara", "Del Valle", "Gran Cosecha"},
	}
	// segmentAffinity is, per commerce segment, how much each category
	// weighs in what it browses and buys.
	segmentAffinity = [][]float64{
		{25, 20, 12, 8, 8, 8, 6, 13},   // grocery
		{20, 15, 12, 8, 12, 12, 8, 13}, // minimarket
		{10, 6, 3, 1, 60, 15, 0, 5},    // pharmacy
		{15, 10, 30, 30, 0, 5, 0, 10},  // bakery
		{30, 25, 0, 0, 2, 3, 40, 0},    // liquor_store
		{25, 3, 20, 10, 2, 10, 15, 15}, // restaurant
	}
)

// privateLabel is the distributor's own brand.
const privateLabel = "Mercado Reten"

// genProducts draws the catalogue. The first product of each category is
// its best seller and was launched before the year, so an event can always
// find a product of the category that already existed.
func (g *generator) genProducts(n int) [][]any {
	rows := make([][]any, 0, n)
	g.byCategory = make([][]int, len(categories))
	seen := map[string]int{}
	for i := range n {
		cat := i
		if i >= len(categories) {
			cat = g.pickIndex(categoryWeights)
		}
		pt := productTypes[cat][g.r.IntN(len(productTypes[cat]))]
		brand := brands[cat][g.r.IntN(len(brands[cat]))]
		private := g.chance(0.15)
		factor := g.uniform(0.85, 1.25)
		if private {
			brand, factor = privateLabel, factor*0.82
		}
		name := brand + " " + pt.name
		// A repeated brand and type becomes a multipack.
		if k := seen[name]; k > 0 {
			seen[name] = k + 1
			factor *= float64(k+1) * 0.95
			name = fmt.Sprintf("%s pack x%d", name, k+1)
		} else {
			seen[name] = 1
		}
		launched := g.ago(year, 5*year)
		if i >= len(categories) && g.chance(0.15) {
			launched = g.between(g.start, g.now.Add(-30*day))
		}
		p := product{id: fmt.Sprintf("SKU-%05d", 10001+i), category: categories[cat],
			price: cents(pt.price*factor, 5), launched: launched}
		g.byCategory[cat] = append(g.byCategory[cat], len(g.products))
		g.products = append(g.products, p)
		rows = append(rows, []any{p.id, name, p.category, brand, p.price, private, launched})
	}
	// Zipf-like popularity inside each category, in draw order.
	g.popularity = make([][]float64, len(categories))
	for c, idx := range g.byCategory {
		var total float64
		for rank := range idx {
			total += 1 / math.Pow(float64(rank+1), 0.8)
			g.popularity[c] = append(g.popularity[c], total)
		}
	}
	g.affinity = make([][]float64, len(segmentAffinity))
	for s, weights := range segmentAffinity {
		g.affinity[s] = make([]float64, len(categories))
		for c, w := range weights {
			if len(g.byCategory[c]) > 0 {
				// The small base keeps every stocked category reachable.
				g.affinity[s][c] = w + 0.5
			}
		}
	}
	return rows
}

// productFor picks a product a commerce of the segment would handle at t:
// a category by the segment's affinity, then a popular product of it that
// was already launched.
func (g *generator) productFor(segment int, t time.Time) *product {
	cat := g.pickIndex(g.affinity[segment])
	for range 8 {
		p := &g.products[g.byCategory[cat][g.index(g.popularity[cat])]]
		if !p.launched.After(t) {
			return p
		}
	}
	return &g.products[g.byCategory[cat][0]]
}
