package querybuilder

import (
	"fmt"
	"strings"
)

// AudienceTree is an audience with its compositions resolved: the service
// loads each operand audience (recursively) from the database.
type AudienceTree struct {
	// ID identifies the audience for cycle detection ("" is never tracked).
	ID           string
	Definition   Definition
	Compositions []Composition
}

// Composition combines an operand audience into its audience.
type Composition struct {
	SetOperator SetOperator
	Operand     *AudienceTree
}

// maxOperands bounds the audiences one compilation expands (operands shared
// by several branches count each time), so a wide graph cannot explode.
const maxOperands = 64

// CompileAudience validates and compiles an audience and its compositions.
// The audience's own blocks compile as for Compile; when it has
// compositions, its subject column and each operand's (compiled the same
// way, recursively) are projected and combined left to right with the
// compositions' set operators, so the query then exposes only the subject
// column. An audience reached again along a path of compositions fails with
// ErrCompositionCycle; an invalid definition anywhere fails with
// *ValidationError whose paths start with "compositions[i].operand." for
// operands.
func CompileAudience(tree AudienceTree, cat *Catalog, d Dialect, opts Options) (*Compiled, error) {
	return compileAudience(tree, cat, d, opts, FinalCteName, 0)
}

// compileAudience names the final CTE cte and numbers placeholders after
// base others (MembershipChange puts two audiences in one statement).
func compileAudience(tree AudienceTree, cat *Catalog, d Dialect, opts Options, cte string, base int) (*Compiled, error) {
	c, err := newCompiler(cat, Audience, d, opts)
	if err != nil {
		return nil, err
	}
	c.cte, c.base = cte, base
	body, cols, subject, err := c.audience(&tree, "", nil, new(int))
	if err != nil {
		return nil, err
	}
	return c.result(body, cols, &subject), nil
}

func (c *compiler) audience(t *AudienceTree, prefix string, path []string, expanded *int) ([]line, []OutputColumn, string, error) {
	if t.ID != "" {
		for _, id := range path {
			if id == t.ID {
				return nil, nil, "", fmt.Errorf("%w: %s -> %s", ErrCompositionCycle, strings.Join(path, " -> "), t.ID)
			}
		}
		path = append(path[:len(path):len(path)], t.ID)
	}
	if *expanded++; *expanded > maxOperands {
		return nil, nil, "", &ValidationError{Issues: []Issue{{Path: strings.TrimSuffix(prefix, "."), Message: fmt.Sprintf("an audience may combine at most %d audiences through its compositions", maxOperands)}}}
	}
	body, cols, subject, err := c.definition(t.Definition, prefix+RootPath)
	if err != nil || len(t.Compositions) == 0 {
		return body, cols, subject, err
	}
	var subjectType FieldType
	for _, col := range cols {
		if col.Name == subject {
			subjectType = col.Type
		}
	}
	parts := [][]line{c.project(body, subject, subject)}
	ops := []SetOperator{""}
	for i, comp := range t.Compositions {
		p := fmt.Sprintf("%scompositions[%d]", prefix, i)
		if _, ok := SetOperators.Parse(string(comp.SetOperator)); !ok {
			return nil, nil, "", &ValidationError{Issues: []Issue{{Path: p + ".setOperator", Message: SetOperators.Message("setOperator")}}}
		}
		if comp.Operand == nil {
			return nil, nil, "", &ValidationError{Issues: []Issue{{Path: p + ".operand", Message: "operand should not be null or undefined"}}}
		}
		ob, ocols, osubject, err := c.audience(comp.Operand, p+".operand.", path, expanded)
		if err != nil {
			return nil, nil, "", err
		}
		if !subjectCompatible(ocols, osubject, subjectType) {
			return nil, nil, "", &ValidationError{Issues: []Issue{{Path: p + ".operand", Message: fmt.Sprintf("the operand audience's subject column %s cannot be combined with this audience's subject column %s (%s)", osubject, subject, subjectType)}}}
		}
		parts = append(parts, c.project(ob, osubject, subject))
		ops = append(ops, comp.SetOperator)
	}
	return c.combine(parts, ops), []OutputColumn{{Name: subject, Type: subjectType}}, subject, nil
}

func subjectCompatible(cols []OutputColumn, subject string, t FieldType) bool {
	for _, col := range cols {
		if col.Name == subject {
			return comparableTypes(col.Type, t)
		}
	}
	return false
}

// project selects the subject column of a compiled audience under the name
// the combined audience exposes.
func (c *compiler) project(body []line, from, to string) []line {
	a := c.nextAlias("a")
	lines := make([]line, 0, len(body)+2)
	lines = append(lines, line{0, "SELECT " + a + "." + c.ident(from) + " AS " + c.ident(to) + " FROM ("})
	lines = append(lines, indent(body)...)
	return append(lines, line{0, ") AS " + a})
}
