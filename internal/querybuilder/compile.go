package querybuilder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// FinalCteName is the name of the one CTE every compiled query defines.
const FinalCteName = "CTE_VALID_EVENTS"

// Options tune the compiled output.
type Options struct {
	// Format is Parameterized (the default when empty) or Literal.
	Format Format
	// Qualifier prefixes table names: "project.dataset" on BigQuery, the
	// schema on PostgreSQL; SQLite ignores it.
	Qualifier string
}

// OutputColumn is one column the compiled query exposes.
type OutputColumn struct {
	Name string    `json:"name"`
	Type FieldType `json:"type"`
}

// Compiled is the SQL of a definition (SPEC.md IEventCriteriaSql plus what
// execution needs).
type Compiled struct {
	// Dialect is the engine the SQL is written for.
	Dialect string
	Format  Format
	// Query is "CTE_VALID_EVENTS AS (...)": no leading WITH, no trailing SELECT.
	Query        string
	FinalCteName string
	// SubjectColumn is nil for event filters and the output column holding
	// the identity (subject) for audiences.
	SubjectColumn *string
	// Columns are the exposed columns, named and typed like the first block's select.
	Columns []OutputColumn
	// Params and Types map pN to the value and BigQuery type of each
	// placeholder (parameterized format only).
	Params map[string]any
	Types  map[string]string
	// Args are the placeholder values in order, as the postgres or sqlite
	// driver takes them (parameterized format only).
	Args []any
}

// ValidationError is returned by the compile functions for a definition
// that does not validate; it carries every issue.
type ValidationError struct {
	Issues []Issue
}

func (e *ValidationError) Error() string {
	if len(e.Issues) == 0 {
		return "invalid definition"
	}
	return "invalid definition: " + e.Issues[0].Path + ": " + e.Issues[0].Message
}

// ErrCompositionCycle reports an audience that reaches itself through its
// compositions (a 400 for the service).
var ErrCompositionCycle = errors.New("audience compositions form a cycle")

// Compile validates a definition (failing with *ValidationError) and
// compiles it for a dialect. An audience without compositions compiles like
// CompileAudience of a tree with only a Definition.
func Compile(def Definition, cat *Catalog, kind Kind, d Dialect, opts Options) (*Compiled, error) {
	if kind == Audience {
		return CompileAudience(AudienceTree{Definition: def}, cat, d, opts)
	}
	c, err := newCompiler(cat, kind, d, opts)
	if err != nil {
		return nil, err
	}
	body, cols, _, err := c.definition(def, RootPath)
	if err != nil {
		return nil, err
	}
	return c.result(body, cols, nil), nil
}

// compiler holds the state of one compilation: bound parameters, counters
// for subquery aliases and caches of rendered identifiers.
type compiler struct {
	cat    *Catalog
	kind   Kind
	d      Dialect
	opts   Options
	cte    string
	base   int // number of placeholders bound before this query (MembershipChange)
	params map[string]any
	types  map[string]string
	args   []any
	n      int // placeholders bound so far
	alias  int // subquery aliases used so far
	// Small caches (a definition names few columns): linear search beats
	// a map's setup cost.
	idents []cachedIdent
	tables []cachedIdent
	cols   []cachedCol
}

type cachedIdent struct{ name, quoted string }

type cachedCol struct {
	r   resolved
	sql string
}

// ErrInvalidOptions reports a programming error: no dialect, or a format
// outside Formats (validate the format parameter with ParseFormat).
var ErrInvalidOptions = errors.New("querybuilder: invalid compile options")

func newCompiler(cat *Catalog, kind Kind, d Dialect, opts Options) (*compiler, error) {
	if opts.Format == "" {
		opts.Format = Parameterized
	}
	if _, ok := Formats.Parse(string(opts.Format)); !ok || d == nil {
		return nil, fmt.Errorf("%w: dialect %v, format %q", ErrInvalidOptions, d, opts.Format)
	}
	if cat == nil {
		cat = &Catalog{}
	}
	c := &compiler{cat: cat, kind: kind, d: d, opts: opts, cte: FinalCteName}
	if opts.Format == Parameterized {
		c.params, c.types = make(map[string]any, 16), make(map[string]string, 16)
	}
	return c, nil
}

// line is one line of the compiled body, depth levels deep (two spaces each).
type line struct {
	depth int
	text  string
}

// indent returns lines one level deeper.
func indent(lines []line) []line {
	out := make([]line, len(lines))
	for i, l := range lines {
		out[i] = line{l.depth + 1, l.text}
	}
	return out
}

func (c *compiler) result(body []line, cols []OutputColumn, subject *string) *Compiled {
	var b strings.Builder
	size := len(c.cte) + 8
	for _, l := range body {
		size += len(l.text) + 2*l.depth + 3
	}
	b.Grow(size)
	b.WriteString(c.cte)
	b.WriteString(" AS (\n")
	for _, l := range body {
		for i := 0; i <= l.depth; i++ {
			b.WriteString("  ")
		}
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	b.WriteByte(')')
	out := &Compiled{
		Dialect: c.d.Name(), Format: c.opts.Format, Query: b.String(), FinalCteName: c.cte,
		SubjectColumn: subject, Columns: cols, Params: c.params, Types: c.types,
	}
	if len(c.args) > 0 {
		out.Args = c.args
	}
	return out
}

// paramNames are the first parameter names, to bind without allocating.
var paramNames = func() (names [128]string) {
	for i := range names {
		names[i] = "p" + strconv.Itoa(i)
	}
	return names
}()

func paramName(n int) string {
	if n < len(paramNames) {
		return paramNames[n]
	}
	return "p" + strconv.Itoa(n)
}

// bind renders a value: a placeholder (recording its parameter) or a literal.
func (c *compiler) bind(v scalarValue) string {
	if c.opts.Format == Literal {
		return c.d.literal(v)
	}
	key := paramName(c.n)
	c.params[key] = v.param()
	c.types[key] = bigQueryType(v.typ)
	if arg := c.d.arg(v); arg != nil {
		c.args = append(c.args, arg)
	}
	c.n++
	return c.d.placeholder(c.base+c.n-1, v.typ)
}

// ident is a quoted identifier, rendered once per compilation.
func (c *compiler) ident(name string) string {
	for _, id := range c.idents {
		if id.name == name {
			return id.quoted
		}
	}
	q := c.d.quoteIdent(name)
	c.idents = append(c.idents, cachedIdent{name, q})
	return q
}

// table is a quoted, qualified table name, rendered once per compilation.
func (c *compiler) table(name string) string {
	for _, t := range c.tables {
		if t.name == name {
			return t.quoted
		}
	}
	q := c.d.table(c.opts.Qualifier, name)
	c.tables = append(c.tables, cachedIdent{name, q})
	return q
}

// nextAlias is a fresh alias for a subquery row source.
func (c *compiler) nextAlias(prefix string) string {
	c.alias++
	return prefix + strconv.Itoa(c.alias-1)
}

// definition validates and compiles the blocks into the lines of the body
// of the final CTE. subject is the audience subject output column ("" for
// event filters).
func (c *compiler) definition(def Definition, root string) (body []line, cols []OutputColumn, subject string, err error) {
	if issues := validate(def, c.cat, c.kind, root); len(issues) > 0 {
		return nil, nil, "", &ValidationError{Issues: issues}
	}
	if c.params != nil && len(c.params) == 0 {
		n := valueCount(def)
		c.params, c.types, c.args = make(map[string]any, n), make(map[string]string, n), make([]any, 0, n)
	}
	blocks := def.Sorted()
	parts := make([][]line, len(blocks))
	ops := make([]SetOperator, len(blocks))
	identityAt := -1
	for i := range blocks {
		var blockCols []OutputColumn
		var identity int
		parts[i], blockCols, identity = c.block(&blocks[i])
		if i == 0 {
			cols = blockCols
		} else {
			ops[i] = *blocks[i].SetOperator
		}
		if identityAt < 0 {
			identityAt = identity
		}
	}
	if c.kind == Audience && identityAt >= 0 {
		subject = cols[identityAt].Name
	}
	return c.combine(parts, ops), cols, subject, nil
}

// valueCount is the number of values a definition binds, to size the
// parameter maps once.
func valueCount(def Definition) int {
	n := 0
	count := func(node *Node) bool {
		if node.Value != nil {
			n += len(node.Value.Items)
		}
		return true
	}
	for i := range def.Blocks {
		b := &def.Blocks[i]
		if b.TimeWindow != nil {
			n += 2
		}
		b.Where.Walk(count)
		b.Having.Walk(count)
	}
	return n
}

// combine joins compiled operands with set operators, left to right:
// ((a op1 b) op2 c). Runs of one operator stay flat; a change of operator
// parenthesizes what came before, since engines differ in precedence.
func (c *compiler) combine(parts [][]line, ops []SetOperator) []line {
	if len(parts) == 1 {
		return parts[0]
	}
	open := "("
	if !c.d.parenthesizedSets() {
		open = "SELECT * FROM ("
	}
	wrap := func(lines []line) []line {
		out := make([]line, 0, len(lines)+2)
		out = append(out, line{0, open})
		for _, l := range lines {
			out = append(out, line{l.depth + 1, l.text})
		}
		return append(out, line{0, ")"})
	}
	acc := wrap(parts[0])
	for i := 1; i < len(parts); i++ {
		if i > 1 && ops[i] != ops[i-1] && c.d.parenthesizedSets() {
			acc = wrap(acc)
		}
		acc = append(acc, line{0, c.d.setOperator(ops[i])})
		acc = append(acc, wrap(parts[i])...)
	}
	return acc
}
